import type { ColumnType } from 'kysely';

/* The tables of migration 0030 (activities); conventions as in schema.ts. */
type Id = ColumnType<string | bigint, string, string>;
type NullableId = ColumnType<string | bigint | null, string | null, string | null>;
type Int = ColumnType<number | bigint | string, number, number>;
type NullableInt = ColumnType<number | bigint | string | null, number | null, number | null>;

export interface ApplicationActivityConfigsTable {
  application_id: Id;
  /** JSON array of {prefix, target}. */
  url_mappings: string;
  /** JSON array of platform names. */
  supported_platforms: string;
  default_orientation_lock_state: NullableInt;
  tablet_default_orientation_lock_state: NullableInt;
  requires_age_gate: Int;
  updated_at: Int;
}

export interface ActivityInstancesTable {
  id: string;
  application_id: Id;
  launch_id: Id;
  location_kind: string;
  channel_id: Id;
  guild_id: NullableId;
  launched_by: Id;
  created_at: Int;
  ended_at: NullableInt;
}

export interface ActivityParticipantsTable {
  instance_id: string;
  user_id: Id;
  joined_at: Int;
}
