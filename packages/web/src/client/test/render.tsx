import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import {
  MessageType,
  type APIChannel,
  type APIGuild,
  type APIMessage,
  type APIUser,
} from 'discord-api-types/v10';
import { GatewayClient } from '../../lib/gateway.js';
import { createStore } from '../../lib/store.js';
import { ClientValueProvider } from '../context.js';
import { initialState, reduce, type ClientState } from '../state.js';

/** Component tests' fixtures: a user, a guild with one text channel, a message. */
export const ME: APIUser = {
  id: '100000000000000001',
  username: 'ada',
  global_name: 'Ada',
  discriminator: '0',
  avatar: null,
};

export const GUILD_ID = '200000000000000001';
export const CHANNEL_ID = '300000000000000001';

export function guildCreate(extra: Partial<APIGuild> & Record<string, unknown> = {}) {
  return {
    id: GUILD_ID,
    name: 'Lab',
    icon: null,
    owner_id: ME.id,
    features: [],
    roles: [
      {
        id: GUILD_ID,
        name: '@everyone',
        permissions: '2248473465835073',
        position: 0,
        color: 0,
        colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
        hoist: false,
        managed: false,
        mentionable: false,
        icon: null,
        unicode_emoji: null,
        flags: 0,
      },
    ],
    channels: [{ id: CHANNEL_ID, type: 0, name: 'general', position: 0, guild_id: GUILD_ID }],
    members: [
      { user: ME, roles: [], joined_at: '2026-01-01T00:00:00.000Z', deaf: false, mute: false },
    ],
    presences: [],
    voice_states: [],
    member_count: 1,
    ...extra,
  };
}

export function message(extra: Partial<APIMessage> = {}): APIMessage {
  return {
    id: '400000000000000001',
    channel_id: CHANNEL_ID,
    author: ME,
    content: 'hello',
    timestamp: '2026-01-01T00:00:00.000Z',
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: MessageType.Default,
    ...extra,
  };
}

/** A state after READY and the guild's GUILD_CREATE. */
export function readyState(): ClientState {
  let state = reduce(
    initialState,
    { t: 'READY', d: { user: ME, session_id: 's1', private_channels: [], relationships: [] } },
    0,
  );
  state = reduce(state, { t: 'GUILD_CREATE', d: guildCreate() }, 0);
  // A copy of its own: what the reducer left untouched is initialState's, and a test that sets a
  // presence on it would otherwise set it for every later test.
  return structuredClone(state);
}

export function channel(): APIChannel {
  const found = readyState().channels[CHANNEL_ID];
  if (found === undefined) throw new Error('fixture channel missing');
  return found;
}

/** Renders inside a client context (a gateway that is never connected) and a memory router. */
export function renderWithClient(ui: ReactElement, state: ClientState = readyState()) {
  const store = createStore(state);
  const gateway = new GatewayClient('test-token');
  const { hook } = memoryLocation({ path: '/channels/@me' });
  const result = render(
    <Router hook={hook}>
      <ClientValueProvider value={{ gateway, store }}>{ui}</ClientValueProvider>
    </Router>,
  );
  return { ...result, store, gateway };
}
