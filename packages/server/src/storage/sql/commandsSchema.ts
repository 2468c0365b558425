import type { ColumnType } from 'kysely';

/* The tables of migration 0024 (application commands); conventions as in schema.ts. */
type Id = ColumnType<string | bigint, string, string>;
type NullableId = ColumnType<string | bigint | null, string | null, string | null>;
type Int = ColumnType<number | bigint | string, number, number>;
type NullableInt = ColumnType<number | bigint | string | null, number | null, number | null>;

export interface ApplicationCommandsTable {
  id: Id;
  application_id: Id;
  guild_id: NullableId;
  type: Int;
  name: string;
  name_localizations: string | null;
  description: string;
  description_localizations: string | null;
  options: string;
  default_member_permissions: string | null;
  dm_permission: Int;
  contexts: string | null;
  integration_types: string;
  nsfw: Int;
  handler: NullableInt;
  version: Id;
  created_at: Int;
}

export interface ApplicationCommandPermissionsTable {
  application_id: Id;
  guild_id: Id;
  command_id: Id;
  permissions: string;
}
