import type { APIThreadChannel, APIThreadMember } from 'discord-api-types/v10';
import type { ThreadMemberRecord, ThreadRecord } from '../../storage/index.js';
import type { MemberWire } from '../members/index.js';
import type { WireShape } from '../wireShape.js';
import { isPrivateThread } from './rules.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A thread member (ThreadMemberResponse); `member` with with_member=true. */
export function serializeThreadMember(record: ThreadMemberRecord, member?: MemberWire) {
  return {
    id: record.threadId,
    user_id: record.userId,
    join_timestamp: iso(record.joinedAt),
    flags: record.flags,
    ...(member === undefined ? {} : { member }),
  } satisfies Omit<WireShape<APIThreadMember>, 'member'> & { member?: MemberWire };
}

export type ThreadMemberWire = ReturnType<typeof serializeThreadMember>;

/**
 * A thread (ThreadResponse): its channel fields, `thread_metadata` (`invitable` on private
 * threads only), the counts, and the caller's own membership as `member` when given.
 */
export function serializeThread(thread: ThreadRecord, member?: ThreadMemberRecord | null) {
  const { channel } = thread;
  return {
    id: channel.id,
    type: channel.type as 10 | 11 | 12,
    guild_id: channel.guildId,
    name: channel.name ?? '',
    parent_id: channel.parentId,
    owner_id: thread.ownerId,
    last_message_id: channel.lastMessageId,
    flags: channel.flags,
    rate_limit_per_user: channel.rateLimitPerUser,
    thread_metadata: {
      archived: thread.archived,
      archive_timestamp: iso(thread.archiveTimestamp),
      auto_archive_duration: thread.autoArchiveDuration,
      locked: thread.locked,
      create_timestamp: iso(channel.createdAt),
      ...(isPrivateThread(channel.type) ? { invitable: thread.invitable } : {}),
    },
    message_count: thread.messageCount,
    member_count: thread.memberCount,
    total_message_sent: thread.totalMessageSent,
    applied_tags: thread.appliedTags,
    ...(member == null ? {} : { member: serializeThreadMember(member) }),
  } satisfies Pick<
    WireShape<APIThreadChannel>,
    | 'id'
    | 'type'
    | 'guild_id'
    | 'name'
    | 'parent_id'
    | 'owner_id'
    | 'last_message_id'
    | 'flags'
    | 'rate_limit_per_user'
    | 'thread_metadata'
    | 'message_count'
    | 'member_count'
    | 'total_message_sent'
    | 'applied_tags'
  >;
}

export type ThreadWire = ReturnType<typeof serializeThread>;
