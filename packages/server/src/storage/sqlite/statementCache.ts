import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many prepared statements are kept: every query shape the app runs, with room to spare. */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * The database as Kysely's SQLite dialect sees it (`prepare` and `close`), with prepared
 * statements kept by SQL text, least recently used dropped first. Kysely prepares every query it
 * runs; preparing is most of what a short query costs, and an app runs the same few hundred SQL
 * texts over and over. A statement still being iterated (a streamed query) is never handed out
 * twice: a fresh one is prepared instead.
 */
export function withStatementCache(
  first: BetterSqlite3.Database,
  size = STATEMENT_CACHE_SIZE,
): SqliteDatabase & {
  /** Puts `next` in the place of the database (its statements forgotten); returns the old one. */
  swap(next: BetterSqlite3.Database): BetterSqlite3.Database;
} {
  const statements = new Map<string, BetterSqlite3.Statement>();
  let db = first;
  return {
    swap(next) {
      const old = db;
      statements.clear();
      db = next;
      return old;
    },
    prepare(sql: string) {
      const cached = statements.get(sql);
      if (cached !== undefined && !cached.busy) {
        // Re-inserted so the map's order stays least recently used first.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = db.prepare(sql);
      if (cached === undefined) {
        statements.set(sql, statement);
        if (statements.size > size) {
          const oldest = statements.keys().next();
          if (oldest.done !== true) statements.delete(oldest.value);
        }
      }
      return statement;
    },
    close() {
      statements.clear();
      db.close();
    },
  };
}
