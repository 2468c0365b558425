import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  TEST_DATABASE_URL,
  dropSchema,
  postgresAvailable,
  uniqueSchema,
} from '../../../test/support/postgres.js';
import type { Storage } from '../types/storage.js';
import { MIGRATION_LOCKS, createPostgresStorage } from './index.js';

/** Long enough for a start that is not waiting on a lock to finish on a busy machine. */
const PENDING_MS = 1500;

describe.skipIf(!postgresAvailable)('PostgreSQL migration locks', () => {
  const schemas: string[] = [];
  const opened: Storage[] = [];
  const holders: pg.Client[] = [];
  afterEach(async () => {
    for (const client of holders.splice(0)) await client.end();
    for (const storage of opened.splice(0)) await storage.close();
    for (const schema of schemas.splice(0)) await dropSchema(schema);
  });

  /** A connection holding an advisory lock in an open transaction until it is ended. */
  const hold = async (sql: string, params: unknown[]) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    holders.push(client);
    await client.query('BEGIN');
    await client.query(sql, params);
    return client;
  };
  const start = (schema: string) => {
    schemas.push(schema);
    return createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema }).then(
      (storage) => {
        opened.push(storage);
        return storage;
      },
    );
  };
  const settledWithin = async (promise: Promise<unknown>, ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => {
        resolve(false);
      }, ms);
    });
    try {
      return await Promise.race([promise.then(() => true), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  it('a schema migrates while another schema or the default schema is being migrated', async () => {
    const busy = uniqueSchema('lockbusy');
    await hold('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCKS.defaultSchema]);
    await hold('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
      MIGRATION_LOCKS.schemaClass,
      busy,
    ]);
    const free = start(uniqueSchema('lockfree'));
    expect(await settledWithin(free, 15_000)).toBe(true);
    await expect((await free).oauth.listSigningKeys()).resolves.toEqual([]);
  });

  it('starts on one schema take turns', async () => {
    const schema = uniqueSchema('lockturn');
    const holder = await hold('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
      MIGRATION_LOCKS.schemaClass,
      schema,
    ]);
    const waiting = start(schema);
    expect(await settledWithin(waiting, PENDING_MS)).toBe(false);
    await holder.query('COMMIT');
    expect(await settledWithin(waiting, 15_000)).toBe(true);
    await expect((await waiting).oauth.listSigningKeys()).resolves.toEqual([]);
  });
});
