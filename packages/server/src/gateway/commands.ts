import {
  ChannelTypes,
  GatewayIntentBits as I,
  PermissionFlags as P,
  isSnowflake,
} from '@guildhall/protocol';
import type { Clock } from '../domain/clock.js';
import type { Dispatcher } from '../events/dispatcher.js';
import { serializeMember } from '../resources/members/index.js';
import type { MemberRecord, ProfilePrivacy, Storage, VoiceStateRecord } from '../storage/index.js';
import type { GuildState } from './guildState.js';

/** Members per GUILD_MEMBERS_CHUNK (docs/platform-notes.md#request-guild-members). */
export const MEMBERS_PER_CHUNK = 1000;
/**
 * Asking for all members of a guild: once per guild per bot per 30 s
 * (docs/platform-notes.md#gateway-limits).
 */
export const ALL_MEMBERS_WINDOW_MS = 30_000;
/** Custom status is hidden from guilds above this size under Friends & Small Servers. */
export const SMALL_SERVER_MAX_MEMBERS = 200;

const PRESENCE_STATUSES = new Set(['online', 'dnd', 'idle', 'invisible', 'offline']);
const CHANNEL_INFO_FIELDS = new Set(['status', 'voice_start_time']);
const VOICE_TYPES = new Set<number>([ChannelTypes.GUILD_VOICE, ChannelTypes.GUILD_STAGE_VOICE]);

/** Thrown for a command whose payload is invalid for its opcode (close 4001). */
export class InvalidCommandError extends Error {
  override readonly name = 'InvalidCommandError';
}

/** What a command sees of the session that sent it. */
export interface CommandSession {
  id: string;
  userId: string;
  intents: number;
  guildIds: ReadonlySet<string>;
}

export interface CommandContext {
  storage: Storage;
  clock: Clock;
  events: Dispatcher;
  guild: (guildId: string) => GuildState | undefined;
  /** Sends a dispatch to this session only. */
  reply: (type: string, data: unknown) => void;
}

/** A user's current presence, as op 3 set it. */
export interface Presence {
  status: string;
  activities: Record<string, unknown>[];
  since: number | null;
  afk: boolean;
  /** The user's profile privacy when they set it: it decides who sees a custom status. */
  privacy: ProfilePrivacy;
}

function record(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidCommandError('the payload is not an object');
  }
  return value as Record<string, unknown>;
}

function snowflake(value: unknown): string {
  if (typeof value !== 'string' || !isSnowflake(value)) {
    throw new InvalidCommandError('not a snowflake');
  }
  return value;
}

/** The activities a guild's sessions see: custom status (type 4) dropped per the privacy rule. */
export function visibleActivities(
  activities: readonly Record<string, unknown>[],
  input: { privacy: ProfilePrivacy; memberCount: number },
): Record<string, unknown>[] {
  const hideCustom =
    input.privacy === 'friends' ||
    (input.privacy === 'friends_and_small_servers' && input.memberCount > SMALL_SERVER_MAX_MEMBERS);
  return hideCustom ? activities.filter((a) => a['type'] !== 4) : [...activities];
}

/**
 * A user's presence as a guild's sessions see it, in GUILD_CREATE and GUILD_MEMBERS_CHUNK: none
 * while invisible or offline, and the custom status per the privacy rule PRESENCE_UPDATE follows.
 */
export function guildPresenceWire(
  userId: string,
  presence: Presence | undefined,
  memberCount: number,
): Record<string, unknown> | null {
  if (presence === undefined || presence.status === 'invisible' || presence.status === 'offline') {
    return null;
  }
  return {
    user: { id: userId },
    status: presence.status,
    activities: visibleActivities(presence.activities, { privacy: presence.privacy, memberCount }),
    client_status: { web: presence.status },
  };
}

/**
 * The gateway commands a session sends once identified: op 3, op 4, op 8 and op 43. Each
 * validates its payload (InvalidCommandError → close 4001) and answers with dispatches.
 */
export function createCommands(deps: {
  presences: Map<string, Presence>;
  allMembersRequests: Map<string, number>;
}) {
  const { presences, allMembersRequests } = deps;

  async function presenceUpdate(
    ctx: CommandContext,
    input: { session: CommandSession; d: unknown },
  ) {
    const d = record(input.d);
    const status = d['status'];
    if (typeof status !== 'string' || !PRESENCE_STATUSES.has(status)) {
      throw new InvalidCommandError('invalid status');
    }
    const activities = Array.isArray(d['activities'])
      ? (d['activities'] as unknown[]).map(record)
      : [];
    const since = typeof d['since'] === 'number' ? d['since'] : null;
    const privacy = await ctx.storage.gateway.profilePrivacy(input.session.userId);
    const presence: Presence = { status, activities, since, afk: d['afk'] === true, privacy };
    presences.set(input.session.userId, presence);
    const shown = status === 'invisible' ? 'offline' : status;
    for (const guildId of input.session.guildIds) {
      const memberCount = ctx.guild(guildId)?.memberCount ?? 0;
      ctx.events.dispatch({
        type: 'PRESENCE_UPDATE',
        guildId,
        data: {
          user: { id: input.session.userId },
          guild_id: guildId,
          status: shown,
          activities:
            shown === 'offline' ? [] : visibleActivities(activities, { privacy, memberCount }),
          client_status: shown === 'offline' ? {} : { web: shown },
        },
      });
    }
  }

  async function voiceStateUpdate(
    ctx: CommandContext,
    input: { session: CommandSession; d: unknown },
  ) {
    const { session } = input;
    const d = record(input.d);
    const guildId = snowflake(d['guild_id']);
    const channelId = d['channel_id'] === null ? null : snowflake(d['channel_id']);
    if (!session.guildIds.has(guildId)) throw new InvalidCommandError('unknown guild');
    const state = ctx.guild(guildId);
    const nowMs = ctx.clock.now();
    if (channelId !== null) {
      const channel = state?.channels.get(channelId);
      const bits = state?.channelPermissions(session.userId, channelId, nowMs) ?? 0n;
      if (channel === undefined || !VOICE_TYPES.has(channel.type)) {
        throw new InvalidCommandError('not a voice channel of the guild');
      }
      // Without CONNECT the platform leaves the user where they were.
      if ((bits & P.CONNECT) === 0n) return;
    }
    const selfMute = d['self_mute'] === true;
    const selfDeaf = d['self_deaf'] === true;
    const startTimes: { id: string; time: number | null }[] = [];
    const result = await ctx.storage.transaction(async (tx) => {
      await tx.guilds.lock(guildId);
      const member = await tx.members.find(guildId, session.userId);
      if (member === null) return null;
      const previous = await tx.gateway.findVoiceState(guildId, session.userId);
      if (channelId === null) {
        if (previous === null) return null;
        await tx.gateway.deleteVoiceState(guildId, session.userId);
      } else {
        const next: VoiceStateRecord = {
          guildId,
          userId: session.userId,
          channelId,
          sessionId: session.id,
          selfMute,
          selfDeaf,
          selfVideo: d['self_video'] === true,
          joinedAt: previous?.channelId === channelId ? previous.joinedAt : nowMs,
        };
        await tx.gateway.putVoiceState(next);
        if (
          previous?.channelId !== channelId &&
          (await tx.gateway.countInVoiceChannel(channelId)) === 1
        ) {
          await tx.gateway.setVoiceStartTime(channelId, nowMs);
          startTimes.push({ id: channelId, time: Math.floor(nowMs / 1000) });
        }
      }
      if (
        previous !== null &&
        previous.channelId !== channelId &&
        (await tx.gateway.countInVoiceChannel(previous.channelId)) === 0
      ) {
        await tx.gateway.setVoiceStartTime(previous.channelId, null);
        startTimes.push({ id: previous.channelId, time: null });
      }
      const user = await tx.users.findById(session.userId);
      return user === null ? null : { member, user };
    });
    if (result === null) return;
    ctx.events.dispatch([
      {
        type: 'VOICE_STATE_UPDATE',
        guildId,
        data: voiceStateWire(
          { guildId, channelId, userId: session.userId, sessionId: session.id, selfMute, selfDeaf },
          serializeMember(result.member, result.user),
          result.member,
        ),
      },
      ...startTimes.map((t) => ({
        type: 'VOICE_CHANNEL_START_TIME_UPDATE',
        guildId,
        channelId: t.id,
        data: { id: t.id, guild_id: guildId, voice_start_time: t.time },
      })),
    ]);
  }

  async function requestGuildMembers(
    ctx: CommandContext,
    input: { session: CommandSession; d: unknown },
  ) {
    const { session } = input;
    const d = record(input.d);
    const guildId = snowflake(d['guild_id']);
    const nonce = typeof d['nonce'] === 'string' ? d['nonce'].slice(0, 32) : undefined;
    const limit = typeof d['limit'] === 'number' ? Math.max(0, Math.floor(d['limit'])) : 0;
    const userIds = Array.isArray(d['user_ids'])
      ? (d['user_ids'] as unknown[]).map(snowflake).slice(0, 100)
      : typeof d['user_ids'] === 'string'
        ? [snowflake(d['user_ids'])]
        : null;
    const query = typeof d['query'] === 'string' ? d['query'] : null;
    if (userIds === null && query === null) throw new InvalidCommandError('query or user_ids');
    const hasMembersIntent = (session.intents & I.GUILD_MEMBERS) !== 0;
    const withPresences = d['presences'] === true;
    if (withPresences && (session.intents & I.GUILD_PRESENCES) === 0) {
      throw new InvalidCommandError('presences need GUILD_PRESENCES');
    }
    if (!session.guildIds.has(guildId)) return;
    let members: MemberRecord[];
    let notFound: string[] = [];
    if (userIds !== null) {
      const found = await Promise.all(userIds.map((id) => ctx.storage.members.find(guildId, id)));
      members = found.filter((m): m is MemberRecord => m !== null);
      notFound = userIds.filter((_, i) => found[i] === null);
    } else if (query === '' && limit === 0) {
      if (!hasMembersIntent) throw new InvalidCommandError('all members need GUILD_MEMBERS');
      const key = `${session.userId}:${guildId}`;
      const last = allMembersRequests.get(key);
      const now = ctx.clock.now();
      if (last !== undefined && now - last < ALL_MEMBERS_WINDOW_MS) {
        ctx.reply('RATE_LIMITED', {
          opcode: 8,
          retry_after: (last + ALL_MEMBERS_WINDOW_MS - now) / 1000,
          meta: { guild_id: guildId, ...(nonce === undefined ? {} : { nonce }) },
        });
        return;
      }
      allMembersRequests.set(key, now);
      members = [];
      for (let after: string | undefined; ;) {
        const page = await ctx.storage.members.listByGuild(guildId, {
          limit: 1000,
          ...(after === undefined ? {} : { after }),
        });
        members.push(...page);
        if (page.length < 1000) break;
        after = page[page.length - 1]?.userId;
      }
    } else {
      const max = Math.min(limit === 0 ? 100 : limit, 100);
      members =
        query === ''
          ? await ctx.storage.members.listByGuild(guildId, { limit: max })
          : await ctx.storage.members.search(guildId, { query: query ?? '', limit: max });
    }
    const users = await Promise.all(members.map((m) => ctx.storage.users.findById(m.userId)));
    const memberCount = ctx.guild(guildId)?.memberCount ?? 0;
    const wire: unknown[] = [];
    const presenceWire: unknown[] = [];
    members.forEach((member, i) => {
      const user = users[i];
      if (user == null) return;
      wire.push(serializeMember(member, user));
      const presence = withPresences
        ? guildPresenceWire(member.userId, presences.get(member.userId), memberCount)
        : null;
      if (presence !== null) presenceWire.push(presence);
    });
    const chunkCount = Math.max(1, Math.ceil(wire.length / MEMBERS_PER_CHUNK));
    for (let index = 0; index < chunkCount; index++) {
      const chunk = wire.slice(index * MEMBERS_PER_CHUNK, (index + 1) * MEMBERS_PER_CHUNK);
      ctx.reply('GUILD_MEMBERS_CHUNK', {
        guild_id: guildId,
        members: chunk,
        chunk_index: index,
        chunk_count: chunkCount,
        ...(index === 0 && notFound.length > 0 ? { not_found: notFound } : {}),
        ...(withPresences
          ? {
              presences: presenceWire.slice(
                index * MEMBERS_PER_CHUNK,
                (index + 1) * MEMBERS_PER_CHUNK,
              ),
            }
          : {}),
        ...(nonce === undefined ? {} : { nonce }),
      });
    }
  }

  async function requestChannelInfo(
    ctx: CommandContext,
    input: { session: CommandSession; d: unknown },
  ) {
    const { session } = input;
    const d = record(input.d);
    const guildId = snowflake(d['guild_id']);
    const fields = Array.isArray(d['fields']) ? (d['fields'] as unknown[]) : null;
    if (
      fields === null ||
      fields.some((f) => typeof f !== 'string' || !CHANNEL_INFO_FIELDS.has(f))
    ) {
      throw new InvalidCommandError('fields');
    }
    const state = ctx.guild(guildId);
    if (!session.guildIds.has(guildId) || state === undefined) return;
    const nowMs = ctx.clock.now();
    const channelIds = [...state.channels.values()]
      .filter((c) => VOICE_TYPES.has(c.type) && state.canView(session.userId, c.id, nowMs))
      .map((c) => c.id);
    const [statuses, startTimes] = await Promise.all([
      Promise.all(channelIds.map((id) => ctx.storage.voiceStatus.find(id))),
      ctx.storage.gateway.voiceStartTimes(channelIds),
    ]);
    ctx.reply('CHANNEL_INFO', {
      guild_id: guildId,
      channels: channelIds.map((id, i) => {
        const start = startTimes.get(id);
        return {
          id,
          ...(fields.includes('status') ? { status: statuses[i]?.status ?? null } : {}),
          ...(fields.includes('voice_start_time')
            ? { voice_start_time: start === undefined ? null : Math.floor(start / 1000) }
            : {}),
        };
      }),
    });
  }

  return { presenceUpdate, voiceStateUpdate, requestGuildMembers, requestChannelInfo };
}

/** A voice state on the wire (VOICE_STATE_UPDATE, GUILD_CREATE `voice_states`). */
export function voiceStateWire(
  state: {
    guildId: string;
    channelId: string | null;
    userId: string;
    sessionId: string;
    selfMute: boolean;
    selfDeaf: boolean;
  },
  memberWire: unknown,
  member: Pick<MemberRecord, 'deaf' | 'mute'> | null,
) {
  return {
    guild_id: state.guildId,
    channel_id: state.channelId,
    user_id: state.userId,
    ...(memberWire === null ? {} : { member: memberWire }),
    session_id: state.sessionId,
    deaf: member?.deaf ?? false,
    mute: member?.mute ?? false,
    self_deaf: state.selfDeaf,
    self_mute: state.selfMute,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}
