import type { ColumnType } from 'kysely';

/* The tables of migrations 0039 and 0040 (issue 33, DM calls); conventions as in schema.ts. */
type Id = ColumnType<string | bigint, string, string>;
type Int = ColumnType<number | bigint | string, number, number>;

export interface DmCallsTable {
  channel_id: Id;
  message_id: Id;
  region: string;
  /** JSON array of user ids. */
  ringing: string;
  /** JSON array of user ids. */
  participants: string;
  started_at: Int;
  /** When ringing last started (the call's start, or a ring request). */
  rang_at: Int;
}

export interface DmVoiceStatesTable {
  user_id: Id;
  channel_id: Id;
  session_id: string;
  self_mute: Int;
  self_deaf: Int;
  self_video: Int;
  joined_at: Int;
}

export interface CallTables {
  dm_calls: DmCallsTable;
  dm_voice_states: DmVoiceStatesTable;
}
