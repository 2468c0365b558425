/** Threads, their members and forum tags; polls and their votes (migration 0032). */

import type { ChannelRecord } from './channels.js';

/** A thread: its channel row (type 10, 11 or 12) with its metadata and counts. */
export interface ThreadRecord {
  channel: ChannelRecord & { guildId: string; parentId: string };
  ownerId: string;
  archived: boolean;
  /** Minutes of inactivity before the thread archives itself: 60, 1440, 4320 or 10080. */
  autoArchiveDuration: number;
  /** Epoch ms of the last archive or unarchive (creation before either). */
  archiveTimestamp: number;
  locked: boolean;
  invitable: boolean;
  totalMessageSent: number;
  appliedTags: string[];
  /** Epoch ms the thread last woke (made, unarchived, posted in). */
  lastActivityAt: number;
  /** Messages in the thread now (a forum post's starter message included). */
  messageCount: number;
  memberCount: number;
}

export interface NewThreadRecord {
  channel: ChannelRecord & { guildId: string; parentId: string };
  ownerId: string;
  autoArchiveDuration: number;
  invitable: boolean;
  appliedTags: string[];
  createdAt: number;
}

export type ThreadPatch = Partial<
  Pick<
    ThreadRecord,
    | 'archived'
    | 'autoArchiveDuration'
    | 'archiveTimestamp'
    | 'locked'
    | 'invitable'
    | 'appliedTags'
    | 'lastActivityAt'
  >
>;

export interface ThreadMemberRecord {
  threadId: string;
  userId: string;
  joinedAt: number;
  flags: number;
}

/** A forum or media channel's tag. */
export interface ForumTagRecord {
  id: string;
  channelId: string;
  name: string;
  moderated: boolean;
  emojiId: string | null;
  emojiName: string | null;
}

/** Which of a parent's threads a list wants. */
export interface ThreadListQuery {
  archived: boolean;
  /** Only private threads (true), only public and announcement ones (false), or both. */
  private?: boolean;
  /** Only threads this user is a member of. */
  memberId?: string;
  /** Archived before this epoch ms (archived lists page by archive time, newest first). */
  before?: number;
  limit?: number;
}

export interface ThreadRepository {
  /** Writes the thread's channel row, its metadata, and nothing else. */
  create(thread: NewThreadRecord): Promise<void>;
  find(threadId: string): Promise<ThreadRecord | null>;
  update(threadId: string, patch: ThreadPatch): Promise<ThreadRecord | null>;
  /** The guild's threads, archived or not, by id. */
  listByGuild(guildId: string, query: { archived: boolean }): Promise<ThreadRecord[]>;
  /** A parent channel's threads; archived ones newest archive first, others by id. */
  listByParent(parentId: string, query: ThreadListQuery): Promise<ThreadRecord[]>;
  /** A message posted in the thread: one more sent, and it wakes. */
  recordMessage(threadId: string, nowMs: number): Promise<void>;
  /** Open threads whose inactivity ran past their auto-archive duration at `nowMs`. */
  listDueToArchive(nowMs: number, limit: number): Promise<ThreadRecord[]>;
  /** Returns whether the user was not a member before. */
  addMember(member: ThreadMemberRecord): Promise<boolean>;
  /** Returns whether the user was a member. */
  removeMember(threadId: string, userId: string): Promise<boolean>;
  findMember(threadId: string, userId: string): Promise<ThreadMemberRecord | null>;
  listMembers(
    threadId: string,
    query: { after?: string; limit: number },
  ): Promise<ThreadMemberRecord[]>;
  /** The user's memberships among these threads. */
  membershipsOf(userId: string, threadIds: readonly string[]): Promise<ThreadMemberRecord[]>;
  /** Every member of these threads (GUILD_CREATE's private thread visibility). */
  membersOf(threadIds: readonly string[]): Promise<ThreadMemberRecord[]>;
  listTags(channelIds: readonly string[]): Promise<ForumTagRecord[]>;
  /** Replaces a channel's tags, in order. */
  replaceTags(channelId: string, tags: readonly ForumTagRecord[]): Promise<void>;
}

/** A poll's question or answer: the wire's poll media. */
export interface PollMediaRecord {
  text?: string;
  emoji?: { id?: string | null; name?: string | null; animated?: boolean };
}

export interface PollRecord {
  messageId: string;
  channelId: string;
  question: PollMediaRecord;
  answers: { answerId: number; media: PollMediaRecord }[];
  allowMultiselect: boolean;
  layoutType: number;
  expiresAt: number;
  finalized: boolean;
}

export interface PollRepository {
  create(poll: PollRecord): Promise<void>;
  find(messageId: string): Promise<PollRecord | null>;
  findMany(messageIds: readonly string[]): Promise<PollRecord[]>;
  /** Marks it ended at `nowMs` (its expiry moves there when earlier); whether it was open. */
  finalize(messageId: string, nowMs: number): Promise<boolean>;
  /** Polls still open whose expiry is at or before `nowMs`. */
  listExpired(nowMs: number, limit: number): Promise<PollRecord[]>;
  /** Returns whether the vote is new. */
  addVote(vote: { messageId: string; answerId: number; userId: string }): Promise<boolean>;
  removeVote(vote: { messageId: string; answerId: number; userId: string }): Promise<boolean>;
  /** The user's answers to the poll. */
  votesOf(messageId: string, userId: string): Promise<number[]>;
  /** Votes per answer, and the viewer's answers, for these polls. */
  tallies(
    messageIds: readonly string[],
    viewerId: string | null,
  ): Promise<Map<string, { counts: Map<number, number>; mine: Set<number> }>>;
  /** Voters of one answer by user id. */
  voters(
    messageId: string,
    answerId: number,
    query: { after?: string; limit: number },
  ): Promise<string[]>;
}
