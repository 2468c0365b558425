/**
 * @module storage/sqlite/backup: a consistent copy of a SQLite database file while a server
 * writes to it, with SQLite's online backup API (through better-sqlite3), and the check a copy
 * gets before it is restored.
 */
import SqliteDatabase from 'better-sqlite3';
import { MIGRATIONS_TABLE } from '../migrations.js';

/** How long the copying connection waits for a writer's lock, as the server's own do. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Copies the database at `source` to `destination` (a new file) as it is at one moment. A step
 * copies every page under one read transaction, so it is one snapshot, and in WAL mode readers
 * never block the server's writers. SQLite restarts a copy when another connection writes
 * between two steps: the first step is SQLite's 100 pages, every later one the whole rest.
 * @returns the pages copied.
 */
export async function backupSqlite(source: string, destination: string): Promise<number> {
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${String(BUSY_TIMEOUT_MS)}`);
    const { totalPages } = await db.backup(destination, {
      progress: ({ totalPages: pages }) => pages,
    });
    return totalPages;
  } finally {
    db.close();
  }
}

/**
 * Checks that `path` is a sound Guildhall database: SQLite's quick_check passes and it has the
 * migrations table. Returns why not, or null.
 */
export function checkSqliteBackup(path: string): string | null {
  let db: SqliteDatabase.Database | null = null;
  try {
    db = new SqliteDatabase(path, { fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') return `the database fails SQLite's check (${String(check)})`;
    const table = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(MIGRATIONS_TABLE);
    return table === undefined ? 'the database is not a Guildhall database' : null;
  } catch (err) {
    return `the database does not open (${(err as Error).message})`;
  } finally {
    db?.close();
  }
}
