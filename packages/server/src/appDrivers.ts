/**
 * @module appDrivers: the drivers the config names (storage, bus, shared state, blobs), opened
 * for the composition root (app.ts). With app.ts, the only module that imports drivers. The
 * drivers a configuration does not name are never loaded: PostgreSQL, NATS, Redis and S3 (and
 * their client libraries) are imported when the config asks for them, so a server on SQLite and
 * memory starts without them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { DiskBlobStore, type BlobStore } from './blobs/index.js';
import type { BusErrorHandler, EventBus } from './bus/index.js';
import { MemoryBus } from './bus/memory/index.js';
import { ConfigError, type Config } from './config.js';
import type { Clock } from './domain/clock.js';
import { ALL_DISPATCHES, ALL_VOICE_CALLS } from './events/dispatcher.js';
import { REVOCATION_SUBJECT } from './events/revocations.js';
import { withFallback, type SharedState } from './sharedState/index.js';
import { createMemorySharedState } from './sharedState/memory/index.js';
import type { Storage } from './storage/index.js';
import { startTracing } from './tracing.js';
import type { AppOverrides } from './appTypes.js';
import { loadTls, type TlsMaterial } from './http/tlsCert.js';
import { createLogger } from './logger.js';
import { rotateSecretKey, type RotationResult } from './secretRotation.js';
import { systemClock } from './domain/clock.js';
import { describePostgresStartError } from './storage/postgres/startErrors.js';
import { createSqliteStorage, migratedSqliteTemplate } from './storage/sqlite/index.js';

/** `guildhall backup` and `restore` (cli/backupCommand.ts) copy and check the SQLite file. */
export { backupSqlite, checkSqliteBackup } from './storage/sqlite/index.js';

/** Opens the storage the config names: PostgreSQL for DATABASE_URL, else SQLite in the data folder. */
export async function openStorage(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  logger: Logger,
): Promise<Storage> {
  const { databaseUrl } = config;
  if (databaseUrl !== null) {
    const { createPostgresStorage } = await import('./storage/postgres/index.js');
    try {
      return await createPostgresStorage({
        connectionString: databaseUrl,
        // An idle connection dropped by the server is replaced on next use; it must not crash us.
        onError: (err) => {
          logger.warn({ err }, 'PostgreSQL connection error');
        },
      });
    } catch (err) {
      const line = describePostgresStartError(err, databaseUrl);
      throw line === null ? err : new ConfigError(line, { cause: err });
    }
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  return createSqliteStorage({ filename: join(config.dataDir, 'guildhall.db') });
}

/**
 * An empty database in memory (SQLite), for a server that keeps nothing (a test's). Opening one
 * from a `template` ({@link memoryStorageTemplate}, made once) skips migrating it.
 */
export function openMemoryStorage(options: { template?: Buffer } = {}): Storage {
  return createSqliteStorage({
    filename: ':memory:',
    ...(options.template === undefined ? {} : { template: options.template }),
  });
}

/** A migrated empty database, serialized: the `template` of {@link openMemoryStorage}. */
export function memoryStorageTemplate(): Buffer {
  return migratedSqliteTemplate();
}

/**
 * Opens the bus the config names: NATS for NATS_URL (keeping the dispatches and revocations for
 * GUILDHALL_NATS_HISTORY_SECONDS in a JetStream stream, so that none is lost while NATS is
 * away: docs/operations.md), else the in-process bus.
 * @throws ConfigError saying what to do when NATS cannot keep the history.
 */
export async function openBus(
  config: Pick<Config, 'natsUrl' | 'natsSubjectPrefix' | 'natsHistorySeconds'>,
  logger: Logger,
): Promise<EventBus> {
  const onError: BusErrorHandler = (err, { subject }) => {
    logger.error({ err, subject }, 'event bus error');
  };
  if (config.natsUrl === null) return new MemoryBus({ onError });
  const history =
    config.natsHistorySeconds === 0
      ? undefined
      : {
          subjects: [ALL_DISPATCHES, ALL_VOICE_CALLS, REVOCATION_SUBJECT],
          keepMs: config.natsHistorySeconds * 1000,
        };
  const { NatsHistoryError, NatsUnavailableError, createNatsBus } =
    await import('./bus/nats/index.js');
  try {
    return await createNatsBus({
      servers: config.natsUrl,
      subjectPrefix: config.natsSubjectPrefix,
      onError,
      ...(history === undefined ? {} : { history }),
    });
  } catch (err) {
    if (err instanceof NatsUnavailableError) {
      throw new ConfigError(
        `${err.message}. Start nats-server there (with -js for JetStream) or correct NATS_URL (--nats-url), or unset it to run as one node; then start again.`,
        { cause: err },
      );
    }
    if (!(err instanceof NatsHistoryError)) throw err;
    throw new ConfigError(
      `${err.message}. Start nats-server with JetStream (-js), or set GUILDHALL_NATS_HISTORY_SECONDS=0 to keep no history (a gateway node that dies then loses its sessions' last dispatches); then start again.`,
    );
  }
}

/** Redis connection errors are logged at most this often (it retries every 2 s while down). */
const REDIS_ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * Opens the shared state the config names: Redis for REDIS_URL, with this process's memory to
 * turn to while Redis fails (limits then hold per node: docs/operations.md, Redis), else this
 * process's memory alone.
 * @throws ConfigError saying what to do when REDIS_URL is set and Redis does not answer.
 */
export async function openSharedState(
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>,
  options: { logger: Logger; clock: Clock },
): Promise<SharedState> {
  const { logger, clock } = options;
  const local = createMemorySharedState();
  if (config.redisUrl === null) return local;
  const { RedisUnavailableError, describeRedisUrl, openRedisSharedState } =
    await import('./sharedState/redis/index.js');
  let lastErrorLogMs = -Infinity;
  let redis: SharedState;
  try {
    redis = await openRedisSharedState({
      url: config.redisUrl,
      keyPrefix: config.redisKeyPrefix,
      onError: (err) => {
        if (clock.now() - lastErrorLogMs < REDIS_ERROR_LOG_INTERVAL_MS) return;
        lastErrorLogMs = clock.now();
        logger.warn({ err }, 'Redis connection error (reconnecting)');
      },
    });
  } catch (err) {
    if (!(err instanceof RedisUnavailableError)) throw err;
    throw new ConfigError(
      `${err.message}. Start Redis there or correct REDIS_URL (--redis-url), or unset it to keep rate limits, identify buckets and presences in this process; then start again.`,
    );
  }
  logger.info(
    { redis: describeRedisUrl(config.redisUrl), prefix: config.redisKeyPrefix },
    'rate limits, identify buckets and presences are shared through Redis',
  );
  return withFallback(redis, local, {
    onDegraded: (err) => {
      logger.warn(
        { err },
        'Redis unavailable: rate limits, identify buckets and presences are kept per node until it answers',
      );
    },
    onRecovered: (servedByFallback) => {
      logger.info({ servedByFallback }, 'Redis answers again: limits are shared again');
    },
  });
}

/**
 * Opens the blob store the config names: an S3-compatible bucket for GUILDHALL_BLOB_URL (the
 * AWS SDK loaded only then), else the folder `<dataDir>/blobs`.
 */
export async function openBlobStore(
  config: Pick<
    Config,
    | 'dataDir'
    | 'blobBucket'
    | 's3Endpoint'
    | 's3Region'
    | 's3AccessKeyId'
    | 's3SecretAccessKey'
    | 's3PathStyle'
  >,
  logger: Logger,
): Promise<BlobStore> {
  if (config.blobBucket === null) return new DiskBlobStore(join(config.dataDir, 'blobs'));
  const { S3BlobStore } = await import('./blobs/s3.js');
  const { s3AccessKeyId: accessKeyId, s3SecretAccessKey: secretAccessKey } = config;
  logger.info(
    {
      bucket: config.blobBucket.bucket,
      prefix: config.blobBucket.prefix,
      endpoint: config.s3Endpoint,
    },
    'uploaded files are kept in an S3-compatible bucket',
  );
  return new S3BlobStore({
    ...config.blobBucket,
    endpoint: config.s3Endpoint,
    region: config.s3Region,
    credentials:
      accessKeyId === null || secretAccessKey === null ? null : { accessKeyId, secretAccessKey },
    pathStyle: config.s3PathStyle,
  });
}

/**
 * The API and gateway listener's certificate: the operator's (`--tls-cert`, `--tls-key`), or a
 * development one in `<dataDir>/tls/` for loopback and the public URL's host (`--tls dev`).
 */
export function loadApiTls(config: Config, nowMs: number): Promise<TlsMaterial> {
  const host =
    config.publicUrl === null
      ? config.host === '0.0.0.0' || config.host === '::'
        ? '127.0.0.1'
        : config.host
      : new URL(config.publicUrl).hostname;
  return loadTls(
    {
      certFlag: '--tls-cert',
      keyFlag: '--tls-key',
      label: 'TLS',
      devDir: 'tls',
      commonName: 'Guildhall (development)',
    },
    { certPath: config.tlsCert, keyPath: config.tlsKey, dataDir: config.dataDir, host, nowMs },
  );
}

export type { RotationResult };

/**
 * `guildhall secrets rotate` against the configured database (secretRotation.ts): no server is
 * started, only the storage opened.
 */
export async function rotateSecrets(
  config: Config,
  options: Pick<Parameters<typeof rotateSecretKey>[0], 'stage' | 'progress'>,
): Promise<RotationResult> {
  const storage = await openStorage(config, createLogger('silent'));
  try {
    return await rotateSecretKey({ config, storage, clock: systemClock, ...options });
  } finally {
    await storage.close();
  }
}

/** Tracing as the config (or a test's exporter) asks, or null: off, nothing loaded. */
export function startConfiguredTracing(config: Config, exporter: AppOverrides['traceExporter']) {
  if (config.otlpEndpoint === null && exporter === undefined) return Promise.resolve(null);
  return startTracing({
    serviceName: 'guildhall',
    ...(config.otlpEndpoint === null ? {} : { endpoint: config.otlpEndpoint }),
    ...(exporter === undefined ? {} : { exporter }),
  });
}
