/** @module storage/sqlite: the embedded default driver (better-sqlite3, WAL). */
import { rmSync, writeFileSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { MIGRATIONS_TABLE, loadMigrations } from '../migrations.js';
import {
  createKyselyStorage,
  type Database,
  type GroupCommitOptions,
  type OpenBatchConnection,
} from '../sql/index.js';
import type { Storage } from '../types/storage.js';
import { withStatementCache } from './statementCache.js';

export interface SqliteStorageOptions {
  /** A file path, or `:memory:`. */
  filename: string;
  /**
   * With `:memory:`, the database starts as a copy of this one (what {@link
   * migratedSqliteTemplate} returns) instead of empty: tests open many databases and migrate once.
   */
  template?: Buffer;
  /** How long a writer waits for another process's lock. */
  busyTimeoutMs?: number;
  /** Group commit's limits (tests shorten the member time limit). */
  groupCommit?: Partial<GroupCommitOptions>;
}

export const DEFAULT_SQLITE_STORAGE_OPTIONS = {
  busyTimeoutMs: 5000,
} as const satisfies Partial<SqliteStorageOptions>;

function migrate(db: SqliteDatabase.Database): void {
  // BEGIN IMMEDIATE takes the write lock first, so a second process waits, then finds the work done.
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
    );
    const applied = new Set(
      db
        .prepare(`SELECT version FROM ${MIGRATIONS_TABLE}`)
        .all()
        .map((row) => Number((row as { version: bigint }).version)),
    );
    const record = db.prepare(
      `INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, ?, ?)`,
    );
    for (const migration of loadMigrations('sqlite')) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    }
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}

/**
 * Group commit batches on SQLite's one connection: a batch holds `db`'s connection (so nothing
 * else runs in between) and runs its statements through `batchDb`, a second Kysely handle over
 * the same database that only batches use. It lives as long as the storage, so the repositories
 * built over it (and the statements they compiled once) serve every batch.
 */
function heldConnectionBatches(
  db: Kysely<Database>,
  batchDb: Kysely<Database>,
): OpenBatchConnection {
  return (use) =>
    db
      .connection()
      .execute(() => use({ db: batchDb, concurrentMembers: false, failed: () => false }));
}

/** How long to wait between tries to switch a new database to WAL while another process does. */
const WAL_RETRY_MS = 10;

/**
 * Switches the database to WAL. Two processes opening a new file together both try; SQLite
 * answers SQLITE_BUSY at once to the one that loses (the busy handler does not cover the journal
 * mode change), so it is tried again, as a busy handler would, until `busyTimeoutMs` has passed.
 */
function enableWal(db: SqliteDatabase.Database, busyTimeoutMs: number): void {
  const giveUpAt = Date.now() + busyTimeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      const busy = (err as { code?: unknown }).code === 'SQLITE_BUSY';
      if (!busy || Date.now() >= giveUpAt) throw err;
      // Start-up only: nothing else runs on this thread yet, so a blocking pause costs nothing.
      Atomics.wait(pause, 0, 0, WAL_RETRY_MS);
    }
  }
}

/**
 * An in-memory database with every migration applied, serialized: the `template` a database in
 * memory can start from.
 */
export function migratedSqliteTemplate(): Buffer {
  const raw = new SqliteDatabase(':memory:');
  try {
    migrate(raw);
    return raw.serialize();
  } finally {
    raw.close();
  }
}

/** Opens a connection with the driver's settings (a file, `:memory:`, or a serialized image). */
function openConnection(
  source: string | Buffer,
  options: { busyTimeoutMs: number; file: boolean },
): SqliteDatabase.Database {
  const raw = new SqliteDatabase(source);
  raw.defaultSafeIntegers(true);
  raw.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
  if (options.file) enableWal(raw, options.busyTimeoutMs);
  // FULL: a commit is on disk before it is acknowledged, so neither a crash nor a power cut loses it.
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  return raw;
}

/** Runs `work` holding the storage's one connection: no transaction or batch runs meanwhile. */
function exclusive<T>(db: Kysely<Database>, work: () => T): Promise<T> {
  return db.connection().execute(() => Promise.resolve(work()));
}

/** Opens (creating if needed) a SQLite database and applies pending migrations. */
export function createSqliteStorage(options: SqliteStorageOptions): Storage {
  const { busyTimeoutMs } = { ...DEFAULT_SQLITE_STORAGE_OPTIONS, ...options };
  if (options.template !== undefined && options.filename !== ':memory:') {
    throw new TypeError('a SQLite template is only for a database in memory');
  }
  const file = options.filename !== ':memory:';
  let raw = openConnection(options.template ?? options.filename, { busyTimeoutMs, file });
  migrate(raw);

  const database = withStatementCache(raw);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  const batchDb = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  /** Puts a database with `image`'s contents in the place of the current one. */
  const restore = (image: Buffer) => {
    if (!file) {
      const next = openConnection(image, { busyTimeoutMs, file });
      database.swap(next).close();
      raw = next;
      return;
    }
    // A file: closed (its WAL checkpointed), rewritten whole, and opened again.
    raw.close();
    for (const suffix of ['-wal', '-shm']) rmSync(`${options.filename}${suffix}`, { force: true });
    writeFileSync(options.filename, image);
    raw = openConnection(options.filename, { busyTimeoutMs, file });
    database.swap(raw);
  };
  // Kysely closes the database only if it ran a query; close it here when it never did.
  const storage = createKyselyStorage(db, 'sqlite', {
    release: () => {
      if (raw.open) raw.close();
    },
    ...(options.groupCommit === undefined ? {} : { groupCommit: options.groupCommit }),
    openBatchConnection: heldConnectionBatches(db, batchDb),
  });
  return {
    ...storage,
    snapshot: () =>
      exclusive(db, () => {
        const image = raw.serialize();
        return {
          bytes: image.length,
          restore: () =>
            exclusive(db, () => {
              restore(image);
            }),
        };
      }),
  };
}
export { backupSqlite, checkSqliteBackup } from './backup.js';
