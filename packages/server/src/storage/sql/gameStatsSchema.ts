import type { ColumnType } from 'kysely';

/* The tables of migration 0022 (game stats, guild tags, primary guilds); conventions as in schema.ts. */
type Id = ColumnType<string | bigint, string, string>;
type Int = ColumnType<number | bigint | string, number, number>;

export interface ApplicationIdentityProfilesTable {
  application_id: Id;
  user_id: Id;
  provider_type: string;
  provider_issued_user_id: string;
  username: string | null;
  metadata: string | null;
  data: string | null;
  created_at: Int;
  updated_at: Int;
}

export interface GuildTagsTable {
  guild_id: Id;
  tag: string;
  badge: string | null;
  updated_at: Int;
}

export interface UserPrimaryGuildsTable {
  user_id: Id;
  guild_id: Id;
  enabled: Int;
  updated_at: Int;
}

/** Migration 0028: an application's game-stats widget layout, JSON text. */
export interface ApplicationGameStatsLayoutsTable {
  application_id: Id;
  layout: string;
  updated_at: Int;
}
