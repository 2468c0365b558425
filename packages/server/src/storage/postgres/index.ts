/** @module storage/postgres: the driver for deployments that outgrow one machine (pg). */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { MIGRATIONS_TABLE, loadMigrations } from '../migrations.js';
import { createKyselyStorage, type Database } from '../sql/index.js';
import type { Storage } from '../types/storage.js';

export interface PostgresStorageOptions {
  /** A `postgres://` connection string. */
  connectionString: string;
  /** A schema to create and use instead of `public` (tests use one each). */
  schema?: string;
  /** The most connections the pool opens. */
  maxConnections?: number;
  /** Told when an idle pooled connection fails (a server restart, say); without it pg throws. */
  onError?: (err: Error) => void;
}

export const DEFAULT_POSTGRES_STORAGE_OPTIONS = {
  maxConnections: 10,
} as const satisfies Partial<PostgresStorageOptions>;

/** An arbitrary constant: the advisory lock every process takes while migrating. */
const MIGRATION_LOCK_KEY = 7_305_112_009;

async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Two processes starting together: the second waits here, then finds nothing left to apply.
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
    );
    const applied = new Set(
      (await client.query<{ version: number }>(`SELECT version FROM ${MIGRATIONS_TABLE}`)).rows.map(
        (row) => row.version,
      ),
    );
    for (const migration of loadMigrations('postgres')) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query(
        `INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES ($1, $2, $3)`,
        [migration.version, migration.name, Date.now()],
      );
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new TypeError(`invalid schema name: ${name}`);
  return `"${name}"`;
}

/** Connects to PostgreSQL and applies pending migrations. */
export async function createPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  const { maxConnections } = { ...DEFAULT_POSTGRES_STORAGE_OPTIONS, ...options };
  const schema = options.schema;
  if (schema !== undefined) {
    const setup = new pg.Client({ connectionString: options.connectionString });
    await setup.connect();
    try {
      // Under the migration lock: two processes running CREATE SCHEMA IF NOT EXISTS at once can
      // both miss the schema, and the second then fails on pg_namespace's unique index.
      await setup.query('BEGIN');
      await setup.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await setup.query('COMMIT');
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: maxConnections,
    ...(schema === undefined ? {} : { options: `-c search_path=${quoteIdent(schema)}` }),
  });
  pool.on('error', (err) => {
    options.onError?.(err);
  });
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // Kysely ends the pool only if it ran a query; a storage closed before any (a CLI command, a
  // start aborted early) would keep the migration's idle connection and the process alive.
  return createKyselyStorage(db, 'postgres', async () => {
    if (!pool.ended && !pool.ending) await pool.end();
  });
}
