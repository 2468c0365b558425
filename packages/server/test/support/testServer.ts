import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect, inject } from 'vitest';
import { createApp, type App, type AppOptions, type AppOverrides } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { generateIdTokenKeyPair, type IdTokenKeyPair } from '../../src/oauth/index.js';
import { keyringOf } from '../../src/domain/keyring.js';
import { createPostgresStorage } from '../../src/storage/postgres/index.js';
import { createSqliteStorage } from '../../src/storage/sqlite/index.js';
import { sqliteTemplate } from './testStorage.js';
import { TEST_DATABASE_URL, acquireSchema, dropSchema, releaseSchema } from './postgres.js';

export interface TestServerOptions {
  /** Which driver backs the server; SQLite in memory by default. */
  storage?: 'sqlite' | 'postgres';
  /** The PostgreSQL server (a private one a test stops and starts); the shared one by default. */
  databaseUrl?: string;
  config?: Partial<Config>;
  clock?: AppOverrides['clock'];
  defaultRouteBucket?: AppOverrides['defaultRouteBucket'];
  invalidRequestLimit?: AppOverrides['invalidRequestLimit'];
  logger?: AppOptions['logger'];
  /** Gateway settings (short heartbeats, wide identify buckets...). */
  gateway?: AppOverrides['gateway'];
  /** Where the gateway's waits come from (a test that holds the identify queue's). */
  gatewayTimers?: AppOverrides['gatewayTimers'];
  /** The voice node's limits and the timers of its periodic pass. */
  voice?: AppOverrides['voice'];
  /** Listen on a loopback port (for real clients); inject-only otherwise. */
  listen?: boolean;
  /** A bus to use instead of the one the config names (a test's spy over NATS, say). */
  bus?: AppOverrides['bus'];
  /** Webhook delivery timers and limits (webhook event tests drive the worker themselves). */
  webhookDelivery?: AppOverrides['webhookDelivery'];
  /**
   * A database that outlives the server, to reopen it: a SQLite file, or a PostgreSQL schema
   * name (see uniqueSchema). Closing the server leaves it; the caller removes it.
   */
  database?: string;
  /**
   * A data folder that outlives the server (its secret.key, blobs), to restart on it; the caller
   * removes it. A fresh temporary folder by default, removed on close.
   */
  dataDir?: string;
  /** The snowflake process id, distinct per node sharing a database. */
  processId?: number;
  /** Interactions' timers (tests fire the 3-second deadlines themselves). */
  interactions?: AppOverrides['interactions'];
  /** The activity proxy host's timers and waits (tests fire its deadlines themselves). */
  activityProxy?: AppOverrides['activityProxy'];
  /** The thread and poll sweep (false: tests run its passes themselves). */
  timedSweep?: AppOverrides['timedSweep'];
  /** Auto-moderation's stopwatch (tests spend its budget at will). */
  autoModeration?: AppOverrides['autoModeration'];
  /** Traces every span to this exporter as it ends (tracing on, whatever the config says). */
  traceExporter?: AppOverrides['traceExporter'];
  /** The operator commands the server runs for the CLI (and writes its run file for). */
  adminCommands?: AppOptions['adminCommands'];
}

export interface TestServer extends AsyncDisposable {
  app: App;
  /** The base URL when listening. */
  baseUrl: string;
  close(): Promise<void>;
}

/** The secret key of test apps that share a database. */
const SHARED_DATABASE_SECRET_KEY = keyringOf(Buffer.alloc(32, 7));

/**
 * PostgreSQL connections a test server's pools may hold (10 as shipped): the workers' servers,
 * in use and kept idle for later files (fileServer.ts), share the database's 100, and a test
 * sends a few requests at a time. Two of them are group commit's.
 */
const TEST_SERVER_CONNECTIONS = 5;

/** IDENTIFYs a test server's buckets admit per 5 s, unless a test sets its own (1 as shipped). */
export const ROOMY_IDENTIFIES_PER_BUCKET = 1000;

/**
 * The ID token signing key test servers store, made once per worker: making an RSA key for each
 * server cost most of its start.
 */
let testIdTokenKey: Promise<IdTokenKeyPair> | undefined;

/**
 * Counts a createApp call of the run: a line naming the test file in this worker's file of the
 * run's counters, which globalSetup.ts adds up and prints at the end of the run.
 */
export function countAppStart(): void {
  const file = relative(process.cwd(), expect.getState().testPath ?? 'unknown');
  appendFileSync(join(inject('runStatsDir'), `worker-${String(process.pid)}`), `${file}\n`);
}

/** A disposable platform on port 0 with its own database and data folder. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'guildhall-test-')));
  const config: Config = {
    ...loadConfig({}, []),
    port: 0,
    // The voice node on a free port too (its default, the API port + 1, was read from 8080).
    voicePort: 0,
    voiceEndpoint: '127.0.0.1:0',
    dataDir,
    logLevel: 'silent',
    demo: false,
    // Tests of other things should not trip over limits; rate-limit tests set their own.
    routeRateLimit: { limit: 10_000, windowMs: 1000 },
    // Tests hash thousands of passwords: a far cheaper scrypt than the default 2^17 (2^14 cost a
    // hash 30-40 ms of CPU, 2^10 about 2 ms). domain/credentials.test.ts proves the real cost, and
    // the session tests set their own to prove rehashing. Below what an operator may configure.
    passwordScryptLog2N: 10,
    globalRateLimitPerSecond: 10_000,
    // Apps opened on one database (a restart, a second node) share the key its signing keys are
    // sealed with, as nodes must (docs/operations.md, Secret key).
    ...(options.database !== undefined ? { secretKey: SHARED_DATABASE_SECRET_KEY } : {}),
    ...options.config,
  };
  let dropPostgres: (() => Promise<void>) | null = null;
  const cleanUp = async () => {
    await dropPostgres?.();
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
  };
  let storage: AppOverrides['storage'];
  if (options.storage === 'postgres') {
    // A private server (a test's own) goes with its files: nothing there is given back or dropped.
    const pooled = options.database === undefined && options.databaseUrl === undefined;
    const schema = options.database ?? (pooled ? acquireSchema() : 'guildhall');
    if (pooled) dropPostgres = () => releaseSchema(schema);
    try {
      storage = await createPostgresStorage({
        connectionString: options.databaseUrl ?? TEST_DATABASE_URL,
        schema,
        maxConnections: TEST_SERVER_CONNECTIONS,
      });
    } catch (err) {
      // Half migrated, maybe: not given back for reuse.
      if (pooled) dropPostgres = () => dropSchema(schema);
      await cleanUp();
      throw err;
    }
  } else {
    storage =
      options.database === undefined
        ? createSqliteStorage({ filename: ':memory:', template: sqliteTemplate() })
        : createSqliteStorage({ filename: options.database });
  }
  let app: App;
  try {
    countAppStart();
    const overrides: AppOverrides = {
      storage,
      idTokenKey: await (testIdTokenKey ??= generateIdTokenKeyPair()),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.defaultRouteBucket ? { defaultRouteBucket: options.defaultRouteBucket } : {}),
      // Tests of other things should not wait out the identify queue (one IDENTIFY per user and
      // bucket per 5 s, as shipped): a bot identifying again after a reset or an INVALID_SESSION
      // would wait up to 5 s, as long as a test waits for its READY. Tests of the queue set it.
      gateway: { identifiesPerBucket: ROOMY_IDENTIFIES_PER_BUCKET, ...options.gateway },
      ...(options.gatewayTimers ? { gatewayTimers: options.gatewayTimers } : {}),
      ...(options.voice ? { voice: options.voice } : {}),
      ...(options.invalidRequestLimit ? { invalidRequestLimit: options.invalidRequestLimit } : {}),
      ...(options.webhookDelivery ? { webhookDelivery: options.webhookDelivery } : {}),
      ...(options.bus ? { bus: options.bus } : {}),
      ...(options.interactions ? { interactions: options.interactions } : {}),
      ...(options.activityProxy ? { activityProxy: options.activityProxy } : {}),
      ...(options.timedSweep === undefined ? {} : { timedSweep: options.timedSweep }),
      ...(options.autoModeration ? { autoModeration: options.autoModeration } : {}),
      ...(options.traceExporter ? { traceExporter: options.traceExporter } : {}),
    };
    app = await createApp(config, {
      overrides,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.processId === undefined ? {} : { processId: options.processId }),
      ...(options.adminCommands ? { adminCommands: options.adminCommands } : {}),
    });
  } catch (err) {
    // createApp closed the storage it was given; what this fixture made goes too.
    await cleanUp();
    throw err;
  }
  const baseUrl = options.listen === true ? await app.listen() : app.baseUrl();
  const close = async () => {
    await app.close();
    await cleanUp();
  };
  return { app, baseUrl, close, [Symbol.asyncDispose]: close };
}

/**
 * A developer with a session token, and an application with its bot (named `appName`,
 * `<name> app` by default).
 */
export async function seedDeveloper(app: App, name = 'dev', appName = `${name} app`) {
  const session = await app.services.auth.register({
    email: `${name}@example.test`,
    username: name,
    password: 'correct horse battery',
  });
  const created = await app.services.applications.create(session.user_id, { name: appName });
  return {
    userId: session.user_id,
    username: name,
    userToken: session.token,
    applicationId: created.application.id,
    botUserId: created.bot.id,
    botToken: created.botToken,
    clientSecret: created.clientSecret,
  };
}
