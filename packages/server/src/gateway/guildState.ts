import { ChannelTypes, PermissionFlags as P } from '@guildhall/protocol';
import {
  basePermissions,
  channelPermissions,
  type PermissionSubject,
  type PermissionOverwrite,
  type PermissionRole,
} from '../domain/permissions.js';
import type { MemberRecord, Storage } from '../storage/index.js';
import { overwritesByChannel, serializeChannel } from '../resources/channels/index.js';
export { obfuscateChannel } from '../resources/channels/index.js';
import { serializeGuild, type GuildWire } from '../resources/guilds/index.js';
import { serializeMember, type MemberWire } from '../resources/members/index.js';
import { isPrivateThread, serializeThread } from '../resources/threads/index.js';
import { voiceStateWire, type VoiceStateWire } from './voiceStates.js';
import { serializeSound, type SoundWire } from '../resources/soundboard/index.js';
import { serializeStageInstance, type StageInstanceWire } from '../resources/voice/index.js';
import { MAX_LARGE_THRESHOLD } from './clientOps.js';
import type { PreserializedDispatch } from './frames.js';
import type { Presence } from './presences.js';
import {
  serializeScheduledEvent,
  type ScheduledEventWire,
} from '../resources/scheduledEvents/index.js';

/** A wire scalar as text (ids and bitsets arrive as strings, sometimes as numbers). */
export function scalarText(value: unknown, fallback = ''): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
    ? String(value)
    : fallback;
}

export interface ChannelModel {
  id: string;
  type: number;
  parentId: string | null;
  overwrites: PermissionOverwrite[];
  /** The channel as a session that can view it receives it. */
  wire: Record<string, unknown>;
}

/** A thread as the gateway knows it: its parent, privacy and (private threads) members. */
export interface ThreadModel {
  id: string;
  parentId: string;
  private: boolean;
  /** Archived threads stay known (their events still route) but leave GUILD_CREATE. */
  archived: boolean;
  memberIds: Set<string>;
  /** The thread as a session that can view it receives it (GUILD_CREATE's `threads`). */
  wire: Record<string, unknown>;
}

/** A private thread's channel type. */
const PRIVATE_THREAD = 12;

export interface MemberModel {
  roleIds: readonly string[];
  communicationDisabledUntil: number | null;
  joinedAt: string;
}

/** What GUILD_CREATE is built from: loaded once per guild, shared by every session on the node. */
export interface GuildSnapshot {
  guild: GuildWire;
  /** The first members by id, with their users, up to {@link MAX_LARGE_THRESHOLD}. */
  members: { userId: string; wire: MemberWire }[];
  memberCount: number;
  /** With their channel: a session sees only those in channels it may view (or with none). */
  scheduledEvents: { channelId: string | null; wire: ScheduledEventWire }[];
  voiceStates: VoiceStateWire[];
  /** Open stages (issue 18); a session sees those in channels it may view. */
  stageInstances: StageInstanceWire[];
  /** The guild's soundboard sounds, as GET /guilds/{id}/soundboard-sounds lists them. */
  soundboardSounds: SoundWire[];
  /**
   * The presences of those members, read with the snapshot: a PRESENCE_UPDATE drops the
   * snapshot like any change, so they are current while it is.
   */
  presences: ReadonlyMap<string, Presence>;
  /** GUILD_CREATE per (user, options) key, built on first use and shared by those sessions. */
  payloads: Map<string, PreserializedDispatch>;
}

/**
 * One guild as a gateway node sees it: the permission model (roles, channels, owner, the members
 * that have sessions here), kept current from the guild's own dispatches, and the GUILD_CREATE
 * snapshot, dropped on any change and reloaded on the next identify.
 */
export class GuildState<TSession = unknown> {
  /** The sessions on this node that receive the guild's dispatches. */
  readonly sessions = new Set<TSession>();
  ownerId = '';
  readonly roles = new Map<string, PermissionRole>();
  readonly channels = new Map<string, ChannelModel>();
  /** The threads: active ones from the snapshot, others as their dispatches bring them. */
  readonly threads = new Map<string, ThreadModel>();
  readonly members = new Map<string, MemberModel>();
  /** VIEW_CHANNEL per user and channel, computed on demand. */
  private readonly views = new Map<string, Map<string, boolean>>();
  memberCount = 0;
  /** Bumped by every dispatch of the guild: a load that saw another generation is stale. */
  generation = 0;
  snapshot: GuildSnapshot | null = null;
  loading: Promise<GuildSnapshot> | null = null;

  readonly id: string;

  constructor(id: string) {
    this.id = id;
  }

  /** Forgets computed visibility: of one user, or of everyone. */
  invalidate(userId?: string) {
    if (userId === undefined) this.views.clear();
    else this.views.delete(userId);
  }

  private subject(userId: string, nowMs: number): PermissionSubject | null {
    const member = this.members.get(userId);
    if (member === undefined) return null;
    return {
      guildId: this.id,
      ownerId: this.ownerId,
      roles: this.roles,
      member: {
        userId,
        roleIds: member.roleIds,
        communicationDisabledUntil: member.communicationDisabledUntil,
      },
      nowMs,
    };
  }

  /** The user's guild-level permissions (0 for a user whose member is not known here). */
  guildPermissions(userId: string, nowMs: number): bigint {
    const subject = this.subject(userId, nowMs);
    return subject === null ? 0n : basePermissions(subject);
  }

  /** The user's permissions in a channel of this guild (0 when unknown). */
  channelPermissions(userId: string, channelId: string, nowMs: number): bigint {
    const subject = this.subject(userId, nowMs);
    const thread = this.threads.get(channelId);
    const channel = this.channels.get(thread?.parentId ?? channelId);
    if (subject === null || channel === undefined) return 0n;
    return channelPermissions(subject, {
      type: channel.type,
      overwrites: channel.overwrites,
      ...(thread === undefined
        ? {}
        : { thread: { private: thread.private, member: thread.memberIds.has(userId) } }),
    });
  }

  /** A thread's create or update. */
  setThread(wire: Record<string, unknown>) {
    const id = scalarText(wire['id']);
    const metadata = wire['thread_metadata'] as { archived?: unknown } | undefined;
    const known = this.threads.get(id);
    const memberIds = known?.memberIds ?? new Set<string>();
    // Its creator is its first member.
    if (known === undefined && typeof wire['owner_id'] === 'string') {
      memberIds.add(wire['owner_id']);
    }
    this.threads.set(id, {
      id,
      parentId: scalarText(wire['parent_id']),
      private: Number(wire['type']) === PRIVATE_THREAD,
      archived: metadata?.archived === true,
      memberIds,
      wire,
    });
    this.invalidate();
  }

  /** THREAD_MEMBERS_UPDATE: who joined or left. */
  updateThreadMembers(id: string, added: readonly string[], removed: readonly string[]) {
    const thread = this.threads.get(id);
    if (thread === undefined) return;
    for (const userId of added) thread.memberIds.add(userId);
    for (const userId of removed) thread.memberIds.delete(userId);
    if (typeof thread.wire['member_count'] === 'number') {
      thread.wire = { ...thread.wire, member_count: thread.memberIds.size };
    }
    this.invalidate();
  }

  private ownView(userId: string, channel: ChannelModel, nowMs: number): boolean {
    return (this.channelPermissions(userId, channel.id, nowMs) & P.VIEW_CHANNEL) !== 0n;
  }

  /**
   * Whether `userId` may view the channel: VIEW_CHANNEL there, or, for a category, in any of its
   * children. Unknown channels are not viewable.
   */
  canView(userId: string, channelId: string, nowMs: number): boolean {
    let perUser = this.views.get(userId);
    if (perUser === undefined) {
      perUser = new Map();
      this.views.set(userId, perUser);
    }
    const cached = perUser.get(channelId);
    if (cached !== undefined) return cached;
    if (this.threads.has(channelId)) {
      const view = (this.channelPermissions(userId, channelId, nowMs) & P.VIEW_CHANNEL) !== 0n;
      perUser.set(channelId, view);
      return view;
    }
    const channel = this.channels.get(channelId);
    let view = channel !== undefined && this.ownView(userId, channel, nowMs);
    if (!view && channel?.type === ChannelTypes.GUILD_CATEGORY) {
      for (const child of this.channels.values()) {
        if (child.parentId === channelId && this.ownView(userId, child, nowMs)) {
          view = true;
          break;
        }
      }
    }
    perUser.set(channelId, view);
    return view;
  }

  setChannel(wire: Record<string, unknown>) {
    const id = scalarText(wire['id']);
    const overwrites = Array.isArray(wire['permission_overwrites'])
      ? (wire['permission_overwrites'] as Record<string, unknown>[]).map((o) => ({
          id: scalarText(o['id']),
          type: Number(o['type']) === 1 ? (1 as const) : (0 as const),
          allow: BigInt(scalarText(o['allow'], '0')),
          deny: BigInt(scalarText(o['deny'], '0')),
        }))
      : [];
    this.channels.set(id, {
      id,
      type: Number(wire['type']),
      parentId: typeof wire['parent_id'] === 'string' ? wire['parent_id'] : null,
      overwrites,
      wire,
    });
    this.invalidate();
  }

  setRole(role: Record<string, unknown>) {
    this.roles.set(scalarText(role['id']), {
      id: scalarText(role['id']),
      permissions: BigInt(scalarText(role['permissions'], '0')),
      position: Number(role['position'] ?? 0),
    });
    this.invalidate();
  }

  setMember(userId: string, member: MemberModel) {
    this.members.set(userId, member);
    this.invalidate(userId);
  }
}

function memberModel(member: MemberRecord): MemberModel {
  return {
    roleIds: member.roleIds,
    communicationDisabledUntil: member.communicationDisabledUntil,
    joinedAt: new Date(member.joinedAt).toISOString(),
  };
}

/**
 * Loads the guild (a handful of queries, whatever the number of sessions) into `state`: the
 * permission model and the GUILD_CREATE snapshot, with the presences `presencesOf` reads for
 * its members. Returns null when the guild is gone.
 */
export async function loadGuild(
  storage: Storage,
  state: GuildState,
  presencesOf: (userIds: readonly string[]) => Promise<ReadonlyMap<string, Presence>>,
): Promise<GuildSnapshot | null> {
  const guild = await storage.guilds.findById(state.id);
  if (guild === null) return null;
  const [roles, channels, emojis, stickers, counts, members, events, threads] = await Promise.all([
    storage.roles.listByGuild(guild.id),
    storage.channels.listByGuild(guild.id),
    storage.emojis.listByGuild(guild.id),
    storage.stickers.listByGuild(guild.id),
    storage.guilds.memberCounts([guild.id]),
    storage.members.listByGuild(guild.id, { limit: MAX_LARGE_THRESHOLD }),
    storage.scheduledEvents.listByGuild(guild.id),
    storage.threads.listByGuild(guild.id, { archived: false }),
  ]);
  const [stages, sounds] = await Promise.all([
    storage.stageInstances.listByGuild(guild.id),
    storage.soundboard.listByGuild(guild.id),
  ]);
  const soundCreators = await Promise.all(
    sounds.map((s) =>
      s.creatorId === null ? Promise.resolve(null) : storage.users.findById(s.creatorId),
    ),
  );
  const privateIds = threads
    .filter((t) => isPrivateThread(t.channel.type))
    .map((t) => t.channel.id);
  const [overwrites, users, voiceStates, presences, threadMembers, tags] = await Promise.all([
    storage.overwrites.listByChannels(channels.map((c) => c.id)),
    Promise.all(members.map((m) => storage.users.findById(m.userId))),
    storage.gateway.listVoiceStates([guild.id]),
    presencesOf(members.map((m) => m.userId)),
    storage.threads.membersOf(privateIds),
    storage.threads.listTags(channels.map((c) => c.id)),
  ]);
  const byChannel = overwritesByChannel(overwrites);
  const tagsOf = new Map<string, typeof tags>();
  for (const tag of tags) tagsOf.set(tag.channelId, [...(tagsOf.get(tag.channelId) ?? []), tag]);
  state.ownerId = guild.ownerId;
  state.roles.clear();
  for (const role of roles) {
    state.roles.set(role.id, {
      id: role.id,
      permissions: role.permissions,
      position: role.position,
    });
  }
  state.channels.clear();
  for (const channel of channels) {
    const own = byChannel.get(channel.id) ?? [];
    state.channels.set(channel.id, {
      id: channel.id,
      type: channel.type,
      parentId: channel.parentId,
      overwrites: own.map((o) => ({
        id: o.targetId,
        type: o.type,
        allow: o.allow,
        deny: o.deny,
      })),
      wire: serializeChannel(channel, own, tagsOf.get(channel.id) ?? []),
    });
  }
  state.threads.clear();
  for (const thread of threads) {
    state.threads.set(thread.channel.id, {
      id: thread.channel.id,
      parentId: thread.channel.parentId,
      private: isPrivateThread(thread.channel.type),
      archived: false,
      memberIds: new Set(
        threadMembers.filter((m) => m.threadId === thread.channel.id).map((m) => m.userId),
      ),
      wire: serializeThread(thread),
    });
  }
  state.invalidate();
  state.memberCount = counts.get(guild.id) ?? 0;
  const wireMembers: GuildSnapshot['members'] = [];
  members.forEach((member, i) => {
    const user = users[i];
    if (user == null) return;
    wireMembers.push({ userId: member.userId, wire: serializeMember(member, user) });
    if (state.members.has(member.userId)) state.setMember(member.userId, memberModel(member));
  });
  return {
    guild: serializeGuild(guild, { roles, emojis, stickers }),
    members: wireMembers,
    memberCount: state.memberCount,
    scheduledEvents: events.map((event) => ({
      channelId: event.channelId,
      wire: serializeScheduledEvent(event, { creator: null }),
    })),
    voiceStates: voiceStates.map((v) => voiceStateWire(v, null, null)),
    stageInstances: stages.map(serializeStageInstance),
    soundboardSounds: sounds.map((sound, i) => serializeSound(sound, soundCreators[i] ?? null)),
    presences,
    payloads: new Map(),
  };
}
