/**
 * @module gateway/commands: what an identified session asks of the gateway (op 3, 4, 8, 31, 43).
 * Payloads arrive parsed (gateway/clientOps.ts); what a payload's shape cannot say (a guild the
 * session is not in, an intent it lacks) is an InvalidCommandError, close 4001.
 */
import {
  GatewayIntentBits as I,
  GatewayOpcodes as Op,
  isVoiceChannelType,
} from '@guildhall/protocol';
import { serializeMember } from '../resources/members/index.js';
import { serializeSound } from '../resources/soundboard/index.js';
import type { CallLifecycle } from '../resources/calls/index.js';
import type { RateLimitStore } from '../sharedState/index.js';
import type { MemberRecord } from '../storage/index.js';
import { MAX_QUERIED_MEMBERS } from './clientOps.js';
import type {
  PlatformCommandFrame,
  RequestChannelInfoPayload,
  RequestGuildMembersPayload,
} from './clientOps.js';
import { InvalidCommandError, type CommandContext, type CommandSession } from './commandContext.js';
import { createPresenceCommand } from './presenceCommand.js';
import type { Presence, Presences } from './presences.js';
import { guildPresenceWire, visibleActivities } from './routing.js';
import { createVoiceCommand, type VoiceServers } from './voiceCommand.js';

export { visibleActivities };
export { InvalidCommandError, type CommandContext, type CommandSession };

/** Members per GUILD_MEMBERS_CHUNK (docs/platform-notes.md#request-guild-members). */
export const MEMBERS_PER_CHUNK = 1000;
/**
 * Asking for all members of a guild: once per guild per bot per 30 s
 * (docs/platform-notes.md#gateway-limits).
 */
export const ALL_MEMBERS_WINDOW_MS = 30_000;
/** That window as a bucket of the shared rate-limit store, so it holds across nodes. */
const ALL_MEMBERS_LIMIT = { limit: 1, windowMs: ALL_MEMBERS_WINDOW_MS } as const;
/** Op 8 without a limit (and not asking for all members) answers this many. */
const DEFAULT_QUERIED_MEMBERS = 100;
/** Members read per page when all of a guild's are asked for. */
const MEMBERS_PAGE = 1000;

/**
 * The gateway commands a session sends once identified: op 3, op 4, op 8, op 31 and op 43. Each
 * answers with dispatches.
 */
export function createCommands(deps: {
  presences: Presences;
  /** Where the all-members window of each bot and guild is counted. */
  rateLimits: RateLimitStore;
  /** The voice nodes op 4 sends sessions to; null: voice states only, no VOICE_SERVER_UPDATE. */
  voice?: VoiceServers | null;
  /** DM and group-DM calls (resources/calls); absent: op 4 names guilds and lobbies only. */
  calls?: CallLifecycle | null;
}) {
  const { presences, rateLimits } = deps;
  const voice = createVoiceCommand({ voice: deps.voice ?? null, calls: deps.calls ?? null });
  const { presenceUpdate, personGone } = createPresenceCommand({ presences });

  async function requestGuildMembers(
    ctx: CommandContext,
    input: { session: CommandSession; d: RequestGuildMembersPayload },
  ) {
    const { session, d } = input;
    const { guild_id: guildId, nonce, limit, user_ids: userIds, query } = d;
    const hasMembersIntent = (session.intents & I.GUILD_MEMBERS) !== 0;
    const withPresences = d.presences;
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
      const now = ctx.clock.now();
      const window = await rateLimits.consume(
        `op8:${session.userId}:${guildId}`,
        ALL_MEMBERS_LIMIT,
        now,
      );
      if (!window.allowed) {
        ctx.reply('RATE_LIMITED', {
          opcode: Op.REQUEST_GUILD_MEMBERS,
          retry_after: (window.resetAtMs - now) / 1000,
          meta: { guild_id: guildId, ...(nonce === undefined ? {} : { nonce }) },
        });
        return;
      }
      members = [];
      for (let after: string | undefined; ;) {
        const page = await ctx.storage.members.listByGuild(guildId, {
          limit: MEMBERS_PAGE,
          ...(after === undefined ? {} : { after }),
        });
        members.push(...page);
        if (page.length < MEMBERS_PAGE) break;
        after = page[page.length - 1]?.userId;
      }
    } else {
      const max = Math.min(limit === 0 ? DEFAULT_QUERIED_MEMBERS : limit, MAX_QUERIED_MEMBERS);
      members =
        query === ''
          ? await ctx.storage.members.listByGuild(guildId, { limit: max })
          : await ctx.storage.members.search(guildId, { query: query ?? '', limit: max });
    }
    const [users, shown] = await Promise.all([
      Promise.all(members.map((m) => ctx.storage.users.findById(m.userId))),
      withPresences ? presences.get(members.map((m) => m.userId)) : new Map<string, Presence>(),
    ]);
    const memberCount = ctx.guild(guildId)?.memberCount ?? 0;
    const wire: unknown[] = [];
    const presenceWire: unknown[] = [];
    members.forEach((member, i) => {
      const user = users[i];
      if (user == null) return;
      wire.push(serializeMember(member, user));
      const presence = withPresences
        ? guildPresenceWire(member.userId, shown.get(member.userId), memberCount)
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
    input: { session: CommandSession; d: RequestChannelInfoPayload },
  ) {
    const { session } = input;
    const { guild_id: guildId, fields } = input.d;
    const state = ctx.guild(guildId);
    if (!session.guildIds.has(guildId) || state === undefined) return;
    const nowMs = ctx.clock.now();
    const channelIds = [...state.channels.values()]
      .filter((c) => isVoiceChannelType(c.type) && state.canView(session.userId, c.id, nowMs))
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

  /**
   * Op 31: one SOUNDBOARD_SOUNDS per asked guild the session is in, with the guild's sounds as
   * GET /guilds/{id}/soundboard-sounds lists them (creators included: the list is the guild's).
   */
  async function requestSoundboardSounds(
    ctx: CommandContext,
    input: { session: CommandSession; guildIds: readonly unknown[] },
  ) {
    const asked = new Set(
      input.guildIds.filter(
        (id): id is string => typeof id === 'string' && input.session.guildIds.has(id),
      ),
    );
    for (const guildId of asked) {
      const sounds = await ctx.storage.soundboard.listByGuild(guildId);
      const creatorIds = [...new Set(sounds.map((s) => s.creatorId).filter((id) => id !== null))];
      const creators = new Map(
        (await Promise.all(creatorIds.map((id) => ctx.storage.users.findById(id))))
          .filter((user) => user !== null)
          .map((user) => [user.id, user] as const),
      );
      ctx.reply('SOUNDBOARD_SOUNDS', {
        guild_id: guildId,
        soundboard_sounds: sounds.map((sound) =>
          serializeSound(sound, creators.get(sound.creatorId ?? '') ?? null),
        ),
      });
    }
  }

  /** Runs one command frame. */
  async function run(
    ctx: CommandContext,
    input: { session: CommandSession; frame: PlatformCommandFrame },
  ) {
    const { session, frame } = input;
    switch (frame.op) {
      case Op.PRESENCE_UPDATE:
        return presenceUpdate(ctx, { session, d: frame.d });
      case Op.VOICE_STATE_UPDATE:
        return voice.voiceStateUpdate(ctx, { session, d: frame.d });
      case Op.REQUEST_GUILD_MEMBERS:
        return requestGuildMembers(ctx, { session, d: frame.d });
      case Op.REQUEST_SOUNDBOARD_SOUNDS:
        return requestSoundboardSounds(ctx, { session, guildIds: frame.d.guild_ids });
      case Op.REQUEST_CHANNEL_INFO:
        return requestChannelInfo(ctx, { session, d: frame.d });
    }
  }

  return { run, personGone, sessionEnded: voice.sessionEnded };
}
