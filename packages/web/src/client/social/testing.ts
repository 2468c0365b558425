/** Test helpers of client/social: a gateway driven by hand, an empty state, users. */
import type { APIUser } from 'discord-api-types/v10';
import type { ClientState } from '../state.js';

type Handler = (data: unknown, type: string) => void;

/** The part of GatewayClient the reducers use, with `dispatch` to play a server's events. */
export function fakeGateway() {
  const handlers = new Map<string, Set<Handler>>();
  return {
    on(type: string, handler: Handler) {
      const set = handlers.get(type) ?? new Set<Handler>();
      handlers.set(type, set);
      set.add(handler);
      return () => set.delete(handler);
    },
    dispatch(type: string, data: unknown) {
      for (const handler of handlers.get(type) ?? []) handler(data, type);
    },
  };
}

export function socialState(overrides: Partial<ClientState> = {}): ClientState {
  return {
    me: user('10', 'ada'),
    sessionId: null,
    ready: true,
    guilds: {},
    guildChannelIds: {},
    channels: {},
    privateChannelIds: [],
    members: {},
    users: {},
    presences: {},
    relationships: {},
    messages: {},
    typing: {},
    voiceStates: {},
    ...overrides,
  };
}

export function user(id: string, username: string): APIUser {
  return { id, username, discriminator: '0', global_name: null, avatar: null };
}
