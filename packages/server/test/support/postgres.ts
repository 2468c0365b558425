import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
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
