import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { channelPermissions, hasAll } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type {
  ChannelRecord,
  OverwriteRecord,
  Repositories,
  ThreadMemberRecord,
  ThreadRecord,
} from '../../storage/index.js';
import { loadGuildAccess, type GuildAccess } from '../access/index.js';
import { isPrivateThread, isThreadType } from './rules.js';

/** A thread with its parent and the caller's access to both. */
export interface ThreadAccess {
  thread: ThreadRecord;
  parent: ChannelRecord & { guildId: string };
  parentOverwrites: OverwriteRecord[];
  guild: GuildAccess;
  /** The caller's membership of the thread, or null. */
  membership: ThreadMemberRecord | null;
  /** The caller's permissions in the parent channel. */
  parentPermissions: bigint;
  /** The caller's permissions in the thread (docs/threads.md#permissions). */
  permissions: bigint;
  /** 50001 unless the caller sees the thread, then 50013 unless it holds every bit. */
  require(bits: bigint): void;
}

/** The thread permissions of a guild member, given the parent channel and its overwrites. */
export function threadPermissionsOf(
  guild: GuildAccess,
  input: {
    thread: ThreadRecord;
    parent: ChannelRecord;
    parentOverwrites: readonly OverwriteRecord[];
    member: boolean;
  },
): bigint {
  return channelPermissions(guild.subject, {
    type: input.parent.type,
    overwrites: input.parentOverwrites.map((o) => ({
      id: o.targetId,
      type: o.type,
      allow: o.allow,
      deny: o.deny,
    })),
    thread: { private: isPrivateThread(input.thread.channel.type), member: input.member },
  });
}

/** The thread an id names: 10003 for an unknown id, 50024 for a channel that is no thread. */
export async function findThread(repos: Repositories, threadId: string): Promise<ThreadRecord> {
  const channel = isSnowflake(threadId) ? await repos.channels.findById(threadId) : null;
  if (channel?.guildId == null) throw new ApiError('UNKNOWN_CHANNEL');
  if (!isThreadType(channel.type)) throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
  const thread = await repos.threads.find(threadId);
  if (thread === null) throw new ApiError('UNKNOWN_CHANNEL');
  return thread;
}

/** Loads a thread, its parent and the caller's permissions in both. */
export async function loadThreadAccess(
  repos: Repositories,
  request: { threadId: string; userId: string; nowMs: number },
): Promise<ThreadAccess> {
  const thread = await findThread(repos, request.threadId);
  return accessTo(repos, thread, request);
}

/** The caller's access to a thread already loaded. */
export async function accessTo(
  repos: Repositories,
  thread: ThreadRecord,
  request: { userId: string; nowMs: number },
): Promise<ThreadAccess> {
  const [guild, found, parentOverwrites, membership] = await Promise.all([
    loadGuildAccess(repos, {
      guildId: thread.channel.guildId,
      userId: request.userId,
      nowMs: request.nowMs,
    }),
    repos.channels.findById(thread.channel.parentId),
    repos.overwrites.listByChannel(thread.channel.parentId),
    repos.threads.findMember(thread.channel.id, request.userId),
  ]);
  if (found?.guildId == null) throw new ApiError('UNKNOWN_CHANNEL');
  const parent = { ...found, guildId: found.guildId };
  const parentPermissions = guild.inChannel(parent, parentOverwrites);
  const permissions = threadPermissionsOf(guild, {
    thread,
    parent,
    parentOverwrites,
    member: membership !== null,
  });
  return {
    thread,
    parent,
    parentOverwrites,
    guild,
    membership,
    parentPermissions,
    permissions,
    require(bits) {
      if (!hasAll(permissions, P.VIEW_CHANNEL)) throw new ApiError('MISSING_ACCESS');
      if (!hasAll(permissions, bits)) throw new ApiError('MISSING_PERMISSIONS');
    },
  };
}
