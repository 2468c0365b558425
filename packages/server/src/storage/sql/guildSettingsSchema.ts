import type { ColumnType } from 'kysely';

/* The tables of migration 0033 (auto-moderation, templates, settings, vanity, join requests). */
type Id = ColumnType<string | bigint, string, string>;
type NullableId = ColumnType<string | bigint | null, string | null, string | null>;
type Int = ColumnType<number | bigint | string, number, number>;
type NullableInt = ColumnType<number | bigint | string | null, number | null, number | null>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface AutomodRulesTable {
  id: Id;
  guild_id: Id;
  creator_id: Id;
  name: string;
  event_type: Int;
  trigger_type: Int;
  trigger_metadata: string;
  actions: string;
  enabled: Int;
  exempt_roles: string;
  exempt_channels: string;
  created_at: Int;
}

export interface GuildTemplatesTable {
  code: string;
  guild_id: Id;
  name: string;
  description: string | null;
  usage_count: Defaulted<number | bigint | string>;
  creator_id: Id;
  source: string;
  created_at: Int;
  updated_at: Int;
}

export interface GuildSettingsTable {
  guild_id: Id;
  name: string;
  value: string;
  updated_at: Int;
}

export interface GuildVanityUrlsTable {
  guild_id: Id;
  code: string;
  uses: Defaulted<number | bigint | string>;
}

export interface GuildJoinRequestsTable {
  id: Id;
  guild_id: Id;
  user_id: Id;
  status: string;
  form_responses: string;
  rejection_reason: string | null;
  actioned_by_user_id: NullableId;
  actioned_at: NullableInt;
  created_at: Int;
}
