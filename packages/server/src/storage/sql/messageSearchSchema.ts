import type { ColumnType } from 'kysely';

/*
 * The table of migration 0011 (message search) that both dialects share; conventions as in
 * schema.ts. The index itself, message_search, is not declared: it is an FTS5 virtual table on
 * SQLite and a tsvector table on PostgreSQL, so messageSearch.ts reaches it in each dialect's SQL.
 */
type Id = ColumnType<string | bigint, string, string>;
type Int = ColumnType<number | bigint | string, number, number>;
type NullableInt = ColumnType<number | bigint | string | null, number | null, number | null>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

/** A guild whose older messages the background job is still indexing. */
export interface GuildSearchIndexTable {
  guild_id: Id;
  /** Messages with backfill_after < id <= backfill_through are not indexed yet. */
  backfill_after: Defaulted<number | bigint | string>;
  backfill_through: Int;
  documents_indexed: Defaulted<number | bigint | string>;
  started_at: Int;
  completed_at: NullableInt;
}

export interface MessageSearchTables {
  guild_search_index: GuildSearchIndexTable;
}
