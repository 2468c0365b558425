import { sql, type Kysely } from 'kysely';
import type {
  ForumTagRecord,
  PollRecord,
  PollRepository,
  ThreadListQuery,
  ThreadMemberRecord,
  ThreadPatch,
  ThreadRecord,
  ThreadRepository,
} from '../types/threads.js';
import { selectChannelsWithLatest, toChannel, type ChannelRow } from './channels.js';
import { bool, flag, id, idOrNull, int, jsonArray } from './rows.js';
import type { Database } from './schema.js';

/** Minutes to milliseconds, for the auto-archive deadline computed in SQL. */
const MINUTE_MS = 60_000;

/** A thread's channel with its metadata and counts, in one statement. */
function selectThreads(db: Kysely<Database>) {
  return selectChannelsWithLatest(db)
    .innerJoin('thread_metadata as t', 't.channel_id', 'channels.id')
    .select([
      't.archived',
      't.auto_archive_duration',
      't.archive_timestamp',
      't.locked',
      't.invitable',
      't.total_message_sent',
      't.applied_tags',
      't.last_activity_at',
    ])
    .select((eb) => [
      eb
        .selectFrom('messages')
        .select((sub) => sub.fn.countAll().as('n'))
        .whereRef('messages.channel_id', '=', 'channels.id')
        .where('messages.ephemeral_user_id', 'is', null)
        .as('message_count'),
      eb
        .selectFrom('thread_members')
        .select((sub) => sub.fn.countAll().as('n'))
        .whereRef('thread_members.thread_id', '=', 'channels.id')
        .as('member_count'),
    ]);
}

type ThreadRow = ChannelRow & {
  archived: number | bigint | string;
  auto_archive_duration: number | bigint | string;
  archive_timestamp: number | bigint | string;
  locked: number | bigint | string;
  invitable: number | bigint | string;
  total_message_sent: number | bigint | string;
  applied_tags: string;
  last_activity_at: number | bigint | string;
  message_count: number | bigint | string | null;
  member_count: number | bigint | string | null;
};

function toThread(row: ThreadRow): ThreadRecord {
  const channel = toChannel(row);
  return {
    channel: { ...channel, guildId: channel.guildId ?? '', parentId: channel.parentId ?? '' },
    ownerId: idOrNull(row.owner_id) ?? '',
    archived: bool(row.archived),
    autoArchiveDuration: int(row.auto_archive_duration),
    archiveTimestamp: int(row.archive_timestamp),
    locked: bool(row.locked),
    invitable: bool(row.invitable),
    totalMessageSent: int(row.total_message_sent),
    appliedTags: jsonArray(row.applied_tags),
    lastActivityAt: int(row.last_activity_at),
    messageCount: int(row.message_count ?? 0),
    memberCount: int(row.member_count ?? 0),
  };
}

function toMember(row: {
  thread_id: string | bigint;
  user_id: string | bigint;
  join_timestamp: number | bigint | string;
  flags: number | bigint | string;
}): ThreadMemberRecord {
  return {
    threadId: id(row.thread_id),
    userId: id(row.user_id),
    joinedAt: int(row.join_timestamp),
    flags: int(row.flags),
  };
}

/** Private thread type (12): the private lists and the member rule. */
const PRIVATE_THREAD = 12;

export function createThreadRepository(db: Kysely<Database>): ThreadRepository {
  const find = async (threadId: string) => {
    const row = await selectThreads(db).where('channels.id', '=', threadId).executeTakeFirst();
    return row === undefined ? null : toThread(row as ThreadRow);
  };
  return {
    async create(thread) {
      const c = thread.channel;
      await db
        .insertInto('channels')
        .values({
          id: c.id,
          guild_id: c.guildId,
          type: c.type,
          name: c.name,
          position: 0,
          parent_id: c.parentId,
          topic: null,
          nsfw: flag(c.nsfw),
          rate_limit_per_user: c.rateLimitPerUser,
          bitrate: null,
          user_limit: null,
          flags: c.flags,
          last_message_id: null,
          created_at: c.createdAt,
          application_id: null,
          owner_id: thread.ownerId,
        })
        .execute();
      await db
        .insertInto('thread_metadata')
        .values({
          channel_id: c.id,
          guild_id: c.guildId,
          parent_id: c.parentId,
          archived: 0,
          auto_archive_duration: thread.autoArchiveDuration,
          archive_timestamp: thread.createdAt,
          locked: 0,
          invitable: flag(thread.invitable),
          applied_tags: JSON.stringify(thread.appliedTags),
          last_activity_at: thread.createdAt,
        })
        .execute();
    },
    find,
    async update(threadId, patch: ThreadPatch) {
      const columns = {
        archived: patch.archived === undefined ? undefined : flag(patch.archived),
        auto_archive_duration: patch.autoArchiveDuration,
        archive_timestamp: patch.archiveTimestamp,
        locked: patch.locked === undefined ? undefined : flag(patch.locked),
        invitable: patch.invitable === undefined ? undefined : flag(patch.invitable),
        applied_tags:
          patch.appliedTags === undefined ? undefined : JSON.stringify(patch.appliedTags),
        last_activity_at: patch.lastActivityAt,
      };
      if (Object.values(columns).some((v) => v !== undefined)) {
        await db
          .updateTable('thread_metadata')
          .set(columns)
          .where('channel_id', '=', threadId)
          .execute();
      }
      return find(threadId);
    },
    async listByGuild(guildId, query) {
      const rows = await selectThreads(db)
        .where('t.guild_id', '=', guildId)
        .where('t.archived', '=', flag(query.archived))
        .orderBy('channels.id')
        .execute();
      return rows.map((row) => toThread(row as ThreadRow));
    },
    async listByParent(parentId, query: ThreadListQuery) {
      let q = selectThreads(db)
        .where('t.parent_id', '=', parentId)
        .where('t.archived', '=', flag(query.archived));
      if (query.private === true) q = q.where('channels.type', '=', PRIVATE_THREAD);
      if (query.private === false) q = q.where('channels.type', '!=', PRIVATE_THREAD);
      if (query.before !== undefined) q = q.where('t.archive_timestamp', '<', query.before);
      if (query.memberId !== undefined) {
        const memberId = query.memberId;
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('thread_members')
              .select('thread_members.user_id')
              .whereRef('thread_members.thread_id', '=', 'channels.id')
              .where('thread_members.user_id', '=', memberId),
          ),
        );
      }
      q = query.archived
        ? q.orderBy('t.archive_timestamp', 'desc').orderBy('channels.id', 'desc')
        : q.orderBy('channels.id');
      if (query.limit !== undefined) q = q.limit(query.limit);
      const rows = await q.execute();
      return rows.map((row) => toThread(row as ThreadRow));
    },
    async recordMessage(threadId, nowMs) {
      await db
        .updateTable('thread_metadata')
        .set((eb) => ({
          total_message_sent: eb('total_message_sent', '+', 1),
          last_activity_at: nowMs,
        }))
        .where('channel_id', '=', threadId)
        .execute();
    },
    async listDueToArchive(nowMs, limit) {
      const rows = await selectThreads(db)
        .where('t.archived', '=', 0)
        .where(
          sql<boolean>`t.last_activity_at + t.auto_archive_duration * ${MINUTE_MS} <= ${nowMs}`,
        )
        .orderBy('channels.id')
        .limit(limit)
        .execute();
      return rows.map((row) => toThread(row as ThreadRow));
    },
    async addMember(member) {
      const result = await db
        .insertInto('thread_members')
        .values({
          thread_id: member.threadId,
          user_id: member.userId,
          join_timestamp: member.joinedAt,
          flags: member.flags,
        })
        .onConflict((oc) => oc.columns(['thread_id', 'user_id']).doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },
    async removeMember(threadId, userId) {
      const result = await db
        .deleteFrom('thread_members')
        .where('thread_id', '=', threadId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async findMember(threadId, userId) {
      const row = await db
        .selectFrom('thread_members')
        .selectAll()
        .where('thread_id', '=', threadId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row === undefined ? null : toMember(row);
    },
    async listMembers(threadId, query) {
      let q = db.selectFrom('thread_members').selectAll().where('thread_id', '=', threadId);
      if (query.after !== undefined) q = q.where('user_id', '>', query.after);
      const rows = await q.orderBy('user_id').limit(query.limit).execute();
      return rows.map(toMember);
    },
    async membershipsOf(userId, threadIds) {
      if (threadIds.length === 0) return [];
      const rows = await db
        .selectFrom('thread_members')
        .selectAll()
        .where('user_id', '=', userId)
        .where('thread_id', 'in', threadIds)
        .execute();
      return rows.map(toMember);
    },
    async membersOf(threadIds) {
      if (threadIds.length === 0) return [];
      const rows = await db
        .selectFrom('thread_members')
        .selectAll()
        .where('thread_id', 'in', threadIds)
        .orderBy('thread_id')
        .orderBy('user_id')
        .execute();
      return rows.map(toMember);
    },
    async listTags(channelIds) {
      if (channelIds.length === 0) return [];
      const rows = await db
        .selectFrom('forum_tags')
        .selectAll()
        .where('channel_id', 'in', channelIds)
        .orderBy('channel_id')
        .orderBy('position')
        .execute();
      return rows.map((row): ForumTagRecord => ({
        id: id(row.id),
        channelId: id(row.channel_id),
        name: row.name,
        moderated: bool(row.moderated),
        emojiId: idOrNull(row.emoji_id),
        emojiName: row.emoji_name,
      }));
    },
    async replaceTags(channelId, tags) {
      await db.deleteFrom('forum_tags').where('channel_id', '=', channelId).execute();
      if (tags.length === 0) return;
      await db
        .insertInto('forum_tags')
        .values(
          tags.map((tag, position) => ({
            id: tag.id,
            channel_id: channelId,
            position,
            name: tag.name,
            moderated: flag(tag.moderated),
            emoji_id: tag.emojiId,
            emoji_name: tag.emojiName,
          })),
        )
        .execute();
    },
  };
}

function toPoll(row: {
  message_id: string | bigint;
  channel_id: string | bigint;
  question: string;
  answers: string;
  allow_multiselect: number | bigint | string;
  layout_type: number | bigint | string;
  expires_at: number | bigint | string;
  finalized: number | bigint | string;
}): PollRecord {
  return {
    messageId: id(row.message_id),
    channelId: id(row.channel_id),
    question: JSON.parse(row.question) as PollRecord['question'],
    answers: JSON.parse(row.answers) as PollRecord['answers'],
    allowMultiselect: bool(row.allow_multiselect),
    layoutType: int(row.layout_type),
    expiresAt: int(row.expires_at),
    finalized: bool(row.finalized),
  };
}

export function createPollRepository(db: Kysely<Database>): PollRepository {
  return {
    async create(poll) {
      await db
        .insertInto('polls')
        .values({
          message_id: poll.messageId,
          channel_id: poll.channelId,
          question: JSON.stringify(poll.question),
          answers: JSON.stringify(poll.answers),
          allow_multiselect: flag(poll.allowMultiselect),
          layout_type: poll.layoutType,
          expires_at: poll.expiresAt,
          finalized: flag(poll.finalized),
        })
        .execute();
    },
    async find(messageId) {
      const row = await db
        .selectFrom('polls')
        .selectAll()
        .where('message_id', '=', messageId)
        .executeTakeFirst();
      return row === undefined ? null : toPoll(row);
    },
    async findMany(messageIds) {
      if (messageIds.length === 0) return [];
      const rows = await db
        .selectFrom('polls')
        .selectAll()
        .where('message_id', 'in', messageIds)
        .execute();
      return rows.map(toPoll);
    },
    async finalize(messageId, nowMs) {
      const result = await db
        .updateTable('polls')
        .set((eb) => ({
          finalized: 1,
          expires_at: sql<number>`case when ${eb.ref('expires_at')} > ${nowMs} then ${nowMs} else ${eb.ref('expires_at')} end`,
        }))
        .where('message_id', '=', messageId)
        .where('finalized', '=', 0)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async listExpired(nowMs, limit) {
      const rows = await db
        .selectFrom('polls')
        .selectAll()
        .where('finalized', '=', 0)
        .where('expires_at', '<=', nowMs)
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map(toPoll);
    },
    async addVote(vote) {
      const result = await db
        .insertInto('poll_votes')
        .values({ message_id: vote.messageId, answer_id: vote.answerId, user_id: vote.userId })
        .onConflict((oc) => oc.columns(['message_id', 'answer_id', 'user_id']).doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },
    async removeVote(vote) {
      const result = await db
        .deleteFrom('poll_votes')
        .where('message_id', '=', vote.messageId)
        .where('answer_id', '=', vote.answerId)
        .where('user_id', '=', vote.userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async votesOf(messageId, userId) {
      const rows = await db
        .selectFrom('poll_votes')
        .select('answer_id')
        .where('message_id', '=', messageId)
        .where('user_id', '=', userId)
        .orderBy('answer_id')
        .execute();
      return rows.map((row) => int(row.answer_id));
    },
    async tallies(messageIds, viewerId) {
      const result = new Map<string, { counts: Map<number, number>; mine: Set<number> }>();
      if (messageIds.length === 0) return result;
      for (const messageId of messageIds)
        result.set(messageId, { counts: new Map(), mine: new Set() });
      const rows = await db
        .selectFrom('poll_votes')
        .select(['message_id', 'answer_id'])
        .select((eb) => eb.fn.countAll().as('n'))
        .where('message_id', 'in', messageIds)
        .groupBy(['message_id', 'answer_id'])
        .execute();
      for (const row of rows) {
        result.get(id(row.message_id))?.counts.set(int(row.answer_id), int(row.n));
      }
      if (viewerId !== null) {
        const mine = await db
          .selectFrom('poll_votes')
          .select(['message_id', 'answer_id'])
          .where('message_id', 'in', messageIds)
          .where('user_id', '=', viewerId)
          .execute();
        for (const row of mine) result.get(id(row.message_id))?.mine.add(int(row.answer_id));
      }
      return result;
    },
    async voters(messageId, answerId, query) {
      let q = db
        .selectFrom('poll_votes')
        .select('user_id')
        .where('message_id', '=', messageId)
        .where('answer_id', '=', answerId);
      if (query.after !== undefined) q = q.where('user_id', '>', query.after);
      const rows = await q.orderBy('user_id').limit(query.limit).execute();
      return rows.map((row) => id(row.user_id));
    },
  };
}
