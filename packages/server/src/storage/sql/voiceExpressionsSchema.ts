import type { ColumnType } from 'kysely';

/* The tables of migration 0034 (issue 18, "guild2"); conventions as in schema.ts. */
type Id = ColumnType<string | bigint, string, string>;
type NullableId = ColumnType<string | bigint | null, string | null, string | null>;
type Int = ColumnType<number | bigint | string, number, number>;
type NullableInt = ColumnType<number | bigint | string | null, number | null, number | null>;
type Real = ColumnType<number | string, number, number>;

export interface SoundboardSoundsTable {
  id: Id;
  guild_id: Id;
  name: string;
  volume: Real;
  emoji_id: NullableId;
  emoji_name: string | null;
  creator_id: NullableId;
  content_type: string;
  available: Int;
  created_at: Int;
}

export interface StageInstancesTable {
  id: Id;
  guild_id: Id;
  channel_id: Id;
  topic: string;
  privacy_level: Int;
  scheduled_event_id: NullableId;
  created_at: Int;
}

export interface ScheduledEventExceptionsTable {
  id: Id;
  event_id: Id;
  original_start_time: Int;
  scheduled_start_time: NullableInt;
  scheduled_end_time: NullableInt;
  is_canceled: Int;
}

export interface ScheduledEventUsersTable {
  event_id: Id;
  exception_id: Id;
  user_id: Id;
  response: Int;
  created_at: Int;
}

export interface ApplicationEmojisTable {
  id: Id;
  application_id: Id;
  name: string;
  animated: Int;
  creator_id: NullableId;
  created_at: Int;
}

export interface ApplicationRoleConnectionMetadataTable {
  application_id: Id;
  records: string;
  updated_at: Int;
}

export interface UserRoleConnectionsTable {
  user_id: Id;
  application_id: Id;
  platform_name: string | null;
  platform_username: string | null;
  metadata: string;
  updated_at: Int;
}

export interface ApplicationAttachmentsTable {
  id: Id;
  application_id: Id;
  filename: string;
  content_type: string | null;
  size: Int;
  width: NullableInt;
  height: NullableInt;
  created_at: Int;
}
