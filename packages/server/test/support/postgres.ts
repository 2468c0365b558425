import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { MIGRATIONS_TABLE } from '../../src/storage/migrations.js';
import { TEST_DATABASE_URL } from './serviceUrls.js';

export { TEST_DATABASE_URL } from './serviceUrls.js';

/**
 * Whether the PostgreSQL tests run: the server answered the probe of `globalSetup.ts` (which fails
 * the run under CI=true when it did not).
 */
export const postgresAvailable = inject('postgresFailure') === null;

/** A fresh schema name, so parallel test files never see each other's rows. */
export function uniqueSchema(prefix = 't'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/**
 * The prefix of this run's reusable schemas (see {@link acquireSchema}); globalSetup.ts drops
 * what is left of them at the end of the run.
 */
export const POOLED_SCHEMA_PREFIX = `pool_${inject('runId')}_`;

/** This worker's reusable schemas not in use: migrated, and emptied when given back. */
const idleSchemas: string[] = [];

/**
 * A migrated-or-new schema for a database a test server or a storage test opens and then gives
 * back with {@link releaseSchema}: migrating a schema costs a PostgreSQL start about a second,
 * emptying one a few tens of milliseconds. Each is in use by one database at a time.
 */
export function acquireSchema(): string {
  return idleSchemas.pop() ?? `${POOLED_SCHEMA_PREFIX}${randomBytes(6).toString('hex')}`;
}

/**
 * Empties every table of `schema` but the migrations' in one transaction and, given `from` (a
 * schema of the same migrations), fills each with `from`'s rows. Triggers, foreign keys' included,
 * are off meanwhile (session_replication_role), so the order of the tables does not matter.
 */
async function refillTables(client: pg.Client, schema: string, from?: string): Promise<void> {
  const copy =
    from === undefined
      ? ''
      : `EXECUTE format('INSERT INTO %I.%I SELECT * FROM %I.%I', '${schema}', t, '${from}', t);`;
  await client.query('BEGIN');
  await client.query('SET LOCAL session_replication_role = replica');
  await client.query(
    `DO $$ DECLARE t text; BEGIN
       FOR t IN SELECT tablename FROM pg_tables
                WHERE schemaname = '${schema}' AND tablename <> '${MIGRATIONS_TABLE}' LOOP
         EXECUTE format('DELETE FROM %I.%I', '${schema}', t);
         ${copy}
       END LOOP;
     END $$`,
  );
  await client.query('COMMIT');
}

/**
 * Gives back a schema of {@link acquireSchema} once nothing uses it: its tables emptied (as a
 * fresh migrated schema), or the schema dropped if that fails.
 */
export async function releaseSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await refillTables(client, schema);
    idleSchemas.push(schema);
  } catch {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * Makes schema `to` a copy of `from`'s rows (both migrated, as by {@link acquireSchema}): a test
 * that changes a database a server seeded once changes a copy of its own.
 */
export async function copySchemaRows(from: string, to: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await refillTables(client, to, from);
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

/** Drops a schema made by {@link uniqueSchema}. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
