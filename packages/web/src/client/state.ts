import type {
  APIChannel,
  APIGuild,
  APIGuildMember,
  APIMessage,
  APIReaction,
  APIRole,
  APIUser,
} from 'discord-api-types/v10';
import { initialActivities, type ActivitiesState } from './activities/state.js';
import { parseStartTime, parseVoiceState, type VoiceStateEntry } from './voice/voiceState.js';

export type { VoiceStateEntry } from './voice/voiceState.js';

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
 * Everything the chat client knows, fed by the gateway's dispatches (`reduce`) and by REST reads
 * (history, the helpers below). Replaced immutably: a component re-renders on the slices it reads.
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

/** How long a TYPING_START shows, as the platform's client shows it. */
export const TYPING_MS = 10_000;

/** Snowflakes compared as numbers (their string length first, then their digits). */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

function omit<T>(record: Record<string, T>, key: string): Record<string, T> {
  return key in record ? omitAll(record, new Set([key])) : record;
}

function omitAll<T>(record: Record<string, T>, keys: ReadonlySet<string>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.has(key)));
}

function withUsers(users: Record<string, APIUser>, list: (APIUser | undefined)[]) {
  let next = users;
  for (const user of list) {
    if (user === undefined) continue;
    if (next === users) next = { ...users };
    next[user.id] = { ...next[user.id], ...user };
  }
  return next;
}

type GuildCreate = APIGuild & {
  channels?: APIChannel[];
  members?: APIGuildMember[];
  presences?: { user: { id: string }; status: string; activities?: unknown[] }[];
  voice_states?: unknown[];
  member_count?: number;
  unavailable?: boolean;
};

function addGuild(state: ClientState, raw: GuildCreate): ClientState {
  if (raw.unavailable === true) return state;
  const {
    channels = [],
    members = [],
    presences = [],
    voice_states: voiceStates = [],
    member_count: memberCount,
    ...guild
  } = raw;
  const nextChannels = omitAll(state.channels, new Set(state.guildChannelIds[guild.id] ?? []));
  for (const channel of channels)
    nextChannels[channel.id] = { ...channel, guild_id: guild.id } as APIChannel;
  const guildMembers: Record<string, APIGuildMember> = { ...state.members[guild.id] };
  for (const member of members) guildMembers[member.user.id] = member;
  const nextPresences = { ...state.presences };
  for (const presence of presences) {
    nextPresences[presence.user.id] = {
      status: presence.status,
      activities: presence.activities ?? [],
    };
  }
  const guildVoice: Record<string, VoiceStateEntry> = {};
  for (const raw of voiceStates) {
    const parsed = parseVoiceState(raw);
    if (parsed?.entry.channel_id != null) guildVoice[parsed.userId] = parsed.entry;
  }
  return {
    ...state,
    guilds: { ...state.guilds, [guild.id]: guild },
    guildChannelIds: { ...state.guildChannelIds, [guild.id]: channels.map((c) => c.id) },
    channels: nextChannels,
    members: { ...state.members, [guild.id]: guildMembers },
    users: withUsers(
      state.users,
      members.map((m) => m.user),
    ),
    presences: nextPresences,
    voiceStates: { ...state.voiceStates, [guild.id]: guildVoice },
    memberCounts:
      memberCount === undefined
        ? state.memberCounts
        : { ...state.memberCounts, [guild.id]: memberCount },
  };
}

function removeGuild(state: ClientState, guildId: string): ClientState {
  const ids = new Set(state.guildChannelIds[guildId] ?? []);
  const channels = omitAll(state.channels, ids);
  const messages = omitAll(state.messages, ids);
  return {
    ...state,
    guilds: omit(state.guilds, guildId),
    guildChannelIds: omit(state.guildChannelIds, guildId),
    channels,
    messages,
    members: omit(state.members, guildId),
    voiceStates: omit(state.voiceStates, guildId),
    voiceStartTimes: omitAll(state.voiceStartTimes, ids),
    memberCounts: omit(state.memberCounts, guildId),
  };
}

function putChannel(state: ClientState, channel: APIChannel): ClientState {
  const guildId = 'guild_id' in channel ? channel.guild_id : undefined;
  const next = { ...state, channels: { ...state.channels, [channel.id]: channel } };
  if (guildId !== undefined) {
    const ids = state.guildChannelIds[guildId] ?? [];
    if (!ids.includes(channel.id)) {
      next.guildChannelIds = { ...state.guildChannelIds, [guildId]: [...ids, channel.id] };
    }
  } else if (!state.privateChannelIds.includes(channel.id)) {
    next.privateChannelIds = [channel.id, ...state.privateChannelIds];
    if ('recipients' in channel && channel.recipients !== undefined) {
      next.users = withUsers(state.users, channel.recipients);
    }
  }
  return next;
}

function removeChannel(state: ClientState, channel: { id: string; guild_id?: string }) {
  const guildId = channel.guild_id;
  return {
    ...state,
    channels: omit(state.channels, channel.id),
    messages: omit(state.messages, channel.id),
    guildChannelIds:
      guildId === undefined
        ? state.guildChannelIds
        : {
            ...state.guildChannelIds,
            [guildId]: (state.guildChannelIds[guildId] ?? []).filter((id) => id !== channel.id),
          },
    privateChannelIds: state.privateChannelIds.filter((id) => id !== channel.id),
  };
}

/** A member as dispatches carry it: TYPING_START's and a message's may lack the user. */
type MemberUpdate = Omit<APIGuildMember, 'user'> & { user?: APIUser };

function setMember(
  state: ClientState,
  ref: { guildId: string; userId?: string },
  member: MemberUpdate,
): ClientState {
  const { guildId } = ref;
  const user = member.user;
  const userId = user?.id ?? ref.userId;
  if (userId === undefined) return state;
  const previous = state.members[guildId]?.[userId];
  // A partial member (TYPING_START's has no user) of someone not loaded yet: nothing to show a
  // member by, so it waits for the member's own event or chunk.
  const known = user ?? previous?.user ?? state.users[userId];
  if (known === undefined) return state;
  const merged = { ...previous, ...member, user: known };
  return {
    ...state,
    members: { ...state.members, [guildId]: { ...state.members[guildId], [userId]: merged } },
    users: user === undefined ? state.users : withUsers(state.users, [user]),
  };
}

function updateGuild(
  state: ClientState,
  guildId: string,
  update: (guild: APIGuild) => APIGuild,
): ClientState {
  const guild = state.guilds[guildId];
  if (guild === undefined) return state;
  return { ...state, guilds: { ...state.guilds, [guildId]: update(guild) } };
}

function updateMessage(
  state: ClientState,
  ref: { channelId: string; messageId: string },
  update: (message: APIMessage) => APIMessage,
): ClientState {
  const { channelId, messageId } = ref;
  const list = state.messages[channelId];
  const message = list?.byId[messageId];
  if (list === undefined || message === undefined) return state;
  return {
    ...state,
    messages: {
      ...state.messages,
      [channelId]: { ...list, byId: { ...list.byId, [messageId]: update(message) } },
    },
  };
}

function sameEmoji(a: ReactionEmoji, b: ReactionEmoji): boolean {
  return a.id !== null ? a.id === b.id : a.name === b.name;
}

/** A reaction added or removed, by `me` or someone else, applied to a message's counts. */
export function applyReaction(
  reactions: APIReaction[] | undefined,
  change: { emoji: ReactionEmoji; delta: 1 | -1; mine: boolean },
): APIReaction[] {
  const { emoji, delta, mine } = change;
  const list = reactions ?? [];
  const index = list.findIndex((r) => sameEmoji(r.emoji, emoji));
  const current = list[index];
  if (current === undefined) {
    if (delta < 0) return list;
    const reaction: APIReaction = {
      count: 1,
      count_details: { burst: 0, normal: 1 },
      me: mine,
      me_burst: false,
      burst_colors: [],
      emoji,
    };
    return [...list, reaction];
  }
  // The same user cannot react twice with one emoji: a repeat (our optimistic add echoed) is a no-op.
  if (mine && delta > 0 === current.me) return list;
  const count = current.count + delta;
  if (count <= 0) return list.filter((_, i) => i !== index);
  const updated: APIReaction = {
    ...current,
    count,
    count_details: { ...current.count_details, normal: current.count_details.normal + delta },
    me: mine ? delta > 0 : current.me,
  };
  return list.map((r, i) => (i === index ? updated : r));
}

/** Opens a channel's list before its first page is read (see ChannelMessages.loading). */
export function startHistory(state: ClientState, channelId: string): ClientState {
  if (state.messages[channelId] !== undefined) return state;
  return {
    ...state,
    messages: {
      ...state.messages,
      [channelId]: { ids: [], byId: {}, hasMore: true, loading: true },
    },
  };
}

/** Adds messages to a channel's list (history pages or live ones), kept oldest first. */
export function addMessages(
  state: ClientState,
  channelId: string,
  page: { messages: APIMessage[]; hasMore?: boolean },
): ClientState {
  const { messages, hasMore } = page;
  const list = state.messages[channelId] ?? { ids: [], byId: {}, hasMore: true };
  const byId = { ...list.byId };
  const ids = new Set(list.ids);
  for (const message of messages) {
    byId[message.id] = message;
    ids.add(message.id);
  }
  return {
    ...state,
    messages: {
      ...state.messages,
      [channelId]: {
        ids: [...ids].sort(compareIds),
        byId,
        hasMore: hasMore ?? list.hasMore,
        // A history page (it says whether more exist) ends the loading; live messages do not.
        loading: hasMore === undefined ? list.loading === true : false,
      },
    },
    users: withUsers(
      state.users,
      messages.map((m) => m.author),
    ),
  };
}

export function addPending(state: ClientState, pending: PendingMessage): ClientState {
  const list = state.pending[pending.channelId] ?? [];
  return { ...state, pending: { ...state.pending, [pending.channelId]: [...list, pending] } };
}

export function settlePending(
  state: ClientState,
  ref: { channelId: string; nonce: string },
  error: string | null,
): ClientState {
  const { channelId, nonce } = ref;
  const list = state.pending[channelId];
  if (!list?.some((p) => p.nonce === nonce)) return state;
  const next =
    error === null
      ? list.filter((p) => p.nonce !== nonce)
      : list.map((p) => (p.nonce === nonce ? { ...p, error } : p));
  return { ...state, pending: { ...state.pending, [channelId]: next } };
}

function removeMessages(state: ClientState, channelId: string, ids: string[]): ClientState {
  const list = state.messages[channelId];
  if (list === undefined) return state;
  const gone = new Set(ids);
  const byId = omitAll(list.byId, gone);
  return {
    ...state,
    messages: {
      ...state.messages,
      [channelId]: { ...list, ids: list.ids.filter((id) => !gone.has(id)), byId },
    },
  };
}

function clearTyping(state: ClientState, channelId: string, userId: string): ClientState {
  const channel = state.typing[channelId];
  if (channel?.[userId] === undefined) return state;
  return { ...state, typing: { ...state.typing, [channelId]: omit(channel, userId) } };
}

type Data = Record<string, unknown>;

function messageRef(d: Data) {
  return { channelId: d['channel_id'] as string, messageId: d['message_id'] as string };
}

/**
 * One gateway dispatch applied to the state. Pure: `now` (ms) dates typing indicators. Unknown
 * dispatches leave the state as it is (the same object, so nothing re-renders).
 */
export function reduce(
  state: ClientState,
  dispatch: { t: string; d: unknown },
  now: number,
): ClientState {
  const { t: type, d: raw } = dispatch;
  const d = raw as Data;
  switch (type) {
    case 'READY': {
      const ready = raw as {
        user: APIUser;
        session_id: string;
        private_channels?: APIChannel[];
        relationships?: { id: string; type: number; user: APIUser; nickname?: string | null }[];
        presences?: { user: { id: string }; status: string; activities?: unknown[] }[];
      };
      let next: ClientState = {
        ...initialState,
        // A fresh session (not a resume) may have missed events: loaded histories are dropped
        // and read again by the panes showing them. Messages being sent stay.
        pending: state.pending,
        ownStatus: state.ownStatus,
        // The open frame stays open across sessions, and its presence is sent again.
        activities: state.activities,
        me: ready.user,
        sessionId: ready.session_id,
        ready: true,
        users: { [ready.user.id]: ready.user },
      };
      for (const channel of ready.private_channels ?? []) next = putChannel(next, channel);
      next.privateChannelIds = [...next.privateChannelIds].sort((a, b) =>
        compareIds(lastActivity(next.channels[b]), lastActivity(next.channels[a])),
      );
      const relationships: ClientState['relationships'] = {};
      for (const r of ready.relationships ?? []) {
        relationships[r.id] = {
          id: r.id,
          type: r.type,
          user: r.user,
          nickname: r.nickname ?? null,
        };
      }
      next.relationships = relationships;
      next.users = withUsers(
        next.users,
        (ready.relationships ?? []).map((r) => r.user),
      );
      for (const p of ready.presences ?? []) {
        next.presences = {
          ...next.presences,
          [p.user.id]: { status: p.status, activities: p.activities ?? [] },
        };
      }
      return next;
    }
    case 'USER_UPDATE': {
      const user = raw as APIUser;
      if (state.me?.id !== user.id) return state;
      return { ...state, me: { ...state.me, ...user }, users: withUsers(state.users, [user]) };
    }
    case 'GUILD_CREATE':
      return addGuild(state, raw as GuildCreate);
    case 'GUILD_UPDATE': {
      const guild = raw as APIGuild;
      return updateGuild(state, guild.id, (old) => ({ ...old, ...guild }));
    }
    case 'GUILD_DELETE':
      return removeGuild(state, d['id'] as string);
    case 'CHANNEL_CREATE':
    case 'CHANNEL_UPDATE':
      return putChannel(state, raw as APIChannel);
    case 'CHANNEL_DELETE':
      return removeChannel(state, raw as { id: string; guild_id?: string });
    case 'CHANNEL_PINS_UPDATE': {
      const channel = state.channels[d['channel_id'] as string];
      if (channel === undefined) return state;
      return {
        ...state,
        channels: {
          ...state.channels,
          [channel.id]: {
            ...channel,
            last_pin_timestamp: (d['last_pin_timestamp'] as string | null | undefined) ?? null,
          } as APIChannel,
        },
      };
    }
    case 'VOICE_CHANNEL_STATUS_UPDATE':
      return {
        ...state,
        voiceStatuses: {
          ...state.voiceStatuses,
          [d['id'] as string]: (d['status'] as string | null | undefined) ?? null,
        },
      };
    case 'CHANNEL_INFO': {
      const voiceStatuses = { ...state.voiceStatuses };
      const voiceStartTimes = { ...state.voiceStartTimes };
      for (const c of (d['channels'] as
        { id: string; status?: string | null; voice_start_time?: unknown }[] | undefined) ?? []) {
        if (c.status !== undefined) voiceStatuses[c.id] = c.status;
        if (c.voice_start_time !== undefined) {
          voiceStartTimes[c.id] = parseStartTime(c.voice_start_time);
        }
      }
      return { ...state, voiceStatuses, voiceStartTimes };
    }
    case 'VOICE_CHANNEL_START_TIME_UPDATE': {
      const channelId = d['id'];
      if (typeof channelId !== 'string') return state;
      return {
        ...state,
        voiceStartTimes: {
          ...state.voiceStartTimes,
          [channelId]: parseStartTime(d['voice_start_time']),
        },
      };
    }
    case 'GUILD_MEMBER_ADD': {
      const guildId = d['guild_id'] as string;
      const next = setMember(state, { guildId }, raw as MemberUpdate);
      const count = state.memberCounts[guildId];
      return count === undefined
        ? next
        : { ...next, memberCounts: { ...next.memberCounts, [guildId]: count + 1 } };
    }
    case 'GUILD_MEMBER_UPDATE':
      return setMember(state, { guildId: d['guild_id'] as string }, raw as MemberUpdate);
    case 'GUILD_MEMBER_REMOVE': {
      const guildId = d['guild_id'] as string;
      const userId = (d['user'] as APIUser).id;
      if (userId === state.me?.id) return removeGuild(state, guildId);
      const count = state.memberCounts[guildId];
      return {
        ...state,
        members: { ...state.members, [guildId]: omit(state.members[guildId] ?? {}, userId) },
        memberCounts:
          count === undefined
            ? state.memberCounts
            : { ...state.memberCounts, [guildId]: count - 1 },
      };
    }
    case 'GUILD_MEMBERS_CHUNK': {
      let next = state;
      for (const member of (d['members'] as APIGuildMember[] | undefined) ?? []) {
        next = setMember(next, { guildId: d['guild_id'] as string }, member);
      }
      const presences = d['presences'] as
        { user: { id: string }; status: string; activities?: unknown[] }[] | undefined;
      if (presences !== undefined && presences.length > 0) {
        next = { ...next, presences: { ...next.presences } };
        for (const p of presences) {
          next.presences[p.user.id] = { status: p.status, activities: p.activities ?? [] };
        }
      }
      return next;
    }
    case 'GUILD_ROLE_CREATE':
    case 'GUILD_ROLE_UPDATE': {
      const role = d['role'] as APIRole;
      return updateGuild(state, d['guild_id'] as string, (guild) => ({
        ...guild,
        roles: [...guild.roles.filter((r) => r.id !== role.id), role],
      }));
    }
    case 'GUILD_ROLE_DELETE':
      return updateGuild(state, d['guild_id'] as string, (guild) => ({
        ...guild,
        roles: guild.roles.filter((r) => r.id !== d['role_id']),
      }));
    case 'PRESENCE_UPDATE': {
      const user = d['user'] as Partial<APIUser> & { id: string };
      const next = {
        ...state,
        presences: {
          ...state.presences,
          [user.id]: {
            status: d['status'] as string,
            activities: (d['activities'] as unknown[] | undefined) ?? [],
          },
        },
      };
      // A presence's user is partial unless something about the user changed.
      if (user.username !== undefined) next.users = withUsers(state.users, [user as APIUser]);
      return next;
    }
    case 'MESSAGE_CREATE': {
      const message = raw as APIMessage & { member?: APIGuildMember; guild_id?: string };
      let next = state;
      const channelId = message.channel_id;
      // Only channels whose history is loaded keep messages; the others load it when opened.
      if (state.messages[channelId] !== undefined) {
        next = addMessages(state, channelId, { messages: [message] });
      }
      if (message.member !== undefined && message.guild_id !== undefined) {
        next = setMember(
          next,
          { guildId: message.guild_id },
          { ...message.member, user: message.author },
        );
      }
      if (typeof message.nonce === 'string' && message.author.id === state.me?.id) {
        next = settlePending(next, { channelId, nonce: message.nonce }, null);
      }
      next = clearTyping(next, channelId, message.author.id);
      const channel = next.channels[channelId];
      if (channel !== undefined) {
        next = {
          ...next,
          channels: {
            ...next.channels,
            [channelId]: { ...channel, last_message_id: message.id } as APIChannel,
          },
        };
        if (next.privateChannelIds.includes(channelId) && next.privateChannelIds[0] !== channelId) {
          next.privateChannelIds = [
            channelId,
            ...next.privateChannelIds.filter((id) => id !== channelId),
          ];
        }
      }
      return next;
    }
    case 'MESSAGE_UPDATE': {
      const update = raw as Partial<APIMessage> & { id: string; channel_id: string };
      return updateMessage(
        state,
        { channelId: update.channel_id, messageId: update.id },
        (old) => ({ ...old, ...update }),
      );
    }
    case 'MESSAGE_DELETE':
      return removeMessages(state, d['channel_id'] as string, [d['id'] as string]);
    case 'MESSAGE_DELETE_BULK':
      return removeMessages(state, d['channel_id'] as string, d['ids'] as string[]);
    case 'MESSAGE_REACTION_ADD':
    case 'MESSAGE_REACTION_REMOVE': {
      const mine = d['user_id'] === state.me?.id;
      const delta = type === 'MESSAGE_REACTION_ADD' ? 1 : -1;
      return updateMessage(state, messageRef(d), (message) => ({
        ...message,
        reactions: applyReaction(message.reactions, {
          emoji: d['emoji'] as ReactionEmoji,
          delta,
          mine,
        }),
      }));
    }
    case 'MESSAGE_REACTION_REMOVE_ALL':
      return updateMessage(state, messageRef(d), (message) => ({ ...message, reactions: [] }));
    case 'MESSAGE_REACTION_REMOVE_EMOJI': {
      const emoji = d['emoji'] as ReactionEmoji;
      return updateMessage(state, messageRef(d), (message) => ({
        ...message,
        reactions: (message.reactions ?? []).filter((r) => !sameEmoji(r.emoji, emoji)),
      }));
    }
    case 'TYPING_START': {
      const channelId = d['channel_id'] as string;
      const userId = d['user_id'] as string;
      const member = d['member'] as MemberUpdate | undefined;
      let next: ClientState = {
        ...state,
        typing: {
          ...state.typing,
          [channelId]: { ...state.typing[channelId], [userId]: now + TYPING_MS },
        },
      };
      const guildId = d['guild_id'] as string | undefined;
      if (member !== undefined && guildId !== undefined) {
        next = setMember(next, { guildId, userId }, member);
      }
      return next;
    }
    case 'VOICE_STATE_UPDATE': {
      // A lobby call's state (guild_id null) has no place in the client: it has no lobby view.
      const parsed = parseVoiceState(raw);
      if (parsed?.guildId == null) return state;
      const { guildId, userId, entry } = parsed;
      const guildVoice = state.voiceStates[guildId] ?? {};
      let next: ClientState = {
        ...state,
        voiceStates: {
          ...state.voiceStates,
          [guildId]:
            entry.channel_id === null
              ? omit(guildVoice, userId)
              : { ...guildVoice, [userId]: entry },
        },
      };
      const member = d['member'] as MemberUpdate | undefined;
      if (member !== undefined) next = setMember(next, { guildId, userId }, member);
      return next;
    }
    default:
      return state;
  }
}

function lastActivity(channel: APIChannel | undefined): string {
  if (channel === undefined) return '0';
  return ('last_message_id' in channel ? channel.last_message_id : null) ?? channel.id;
}

/** Typing entries past their expiry dropped (a timer calls this; no dispatch says "stopped"). */
export function expireTyping(state: ClientState, now: number): ClientState {
  let changed = false;
  const typing: ClientState['typing'] = {};
  for (const [channelId, users] of Object.entries(state.typing)) {
    const kept: Record<string, number> = {};
    for (const [userId, until] of Object.entries(users)) {
      if (until > now) kept[userId] = until;
      else changed = true;
    }
    typing[channelId] = kept;
  }
  return changed ? { ...state, typing } : state;
}
