import type {
  APIChannel,
  APIGuild,
  APIGuildMember,
  APIMessage,
  APIUser,
} from 'discord-api-types/v10';
import { initialActivities, type ActivitiesState } from './activities/state.js';
import type { VoiceStateEntry } from './voice/voiceState.js';

/** A reaction's emoji as the gateway and the API carry it. */
export interface ReactionEmoji {
  id: string | null;
  name: string | null;
  animated?: boolean;
}

export interface ChannelMessages {
  /** Oldest first. */
  ids: string[];
  byId: Record<string, APIMessage>;
  /** Whether older messages than the first loaded one may exist. */
  hasMore: boolean;
  /**
   * The first page is being read: live events already apply to the list, so a message sent
   * while the history request is in flight is not lost, and the page merges in by id.
   */
  loading?: boolean;
}

/** A message this client sent and the API has not yet answered for (or refused). */
export interface PendingMessage {
  nonce: string;
  channelId: string;
  content: string;
  /** Kept for Retry. */
  files: File[];
  /** The API's refusal, when it refused. */
  error: string | null;
}

/**
 * Everything the chat client knows, fed by the gateway's dispatches (`reduce`, state.ts) and by
 * REST reads (history, the helpers of reducers/messages.ts). Replaced immutably: a component
 * re-renders on the slices it reads.
 */
export interface ClientState {
  me: APIUser | null;
  sessionId: string | null;
  ready: boolean;
  guilds: Record<string, APIGuild>;
  guildChannelIds: Record<string, string[]>;
  channels: Record<string, APIChannel>;
  privateChannelIds: string[];
  members: Record<string, Record<string, APIGuildMember>>;
  users: Record<string, APIUser>;
  presences: Record<string, { status: string; activities: unknown[] }>;
  relationships: Record<
    string,
    { id: string; type: number; user: APIUser; nickname: string | null }
  >;
  messages: Record<string, ChannelMessages>;
  typing: Record<string, Record<string, number>>;
  voiceStates: Record<string, Record<string, VoiceStateEntry>>;
  /** Messages being sent, per channel, in the order they were sent. */
  pending: Record<string, PendingMessage[]>;
  /** Each guild's member count (GUILD_CREATE's, kept by member adds and removes). */
  memberCounts: Record<string, number>;
  /**
   * Voice channels' statuses: not a field of the channel object; CHANNEL_INFO (op 43's answer)
   * and VOICE_CHANNEL_STATUS_UPDATE carry them.
   */
  voiceStatuses: Record<string, string | null>;
  /**
   * When each voice channel's call started (unix seconds; null: nobody is in it), from
   * CHANNEL_INFO and VOICE_CHANNEL_START_TIME_UPDATE.
   */
  voiceStartTimes: Record<string, number | null>;
  /** The status this client sets for its user (op 3), sent again on each new session. */
  ownStatus: string;
  /** Activity instances, the open frame and its presence (activities/state.ts). */
  activities: ActivitiesState;
}

export const initialState: ClientState = {
  me: null,
  sessionId: null,
  ready: false,
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
  pending: {},
  memberCounts: {},
  voiceStatuses: {},
  voiceStartTimes: {},
  ownStatus: 'online',
  activities: initialActivities,
};

/** Snowflakes compared as numbers (their string length first, then their digits). */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `record` without `key` (the same object when it has none). */
export function omit<T>(record: Record<string, T>, key: string): Record<string, T> {
  return key in record ? omitAll(record, new Set([key])) : record;
}

export function omitAll<T>(
  record: Record<string, T>,
  keys: ReadonlySet<string>,
): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.has(key)));
}

/** The known users with `list` merged in (the same object when the list is empty). */
export function withUsers(users: Record<string, APIUser>, list: (APIUser | undefined)[]) {
  let next = users;
  for (const user of list) {
    if (user === undefined) continue;
    if (next === users) next = { ...users };
    next[user.id] = { ...next[user.id], ...user };
  }
  return next;
}

/** A presence as READY, GUILD_CREATE and member chunks carry it. */
export interface PresenceData {
  user: { id: string };
  status?: string;
  activities?: unknown[];
}

/** The presences with `list` applied (a presence without a status is offline). */
export function withPresences(
  presences: ClientState['presences'],
  list: readonly PresenceData[],
): ClientState['presences'] {
  if (list.length === 0) return presences;
  const next = { ...presences };
  for (const p of list) {
    next[p.user.id] = { status: p.status ?? 'offline', activities: p.activities ?? [] };
  }
  return next;
}
