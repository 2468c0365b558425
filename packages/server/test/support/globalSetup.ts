/**
 * Probes PostgreSQL, NATS and Redis once per test run, before any test file, and hands each
 * worker the result (`inject('postgresFailure')`, `inject('natsFailure')`,
 * `inject('redisFailure')`: null when reachable, else why not). Under CI=true an unreachable
 * service fails the run; elsewhere its tests skip, and the reason is printed once. Chromium, for
 * the browser tests of packages/web, is looked for the same way (`inject('chromiumFailure')`).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { access, constants, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { connect } from 'nats';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import {
  PRIVATE_SERVER_BINARIES,
  TEST_CHROMIUM_PATH,
  TEST_DATABASE_URL,
  TEST_NATS_URL,
  TEST_REDIS_URL,
} from './serviceUrls.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresFailure: string | null;
    natsFailure: string | null;
    redisFailure: string | null;
    chromiumFailure: string | null;
    privateServersFailure: string | null;
    /** This run's id: the prefix of its reusable PostgreSQL schemas (postgres.ts). */
    runId: string;
    /** A folder of this run's counters: test servers started, one file per worker (testServer.ts). */
    runStatsDir: string;
  }
}

/** How long a probe waits for a service that does not answer. */
const POSTGRES_PROBE_TIMEOUT_MS = 3000;
const NATS_PROBE_TIMEOUT_MS = 2000;
const REDIS_PROBE_TIMEOUT_MS = 2000;

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

async function probePostgres(): Promise<string | null> {
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: POSTGRES_PROBE_TIMEOUT_MS,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return reason(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function probeNats(): Promise<string | null> {
  try {
    const nc = await connect({
      servers: TEST_NATS_URL,
      timeout: NATS_PROBE_TIMEOUT_MS,
      reconnect: false,
    });
    await nc.close();
    return null;
  } catch (err) {
    return reason(err);
  }
}

async function probeRedis(): Promise<string | null> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: REDIS_PROBE_TIMEOUT_MS,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The connect() rejection only says the connection closed; the 'error' event says why.
  const seen: { failure: string | null } = { failure: null };
  client.on('error', (err: Error) => {
    seen.failure = err.message;
  });
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (err) {
    return seen.failure ?? reason(err);
  } finally {
    client.disconnect();
  }
}

async function probeChromium(): Promise<string | null> {
  try {
    await access(TEST_CHROMIUM_PATH, constants.X_OK);
    return null;
  } catch (err) {
    return reason(err);
  }
}

/** The binaries of the servers tests start for themselves (test/support/privateServers.ts). */
async function probePrivateServers(): Promise<string | null> {
  const { runuser, ...servers } = PRIVATE_SERVER_BINARIES;
  // PostgreSQL refuses to run as root: root runs it as the postgres user through runuser.
  const needed = process.getuid?.() === 0 ? { ...servers, runuser } : servers;
  try {
    await Promise.all(Object.values(needed).map((path) => access(path, constants.X_OK)));
    return null;
  } catch (err) {
    return reason(err);
  }
}

/**
 * The test servers the workers started, by test file: a line naming the file per start, in a file
 * per worker (testServer.ts).
 */
async function countAppStarts(dir: string): Promise<Map<string, number>> {
  const byFile = new Map<string, number>();
  for (const worker of await readdir(dir)) {
    for (const line of (await readFile(join(dir, worker), 'utf8')).split('\n')) {
      if (line !== '') byFile.set(line, (byFile.get(line) ?? 0) + 1);
    }
  }
  return byFile;
}

/** The count, and with GUILDHALL_TEST_SERVERS_BY_FILE=N the N test files that start the most. */
function reportAppStarts(byFile: Map<string, number>): void {
  let started = 0;
  for (const count of byFile.values()) started += count;
  if (started === 0) return;
  process.stdout.write(`Test servers started (createApp calls): ${String(started)}\n`);
  const top = Number(process.env['GUILDHALL_TEST_SERVERS_BY_FILE'] ?? 0);
  const ranked = [...byFile].sort(([, a], [, b]) => b - a).slice(0, top);
  for (const [file, count] of ranked)
    process.stdout.write(`  ${String(count).padStart(5)}  ${file}\n`);
}

/** Drops what is left of the run's reusable schemas (each worker keeps a few to the end). */
async function dropPooledSchemas(runId: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(
      "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pool\\_' || $1 || '\\_%'",
      [runId],
    );
    for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * The `guildhall` executable the child-process tests run (packages/server/bundle, built from
 * dist/ by scripts/bundleCli.js): made again when dist/ changed since, so a `tsc -b` between runs
 * is enough. Without dist/ there is nothing to bundle; those tests then say to build.
 */
function refreshCliBundle(): void {
  const script = new URL('../../scripts/bundleCli.js', import.meta.url);
  if (!existsSync(new URL('../../dist/main.js', import.meta.url))) return;
  execFileSync(process.execPath, [script.pathname], { stdio: 'inherit' });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  refreshCliBundle();
  const [postgresFailure, natsFailure, redisFailure, chromiumFailure, privateServersFailure] =
    await Promise.all([
      probePostgres(),
      probeNats(),
      probeRedis(),
      probeChromium(),
      probePrivateServers(),
    ]);
  const ci = process.env['CI'] === 'true';
  if (ci && postgresFailure !== null) {
    throw new Error(
      `PostgreSQL at ${TEST_DATABASE_URL} is required under CI=true but unreachable: ${postgresFailure}`,
    );
  }
  if (ci && natsFailure !== null) {
    throw new Error(
      `NATS at ${TEST_NATS_URL} is required under CI=true but unreachable: ${natsFailure}`,
    );
  }
  if (ci && redisFailure !== null) {
    throw new Error(
      `Redis at ${TEST_REDIS_URL} is required under CI=true but unreachable: ${redisFailure}`,
    );
  }
  if (ci && chromiumFailure !== null) {
    throw new Error(
      `Chromium at ${TEST_CHROMIUM_PATH} is required under CI=true for the browser tests: ${chromiumFailure}. Install it with apt-get install -y chromium (.ci/run does).`,
    );
  }
  if (ci && privateServersFailure !== null) {
    throw new Error(
      `The outage tests start their own nats-server, redis-server and PostgreSQL 15 (initdb, pg_ctl), required under CI=true: ${privateServersFailure}`,
    );
  }
  if (privateServersFailure !== null) {
    process.stderr.write(
      `Skipping outage tests: ${privateServersFailure}. Install nats-server, redis-server and postgresql-15 to run them.\n`,
    );
  }
  if (chromiumFailure !== null) {
    process.stderr.write(
      `Skipping browser tests: no Chromium at ${TEST_CHROMIUM_PATH} (${chromiumFailure}). Install it (apt-get install -y chromium) or set GUILDHALL_TEST_CHROMIUM to run them.\n`,
    );
  }
  if (postgresFailure !== null) {
    process.stderr.write(
      `Skipping PostgreSQL tests: ${TEST_DATABASE_URL} is unreachable (${postgresFailure}). Set GUILDHALL_TEST_DATABASE_URL or start PostgreSQL to run them.\n`,
    );
  }
  if (natsFailure !== null) {
    process.stderr.write(
      `Skipping NATS tests: ${TEST_NATS_URL} is unreachable (${natsFailure}). Set GUILDHALL_TEST_NATS_URL or start nats-server to run them.\n`,
    );
  }
  if (redisFailure !== null) {
    process.stderr.write(
      `Skipping Redis tests: ${TEST_REDIS_URL} is unreachable (${redisFailure}). Set GUILDHALL_TEST_REDIS_URL or start redis-server to run them.\n`,
    );
  }
  project.provide('postgresFailure', postgresFailure);
  project.provide('redisFailure', redisFailure);
  project.provide('natsFailure', natsFailure);
  project.provide('chromiumFailure', chromiumFailure);
  project.provide('privateServersFailure', privateServersFailure);
  const runId = randomBytes(4).toString('hex');
  const runStatsDir = await mkdtemp(join(tmpdir(), 'guildhall-run-'));
  project.provide('runId', runId);
  project.provide('runStatsDir', runStatsDir);
  return async () => {
    const started = await countAppStarts(runStatsDir);
    await rm(runStatsDir, { recursive: true, force: true });
    reportAppStarts(started);
    if (postgresFailure === null) await dropPooledSchemas(runId);
  };
}
