import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL server the tests use. Under CI=true it is mandatory: an unreachable server fails
 * the run. Elsewhere the PostgreSQL tests skip, saying why.
 */
export const TEST_DATABASE_URL =
  process.env['GUILDHALL_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

async function probe(): Promise<string | null> {
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const failure = await probe();
if (failure !== null && process.env['CI'] === 'true') {
  throw new Error(
    `PostgreSQL at ${TEST_DATABASE_URL} is required under CI=true but unreachable: ${failure}`,
  );
}
if (failure !== null) {
  process.stderr.write(
    `Skipping PostgreSQL tests: ${TEST_DATABASE_URL} is unreachable (${failure}). Set GUILDHALL_TEST_DATABASE_URL or start PostgreSQL to run them.\n`,
  );
}

/** Whether the PostgreSQL tests run in this process. */
export const postgresAvailable = failure === null;

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
