import type { ColumnType } from 'kysely';

/* The tables of migration 0032 (threads, forum tags, polls); conventions as in schema.ts. */
type Id = ColumnType<string | bigint, string, string>;
type NullableId = ColumnType<string | bigint | null, string | null, string | null>;
type Int = ColumnType<number | bigint | string, number, number>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface ThreadMetadataTable {
  channel_id: Id;
  guild_id: Id;
  parent_id: Id;
  archived: Int;
  auto_archive_duration: Int;
  archive_timestamp: Int;
  locked: Int;
  invitable: Int;
  total_message_sent: Defaulted<number | bigint | string>;
  applied_tags: string;
  last_activity_at: Int;
}

export interface ThreadMembersTable {
  thread_id: Id;
  user_id: Id;
  join_timestamp: Int;
  flags: Int;
}

export interface ForumTagsTable {
  id: Id;
  channel_id: Id;
  position: Int;
  name: string;
  moderated: Int;
  emoji_id: NullableId;
  emoji_name: string | null;
}

export interface PollsTable {
  message_id: Id;
  channel_id: Id;
  question: string;
  answers: string;
  allow_multiselect: Int;
  layout_type: Int;
  expires_at: Int;
  finalized: Int;
}

export interface PollVotesTable {
  message_id: Id;
  answer_id: Int;
  user_id: Id;
}

export interface ThreadTables {
  thread_metadata: ThreadMetadataTable;
  thread_members: ThreadMembersTable;
  forum_tags: ForumTagsTable;
  polls: PollsTable;
  poll_votes: PollVotesTable;
}
