import type { ColumnType } from 'kysely';

/* The tables of migration 0031 (SKUs, subscriptions, entitlements); conventions as in schema.ts. */
type Id = ColumnType<string | bigint, string, string>;
type IdOrNull = ColumnType<string | bigint | null, string | null, string | null>;
type Int = ColumnType<number | bigint | string, number, number>;
type IntOrNull = ColumnType<number | bigint | string | null, number | null, number | null>;

export interface SkusTable {
  id: Id;
  application_id: Id;
  type: Int;
  name: string;
  slug: string;
  flags: Int;
  created_at: Int;
}

export interface SubscriptionsTable {
  id: Id;
  application_id: Id;
  sku_id: Id;
  user_id: Id;
  guild_id: IdOrNull;
  renewal_sku_ids: string | null;
  current_period_start: Int;
  current_period_end: Int;
  status: Int;
  canceled_at: IntOrNull;
  country: string | null;
  created_at: Int;
  updated_at: Int;
}

export interface EntitlementsTable {
  id: Id;
  application_id: Id;
  sku_id: Id;
  user_id: Id;
  guild_id: IdOrNull;
  type: Int;
  starts_at: IntOrNull;
  ends_at: IntOrNull;
  consumed: Int;
  deleted: Int;
  subscription_id: IdOrNull;
  created_at: Int;
  updated_at: Int;
}
