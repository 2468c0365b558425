import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Clock } from '../../src/domain/clock.js';
import type { BucketLimit } from '../../src/http/rateLimit/index.js';
import { createPostgresStorage } from '../../src/storage/postgres/index.js';
import { createSqliteStorage } from '../../src/storage/sqlite/index.js';
import { TEST_DATABASE_URL, dropSchema, uniqueSchema } from './postgres.js';

export interface TestServerOptions {
  /** Which driver backs the server; SQLite in memory by default. */
  storage?: 'sqlite' | 'postgres';
  /** The PostgreSQL server (a private one a test stops and starts); the shared one by default. */
  databaseUrl?: string;
  config?: Partial<Config>;
  clock?: Clock;
  defaultRouteBucket?: BucketLimit;
  invalidRequestLimit?: BucketLimit;
  logger?: AppOptions['logger'];
  /** Gateway settings (short heartbeats, wide identify buckets...). */
  gateway?: AppOptions['gateway'];
  /** Where the gateway's waits come from (a test that holds the identify queue's). */
  gatewayTimers?: AppOptions['gatewayTimers'];
  /** Listen on a loopback port (for real clients); inject-only otherwise. */
  listen?: boolean;
  /** A bus to use instead of the one the config names (a test's spy over NATS, say). */
  bus?: AppOptions['bus'];
  /** Webhook delivery timers and limits (webhook event tests drive the worker themselves). */
  webhookDelivery?: AppOptions['webhookDelivery'];
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
  interactions?: AppOptions['interactions'];
  /** The activity proxy host's timers and waits (tests fire its deadlines themselves). */
  activityProxy?: AppOptions['activityProxy'];
  /** The thread and poll sweep (false: tests run its passes themselves). */
  timedSweep?: AppOptions['timedSweep'];
}

export interface TestServer extends AsyncDisposable {
  app: App;
  /** The base URL when listening. */
  baseUrl: string;
  close(): Promise<void>;
}

/** The secret key of test apps that share a database. */
const SHARED_DATABASE_SECRET_KEY = Buffer.alloc(32, 7);

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
    // Tests hash many passwords: a cheaper scrypt than the default 2^17, which
    // domain/credentials.test.ts proves.
    passwordScryptLog2N: 14,
    globalRateLimitPerSecond: 10_000,
    // Apps opened on one database (a restart, a second node) share the key its signing keys are
    // sealed with, as nodes must (docs/operations.md, Secret key).
    ...(options.database !== undefined ? { secretKey: SHARED_DATABASE_SECRET_KEY } : {}),
    ...options.config,
  };
  let dropPostgres: (() => Promise<void>) | null = null;
  let storage: AppOptions['storage'];
  if (options.storage === 'postgres') {
    const schema = options.database ?? uniqueSchema('http');
    storage = await createPostgresStorage({
      connectionString: options.databaseUrl ?? TEST_DATABASE_URL,
      schema,
    });
    // A private server goes with its files; the shared one keeps no test's schema.
    if (options.database === undefined && options.databaseUrl === undefined) {
      dropPostgres = () => dropSchema(schema);
    }
  } else {
    storage = createSqliteStorage({ filename: options.database ?? ':memory:' });
  }
  const cleanUp = async () => {
    await dropPostgres?.();
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
  };
  let app: App;
  try {
    app = await createApp({
      config,
      storage,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.defaultRouteBucket ? { defaultRouteBucket: options.defaultRouteBucket } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.gateway ? { gateway: options.gateway } : {}),
      ...(options.gatewayTimers ? { gatewayTimers: options.gatewayTimers } : {}),
      ...(options.invalidRequestLimit ? { invalidRequestLimit: options.invalidRequestLimit } : {}),
      ...(options.webhookDelivery ? { webhookDelivery: options.webhookDelivery } : {}),
      ...(options.bus ? { bus: options.bus } : {}),
      ...(options.processId === undefined ? {} : { processId: options.processId }),
      ...(options.interactions ? { interactions: options.interactions } : {}),
      ...(options.activityProxy ? { activityProxy: options.activityProxy } : {}),
      ...(options.timedSweep === undefined ? {} : { timedSweep: options.timedSweep }),
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

/** A developer with a session token, and an application with its bot. */
export async function seedDeveloper(app: App, name = 'dev') {
  const session = await app.services.auth.register({
    email: `${name}@example.test`,
    username: name,
    password: 'correct horse battery',
  });
  const created = await app.services.applications.create(session.user_id, { name: `${name} app` });
  return {
    userId: session.user_id,
    userToken: session.token,
    applicationId: created.application.id,
    botUserId: created.bot.id,
    botToken: created.botToken,
    clientSecret: created.clientSecret,
  };
}
