import type { ColumnType } from 'kysely';

/* Column types as both drivers return them (see schema.ts). */
type Id = ColumnType<string | bigint, string, string>;
type Int = ColumnType<number | bigint | string, number, number>;

/** migrations 0020: one side of a relationship; application_id 0 is the platform-wide scope. */
export interface RelationshipsTable {
  user_id: Id;
  target_id: Id;
  application_id: Id;
  type: Int;
  nickname: string | null;
  is_spam_request: Int;
  since: Int;
}

/** migrations 0020: a user's "who can message me" setting of connected games. */
export interface UserMessagePrivacyTable {
  user_id: Id;
  setting: string;
}
