/** @module storage/postgres: the driver for deployments that outgrow one machine (pg). */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { MIGRATIONS_TABLE, loadMigrations } from '../migrations.js';
import {
  createKyselyStorage,
  type Database,
  type GroupCommitOptions,
  type OpenBatchConnection,
} from '../sql/index.js';
import type { Storage } from '../types/storage.js';

export { describePostgresStartError, describePostgresUrl } from './startErrors.js';

export interface PostgresStorageOptions {
  /** A `postgres://` connection string. */
  connectionString: string;
  /** A schema to create and use instead of `public` (tests use one each). */
  schema?: string;
  /** The most connections the storage opens, group commit's included. */
  maxConnections?: number;
  /** Told when an idle pooled connection fails (a server restart, say); without it pg throws. */
  onError?: (err: Error) => void;
  /** Group commit's limits (tests shorten the member time limit). */
  groupCommit?: Partial<GroupCommitOptions>;
  /**
   * How long opening a connection may take before the statement waiting for it fails, ms: a
   * server that does not answer (a host gone, a dropped route) fails requests with 503 instead
   * of holding them for the operating system's TCP timeout.
   */
  connectTimeoutMs?: number;
}

export const DEFAULT_POSTGRES_STORAGE_OPTIONS = {
  maxConnections: 10,
  connectTimeoutMs: 5000,
} as const satisfies Partial<PostgresStorageOptions>;

/**
 * Connections kept for group commit batches, out of `maxConnections` (the rest serve everything
 * else). A batch takes a few round trips whatever its size (its members' statements are
 * pipelined), so two are enough for one to fill while the other waits for its WAL flush.
 */
export const GROUP_COMMIT_CONNECTIONS = 2;

/**
 * The advisory locks a process holds while migrating. The database's default schema: one
 * arbitrary constant key. A named schema: the two-key lock (`schemaClass`, hashtext(schema)), so
 * processes migrating different schemas (test servers, one schema each) do not wait for one
 * another while those on one schema still take turns; a hash collision only makes two take turns.
 */
export const MIGRATION_LOCKS = { defaultSchema: 7_305_112_009, schemaClass: 730_511 } as const;

/** Takes the migration lock of `schema` (the database's default: the constant key) until COMMIT. */
async function lockMigrations(client: pg.ClientBase, schema: string | undefined): Promise<void> {
  if (schema === undefined || schema === 'public') {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCKS.defaultSchema]);
  } else {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
      MIGRATION_LOCKS.schemaClass,
      schema,
    ]);
  }
}

async function migrate(pool: pg.Pool, schema: string | undefined): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Two processes starting together: the second waits here, then finds nothing left to apply.
    await lockMigrations(client, schema);
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

/**
 * Group commit's connections: a pool of pipelined clients (pg sends a query without waiting for
 * the answer to the one before, so the statements of a batch's members leave together). Each
 * client is seen by Kysely as a pool of its own that always lends that client, so its queries
 * are not made to wait for one another.
 */
function pipelinedBatches(pool: pg.Pool): OpenBatchConnection {
  const handles = new WeakMap<pg.PoolClient, Kysely<Database>>();
  const handleOf = (client: pg.PoolClient) => {
    let db = handles.get(client);
    if (db === undefined) {
      const lent = { query: client.query.bind(client), release: () => undefined };
      db = new Kysely<Database>({
        dialect: new PostgresDialect({
          pool: { connect: () => Promise.resolve(lent), end: () => Promise.resolve() },
        }),
      });
      handles.set(client, db);
    }
    return db;
  };
  return async (use) => {
    const client = await pool.connect();
    try {
      const result = await use({
        db: handleOf(client),
        concurrentMembers: true,
        failed: () => client.getTransactionStatus() === 'E',
      });
      client.release();
      return result;
    } catch (err) {
      // A failed batch was rolled back; a connection left in any other state (the rollback
      // itself failed, say) is closed instead of lent again.
      const clean = client.getTransactionStatus() === 'I';
      client.release(clean ? undefined : err instanceof Error ? err : true);
      throw err;
    }
  };
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new TypeError(`invalid schema name: ${name}`);
  return `"${name}"`;
}

/** Connects to PostgreSQL and applies pending migrations. */
export async function createPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  const { maxConnections, connectTimeoutMs } = {
    ...DEFAULT_POSTGRES_STORAGE_OPTIONS,
    ...options,
  };
  const schema = options.schema;
  if (schema !== undefined) {
    const setup = new pg.Client({ connectionString: options.connectionString });
    await setup.connect();
    try {
      // Under the migration lock: two processes running CREATE SCHEMA IF NOT EXISTS at once can
      // both miss the schema, and the second then fails on pg_namespace's unique index.
      await setup.query('BEGIN');
      await lockMigrations(setup, schema);
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await setup.query('COMMIT');
    } finally {
      await setup.end();
    }
  }
  const batchConnections = Math.max(1, Math.min(GROUP_COMMIT_CONNECTIONS, maxConnections - 1));
  const connection = {
    connectionString: options.connectionString,
    connectionTimeoutMillis: connectTimeoutMs,
    // A peer that vanished without a word (a host gone) is noticed by TCP keepalive.
    keepAlive: true,
    ...(schema === undefined ? {} : { options: `-c search_path=${quoteIdent(schema)}` }),
  };
  const pool = new pg.Pool({ ...connection, max: Math.max(1, maxConnections - batchConnections) });
  const batchPool = new pg.Pool({ ...connection, max: batchConnections, pipeline: true });
  for (const each of [pool, batchPool]) {
    each.on('error', (err) => {
      options.onError?.(err);
    });
    // A lent connection that drops (the server went away mid-transaction) reports it on the
    // client, where no one listens: unheard, it would end the process. Its statement fails
    // (503 to the request) and the pool discards it when it comes back.
    each.on('connect', (client) => {
      client.on('error', () => undefined);
    });
  }
  try {
    await migrate(pool, schema);
  } catch (err) {
    await Promise.all([pool.end(), batchPool.end()]);
    throw err;
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // Kysely ends the pool only if it ran a query; a storage closed before any (a CLI command, a
  // start aborted early) would keep the migration's idle connection and the process alive.
  return createKyselyStorage(db, 'postgres', {
    async release() {
      if (!pool.ended && !pool.ending) await pool.end();
      await batchPool.end();
    },
    groupCommit: { maxConcurrentBatches: batchConnections, ...options.groupCommit },
    openBatchConnection: pipelinedBatches(batchPool),
  });
}
