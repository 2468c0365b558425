import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { GatewayIntentBits } from 'discord-api-types/v10';
import { GatewayClient, Op } from '../lib/gateway.js';
import { setToken } from '../lib/session.js';
import { createStore, useStore, type Store } from '../lib/store.js';
import { subscribeSocial } from './social/events.js';
import type { ActivityInstance } from './activities/api.js';
import type { PresenceActivity } from './activities/frameProtocol.js';
import { instanceUpdated } from './activities/state.js';
import { expireTyping, initialState, reduce, type ClientState } from './state.js';

export interface ClientContextValue {
  gateway: GatewayClient;
  store: Store<ClientState>;
}

const ClientContext = createContext<ClientContextValue | null>(null);

/**
 * What a person's client listens to: every guild event a member sees, DMs, and the privileged
 * member, presence and content intents (a person's session is not refused them, a bot's may be).
 */
export const CLIENT_INTENTS =
  GatewayIntentBits.Guilds |
  GatewayIntentBits.GuildMembers |
  GatewayIntentBits.GuildModeration |
  GatewayIntentBits.GuildExpressions |
  GatewayIntentBits.GuildInvites |
  GatewayIntentBits.GuildVoiceStates |
  GatewayIntentBits.GuildPresences |
  GatewayIntentBits.GuildMessages |
  GatewayIntentBits.GuildMessageReactions |
  GatewayIntentBits.GuildMessageTyping |
  GatewayIntentBits.DirectMessages |
  GatewayIntentBits.DirectMessageReactions |
  GatewayIntentBits.DirectMessageTyping |
  GatewayIntentBits.MessageContent;

/** The gateway's close code for a token it does not accept. */
const AUTHENTICATION_FAILED = 4004;

/** Request Channel Info: CHANNEL_INFO answers with the voice channels' statuses and start times. */
const REQUEST_CHANNEL_INFO = 43;

/**
 * Sets the current user's status (op 3): online, idle, dnd or invisible, with the rich presence
 * of the open activity when it set one (docs/activities.md#rich-presence).
 */
export function setStatus(gateway: GatewayClient, store: Store<ClientState>, status: string): void {
  store.set((state) => (state.ownStatus === status ? state : { ...state, ownStatus: status }));
  const { presence } = store.get().activities;
  gateway.send(Op.PresenceUpdate, {
    since: null,
    activities: presence === null ? [] : [presence],
    status,
    afk: false,
  });
}

/** Publishes (or clears, with null) the open activity's rich presence, with the current status. */
export function setActivityPresence(
  gateway: GatewayClient,
  store: Store<ClientState>,
  presence: PresenceActivity | null,
): void {
  store.set((state) => ({ ...state, activities: { ...state.activities, presence } }));
  setStatus(gateway, store, store.get().ownStatus);
}

/** Wires a gateway's dispatches into a store (returns the unsubscribe). Exported for tests. */
export function connectStore(gateway: GatewayClient, store: Store<ClientState>): () => void {
  const offDispatch = gateway.on('*', (data, type) => {
    store.set((state) => reduce(state, { t: type, d: data }, Date.now()));
    // A person is online while the client is open, as the platform's client says with op 3
    // (the gateway stores no presence until one is sent); a new session keeps the chosen status.
    if (type === 'READY') setStatus(gateway, store, store.get().ownStatus);
    // 4004: the session token no longer works (logged out elsewhere): back to the login page.
    if (type === 'CLOSED' && (data as { code: number }).code === AUTHENTICATION_FAILED) {
      setToken(null);
    }
    // The member list needs every member: GUILD_CREATE carries only the first ones of a big guild.
    if (type === 'GUILD_CREATE') {
      const guild = data as { id: string; large?: boolean; unavailable?: boolean };
      if (guild.unavailable === true) return;
      // Voice channels' statuses and call start times are not in the channel objects: ask (op 43).
      gateway.send(REQUEST_CHANNEL_INFO, {
        guild_id: guild.id,
        fields: ['status', 'voice_start_time'],
      });
      if (guild.large === true) {
        gateway.send(Op.RequestGuildMembers, {
          guild_id: guild.id,
          query: '',
          limit: 0,
          presences: true,
        });
      }
    }
  });
  // Relationships and group DM members (client/social/events.ts).
  const offSocial = subscribeSocial(gateway, store);
  // Activity instances launched, joined, left or ended where the person is (activities/state.ts).
  const offActivities = gateway.on('EMBEDDED_ACTIVITY_UPDATE', (data) => {
    store.set((state) => ({
      ...state,
      activities: instanceUpdated(state.activities, data as ActivityInstance, state.me?.id ?? null),
    }));
  });
  const timer = setInterval(() => {
    store.set((state) => expireTyping(state, Date.now()));
  }, 1_000);
  return () => {
    offDispatch();
    offSocial();
    offActivities();
    clearInterval(timer);
  };
}

/** One gateway session and its state for everything inside (the shell, and H4's and H5's parts). */
export function ClientProvider({ token, children }: { token: string; children: ReactNode }) {
  const [value] = useState<ClientContextValue>(() => ({
    gateway: new GatewayClient(token, { intents: CLIENT_INTENTS }),
    store: createStore<ClientState>(initialState),
  }));
  useEffect(() => {
    const { gateway, store } = value;
    const disconnect = connectStore(gateway, store);
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      // GET /gateway failed (the server is down): the banner keeps saying "Connecting"; try again.
      gateway.connect().catch(() => {
        retry = setTimeout(connect, 3_000);
      });
    };
    connect();
    return () => {
      clearTimeout(retry);
      disconnect();
      gateway.close();
    };
  }, [value]);
  return <ClientValueProvider value={value}>{children}</ClientValueProvider>;
}

/** Provides an existing gateway and store (ClientProvider's own, or a test's). */
export function ClientValueProvider({
  value,
  children,
}: {
  value: ClientContextValue;
  children: ReactNode;
}) {
  return <ClientContext.Provider value={value}>{children}</ClientContext.Provider>;
}

export function useClient(): ClientContextValue {
  const value = useContext(ClientContext);
  if (value === null) throw new Error('useClient outside a ClientProvider');
  return value;
}

/** A slice of the client state; `select` must return stored values (not new objects each call). */
export function useClientState<T>(select: (s: ClientState) => T): T {
  return useStore(useClient().store, select);
}
