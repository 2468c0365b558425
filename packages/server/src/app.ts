import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import {
  createActivityProxy,
  hostSplitServerFactory,
  type ActivityProxyOptions,
} from './activities/proxyServer.js';
import { DiskBlobStore, type BlobStore } from './blobs/index.js';
import {
  DEFAULT_BLOB_GRACE_MS,
  DEFAULT_BLOB_SWEEP_INTERVAL_MS,
  startBlobSweeper,
} from './blobs/lifecycle.js';
import { openBus, openSharedState, openStorage } from './appDrivers.js';
import { registerAppRoutes } from './appRoutes.js';
import { createServices, type Services } from './appServices.js';
import { activityOrigin } from './activities/proxyHost.js';
import { publicBaseUrl, roleServes, type Config } from './config.js';
import { createWebhookEventsService } from './delivery/service.js';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from './delivery/worker.js';
import { realTimers, systemClock, type Clock, type Timers } from './domain/clock.js';
import { DEFAULT_SCRYPT_COST } from './domain/credentials.js';
import { dispatchingStorage } from './events/afterCommit.js';
import { createBusDispatcher } from './events/dispatcher.js';
import { createRevocations } from './events/revocations.js';
import {
  DEFAULT_GATEWAY_OPTIONS,
  createDatabaseSessionStore,
  createGateway,
  liveActivities,
  storageSocialProviders,
  type Gateway,
  type GatewayOptions,
} from './gateway/index.js';
import { createAuthenticator } from './http/authenticator.js';
import { createRateLimiter, type BucketLimit } from './http/rateLimit/index.js';
import { clientAddressOf, createHttpServer } from './http/server.js';
import { API_PREFIX } from './http/versioning.js';
import { createLogger } from './logger.js';
import { expandScopes, type IdTokenKeyPair } from './oauth/index.js';
import { createOidcVerifier } from './oauth/provisional/oidc.js';
import { createProvisionalService, type ProvisionalService } from './oauth/provisional/service.js';
import {
  DEFAULT_SESSION_START_LIMIT,
  createSessionStartLimit,
} from './resources/gatewayInfo/index.js';
import type { Stopwatch } from './resources/autoModeration/index.js';
import { loadAttachmentSigner } from './resources/messages/index.js';
import { startLobbySweeper } from './resources/lobbies/index.js';
import { expiredCredentialTasks } from './resources/auth/index.js';
import { startTimedSweeper } from './resources/threads/index.js';
import { createSearchIndexer } from './resources/search/index.js';
import { createSocialLimits } from './resources/socialLimits/index.js';
import { createMetrics, createMetricsListener, instrument } from './resources/system/index.js';
import { createCdnImages } from './resources/imageVariants.js';
import type { SecretKeyring } from './domain/keyring.js';
import type { SecretBox } from './domain/secretBox.js';
import { rotateSecretKey, type RotationResult } from './secretRotation.js';
import { openSecrets, startResealing } from './secrets.js';
import {
  createVoiceTokens,
  openVoiceNode,
  voiceMetricLines,
  type VoiceNodeWiring,
  type VoiceTlsMaterial,
} from './voice/index.js';
import { createVoicePlacement, type VoicePlacement } from './voice/placement.js';
import {
  leaseWorkerSlot,
  leasedIdGenerator,
  type WorkerLease,
  type WorkerLeaseOptions,
} from './workerLease.js';
import type { EventBus } from './bus/index.js';
import type { SharedState } from './sharedState/index.js';
import type { Storage } from './storage/index.js';
import { SECOND_MS, DAY_MS } from './domain/time.js';

export interface AppOptions {
  config: Config;
  logger?: Logger;
  clock?: Clock;
  /** A storage to use instead of the one the config names (tests pass their own). */
  storage?: Storage;
  /** A bus to use instead of the one the config names. */
  bus?: EventBus;
  blobs?: BlobStore;
  /** The bucket of routes that name none; tests lower or raise it. */
  defaultRouteBucket?: BucketLimit;
  /**
   * The snowflake process id (0–31) beside a configured worker id. Admin commands use their own
   * so ids they make never collide with a server's on the same worker. A leased slot brings its
   * own.
   */
  processId?: number;
  /** The worker lease (PostgreSQL): timers tests drive and other durations. */
  workerLease?: { timers?: Timers; options?: Partial<WorkerLeaseOptions> };
  /** 401/403/429 answers an address may collect before it is refused (tests lower it). */
  invalidRequestLimit?: BucketLimit;
  /** Webhook event delivery: tests pass timers they drive and shorter limits. */
  webhookDelivery?: { timers?: Timers; settings?: Partial<DeliverySettings> };
  /** Whether to resume background jobs other nodes left (default true; admin commands: false). */
  resumeJobs?: boolean;
  /** Gateway settings over the platform's defaults (tests shorten heartbeats...). */
  gateway?: Partial<GatewayOptions>;
  /** Where the gateway's waits come from (tests hold the identify queue's). */
  gatewayTimers?: Timers;
  /** The voice node's limits over its defaults, and the timers of its periodic pass (tests). */
  voice?: VoiceNodeWiring['tuning'];
  /** The orphan blob sweep (blobs/lifecycle.ts): timers tests drive, or false for none. */
  blobSweep?: { timers?: Timers; graceMs?: number } | false;
  /** The idle lobby sweep (resources/lobbies/sweep.ts): timers tests drive, or false for none. */
  lobbySweep?: { timers?: Timers } | false;
  /**
   * Idle threads archived, expired polls ended, expired credentials deleted
   * (resources/threads/sweep.ts, resources/auth/sweep.ts), or false for none.
   */
  timedSweep?: { timers?: Timers } | false;
  /** Interactions' 3-second deadlines and sweep (resources/interactions): timers tests fire. */
  interactions?: { timers?: Timers };
  /** The activity proxy host's waits: timers tests fire, shorter limits. */
  activityProxy?: Pick<ActivityProxyOptions, 'timers' | 'limits'>;
  /**
   * Auto-moderation's CPU budget: a stopwatch (ms) to measure it with, for both its wall-clock
   * and CPU time (tests pass their own).
   */
  autoModeration?: { stopwatch?: Stopwatch };
  /**
   * The ID token signing key stored when the database has none, instead of making one: tests
   * pass one key made once per run. Production leaves it out (a key is made for the database).
   */
  idTokenKey?: IdTokenKeyPair;
}

/** The running platform, as main.ts, the CLI and tests see it. */
export interface App {
  readonly config: Config;
  readonly http: FastifyInstance;
  readonly storage: Storage;
  readonly bus: EventBus;
  readonly blobs: BlobStore;
  readonly logger: Logger;
  readonly services: Services & { provisional: ProvisionalService };
  readonly gateway: Gateway;
  /**
   * Which voice node serves each call (voice/placement.ts): op 4 picks with it; a voice node of
   * this process registers and heartbeats with it.
   */
  readonly voicePlacement: VoicePlacement;
  /** Starts listening; resolves to the base URL (no /api). */
  listen(): Promise<string>;
  /** The base URL (the configured port until listening). */
  baseUrl(): string;
  /** Where /metrics is served when it has a listener of its own (once listening), else null. */
  metricsUrl(): string | null;
  /** The API URL clients use (base URL + /api/v10). */
  apiUrl(): string;
  gatewayUrl(): string;
  /** The voice node this process serves (once listening, its endpoint), else null. */
  readonly voice: { endpoint(): string; tls(): VoiceTlsMaterial | null } | null;
  close(): Promise<void>;
}

/** The CPU time (user and system) this process has used, in ms. */
const processCpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

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

/** The composition root: the only place that knows which drivers run. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const storage = options.storage ?? (await openStorage(config, logger));
  let bus: EventBus | null = null;
  let secrets: SecretBox;
  let keyring: SecretKeyring;
  let keySource: string;
  let workerLease: WorkerLease | null = null;
  let sharedState: SharedState;
  try {
    // Stored secrets are sealed (and checked to open) before anything serves them.
    ({
      box: secrets,
      keyring,
      source: keySource,
    } = await openSecrets({ config, storage, logger }, clock));
    // No two processes sharing the database mint ids with one worker slot.
    workerLease = await leaseWorkerSlot({
      storage,
      clock,
      timers: options.workerLease?.timers ?? realTimers,
      logger,
      workerId: config.workerId,
      processId: options.processId ?? 0,
      ...(options.workerLease?.options ? { options: options.workerLease.options } : {}),
    });
    bus = options.bus ?? (await openBus(config, logger));
    sharedState = await openSharedState(config, { logger, clock });
  } catch (err) {
    // Nothing else holds the storage and bus yet: close them rather than leak connections.
    await bus?.close();
    await workerLease?.release();
    await storage.close();
    throw err;
  }
  const blobs = options.blobs ?? new DiskBlobStore(join(config.dataDir, 'blobs'));
  const rateLimitStore = sharedState.rateLimits;
  const ids = leasedIdGenerator(workerLease, clock);
  const sessionTtlMs = config.sessionTtlDays * DAY_MS;
  const authenticator = createAuthenticator({
    storage,
    clock,
    cacheTtlMs: config.authCacheSeconds * SECOND_MS,
    sessionTtlMs,
  });
  const rateLimiter = config.rateLimits
    ? createRateLimiter({
        store: rateLimitStore,
        clock,
        globalPerSecond: config.globalRateLimitPerSecond,
        defaultBucket: options.defaultRouteBucket ?? config.routeRateLimit,
        ...(options.invalidRequestLimit ? { invalidRequests: options.invalidRequestLimit } : {}),
      })
    : null;
  const events = createBusDispatcher({
    bus,
    clock,
    onError: (err, event) => {
      logger.error({ err, type: event.type, guildId: event.guildId }, 'dispatch not published');
    },
  });
  const revocations = createRevocations({
    bus,
    clock,
    onError: (err) => {
      logger.error({ err }, 'revocation not applied everywhere');
    },
  });
  revocations.listen(({ tokenHashes, userIds }) => {
    for (const hash of tokenHashes) authenticator.forgetToken(hash);
    for (const userId of userIds) authenticator.forgetUser(userId);
  });
  // Until listen() learns the real port, the configured one stands in (for app.inject()).
  let base = publicBaseUrl(config, config.port);
  const baseUrl = () => base;
  // The port activity origins carry when there is no public URL (known once listening).
  let listeningPort = config.port;
  const searchIndexer = createSearchIndexer({
    storage,
    clock,
    onError: (err, guildId) => {
      logger.error({ err, guildId }, 'search index backfill failed');
    },
  });
  const webhookEvents = createWebhookEventsService({
    storage,
    clock,
    ids,
    logger,
    secrets,
    timers: options.webhookDelivery?.timers ?? realTimers,
    settings: {
      ...DEFAULT_DELIVERY_SETTINGS,
      allowLocal: config.allowLocalWebhooks,
      ...options.webhookDelivery?.settings,
    },
  });
  const signer = await loadAttachmentSigner({
    storage,
    clock,
    lifetimeMs: config.attachmentUrlSeconds * SECOND_MS,
    secrets,
  });
  const links = () => ({ baseUrl: baseUrl(), signer });
  const services = createServices(
    {
      ...{ storage, clock, ids, blobs, authenticator, revocations, webhookEvents, secrets },
      socialLimits: createSocialLimits({ storage, clock, store: rateLimitStore }),
    },
    {
      events,
      baseUrl,
      links,
      searchIndexer,
      onCommitTaskError: (err) => {
        logger.warn({ err }, 'blob not freed after commit (the sweep removes it)');
      },
      onLobbyMirrorError: (err, context) => {
        logger.warn({ err, ...context }, 'lobby message not mirrored into its linked channel');
      },
      auth: {
        sessionTtlMs,
        passwordCost: { ...DEFAULT_SCRYPT_COST, log2N: config.passwordScryptLog2N },
      },
      idTokenKey: options.idTokenKey,
      privilegedIntentReviewThreshold:
        options.gateway?.privilegedIntentReviewThreshold ??
        DEFAULT_GATEWAY_OPTIONS.privilegedIntentReviewThreshold,
      autoModeration: {
        budgetMs: config.autoModerationBudgetMs,
        wallClock: options.autoModeration?.stopwatch ?? (() => performance.now()),
        cpuClock: options.autoModeration?.stopwatch ?? processCpuMs,
      },
      // The proxy host's origin for the app (--activity-host, the public URL's scheme and port).
      activityOrigin: (applicationId) => activityOrigin(config, listeningPort, applicationId),
      activityInvites: {
        activitiesOf: (userId) => liveActivities({ store: sharedState.presences, clock }, userId),
      },
      presencesOf: async (userIds) =>
        (await sharedState.presences.get(userIds, clock.now())) as Map<
          string,
          { status: string; activities: readonly Record<string, unknown>[] }
        >,
      interactions: {
        timers: options.interactions?.timers ?? realTimers,
        allowLocal: config.allowLocalWebhooks,
        attachmentSizeLimit: config.maxAttachmentBytes,
        onError: (err, context) => {
          logger.warn({ err, ...context }, 'interaction delivery failed');
        },
      },
    },
  );
  const provisional = createProvisionalService({
    // Its revocations (bans, unlinks) wait for its transactions to commit.
    storage: dispatchingStorage(storage, events),
    ...{ clock, ids, blobs, authenticator, revocations, webhookEvents },
    oauth: services.oauth,
    oidc: createOidcVerifier({ clock, allowInsecureLocal: config.oidcAllowInsecureLocal }),
    expandScopes,
    // Messages sent while provisional are not retrievable after a merge (spec, account linking).
    onProvisionalAccountDeleted: async (tx, userId) => {
      await tx.messages.deleteAllByUser(userId);
      // Its DMs go with it (their other side keeps nothing); it leaves its group DMs.
      await tx.privateChannels.deleteDmsOf(userId);
    },
  });
  const gatewayOptions: GatewayOptions = {
    ...DEFAULT_GATEWAY_OPTIONS,
    identifyTimeoutMs: config.gatewayIdentifyTimeoutSeconds * SECOND_MS,
    maxUnidentifiedPerAddress: config.gatewayMaxUnidentifiedPerAddress,
    maxBufferedBytes: config.gatewayMaxBufferedBytes,
    ...options.gateway,
  };
  const sessionStartLimit = createSessionStartLimit({
    ...DEFAULT_SESSION_START_LIMIT,
    totalPerDay: gatewayOptions.identifyPerDay,
    maxConcurrency: gatewayOptions.maxConcurrency,
    store: rateLimitStore,
    clock,
  });
  const metrics = createMetrics();

  // The activity proxy host shares every API listener; the Host header tells them apart.
  const activityProxy = !roleServes(config.role, 'api')
    ? null
    : createActivityProxy({
        config,
        mappings: storage.activities,
        port: () => listeningPort,
        clientAddress: (request) => clientAddressOf(request, config.trustProxy),
        logger,
        ...(options.activityProxy ?? {}),
      });
  const http = createHttpServer({
    ...(activityProxy ? { serverFactory: hostSplitServerFactory(activityProxy) } : {}),
    logger,
    authenticator,
    rateLimiter,
    maxBodyBytes: config.maxBodyBytes,
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
  });
  instrument(http, metrics);

  const gatewayUrl = () => config.gatewayUrl ?? `${baseUrl().replace(/^http/, 'ws')}/gateway`;

  // Which voice node serves each call; op 4 picks with it, voice nodes announce themselves.
  const voicePlacement = createVoicePlacement({
    store: sharedState.voiceNodes,
    clock,
    fallbackEndpoint: config.voiceEndpoint,
  });
  // The voice node (WebSocket and media relay on the voice port) of a process that serves voice.
  const voiceTokens = createVoiceTokens(keyring);
  const voice = roleServes(config.role, 'voice')
    ? openVoiceNode({
        config,
        storage,
        bus,
        clock,
        logger,
        tokens: voiceTokens,
        registry: voicePlacement,
        clientAddress: (request) => clientAddressOf(request, config.trustProxy),
        ...(options.voice ? { tuning: options.voice } : {}),
      })
    : null;
  // Its calls, members and relay counters go out with /metrics.
  if (voice !== null) {
    metrics.addSource(() => voiceMetricLines(voice.node.stats()));
  }
  const gateway = createGateway({
    storage,
    bus,
    clock,
    logger,
    authenticator,
    sessionStartLimit,
    sharedState,
    events,
    gatewayUrl,
    options: gatewayOptions,
    ...(options.gatewayTimers ? { timers: options.gatewayTimers } : {}),
    clientAddress: (request) => clientAddressOf(request, config.trustProxy),
    // What SDK sessions see of their user's social graph (gateway/social.ts).
    social: storageSocialProviders(storage),
    // Op 4's VOICE_SERVER_UPDATE: the voice node holding the call (else the least loaded; the
    // configured endpoint while none is listed) and a token every node checks with the key.
    voice: {
      tokens: voiceTokens,
      endpointFor: (callKey) => voicePlacement.pick(callKey),
      maxMembers: config.voiceMaxMembers,
    },
    // Several nodes share PostgreSQL: a session resumes on any of them. SQLite is one process.
    ...(storage.dialect === 'postgres'
      ? {
          sessionStore: createDatabaseSessionStore({
            storage,
            keep: gatewayOptions.replayLimit,
            logger,
            clock,
            resumeWindowMs: gatewayOptions.resumeWindowMs,
          }),
        }
      : {}),
  });
  // Every node, API or gateway, applies every node's revocations (its cache, its sessions).
  revocations.listen((revocation) => {
    gateway.revoke(revocation);
  });
  await revocations.start();
  // An API-only process leaves sessions to gateway processes (its dispatches reach them by NATS).
  if (roleServes(config.role, 'gateway')) {
    await gateway.start();
    gateway.attach(http.server);
  }

  const images = createCdnImages({ blobs });
  // /metrics is served by the main listener, or only by one of its own when configured.
  const metricsListener =
    config.metricsListen === null
      ? null
      : createMetricsListener(metrics, {
          tokenHash: config.metricsTokenHash,
          ...config.metricsListen,
        });
  let metricsUrl: string | null = null;
  await registerAppRoutes(http, {
    config,
    storage,
    bus,
    blobs,
    clock,
    authenticator,
    services,
    provisional,
    sessionStartLimit,
    images,
    metrics,
    metricsOwnListener: metricsListener !== null,
    signer,
    baseUrl,
    gatewayUrl,
  });
  webhookEvents.start();
  // Interactions a stopped node left unanswered fail now; expired ones go (and every 30 s).
  services.interactionLifecycle.start();

  // Blobs a crash left without their row, and abandoned uploads, go at start and every 6 h.
  const blobSweeper =
    options.blobSweep === false
      ? null
      : startBlobSweeper({
          storage,
          blobs,
          clock,
          timers: options.blobSweep?.timers ?? realTimers,
          graceMs: options.blobSweep?.graceMs ?? DEFAULT_BLOB_GRACE_MS,
          intervalMs: DEFAULT_BLOB_SWEEP_INTERVAL_MS,
          onError: (err) => {
            logger.error({ err }, 'blob sweep failed');
          },
        });

  // Empty lobbies past their idle timeout are deleted every minute.
  const lobbySweeper =
    options.lobbySweep === false
      ? null
      : startLobbySweeper({
          storage,
          clock,
          timers: options.lobbySweep?.timers ?? realTimers,
          onError: (err) => {
            logger.error({ err }, 'idle lobby sweep failed');
          },
        });

  // Idle threads archive themselves, expired polls end and expired credentials go, every minute.
  const timedSweeper =
    options.timedSweep === false
      ? null
      : startTimedSweeper({
          tasks: [
            (limit) => services.threads.archiveIdle(limit),
            (limit) => services.polls.endExpired(limit),
            ...expiredCredentialTasks({ storage, clock }),
          ],
          timers: options.timedSweep?.timers ?? realTimers,
          onError: (err) => {
            logger.error({ err }, 'thread, poll and credential sweep failed');
          },
        });

  // During a rotation, what a node still on the previous key seals is sealed again here.
  const resealing = startResealing({
    storage,
    box: secrets,
    keyring,
    source: keySource,
    clock,
    timers: realTimers,
    logger,
  });

  // Target-user jobs a stopped node left PROCESSING resume here (and on a timer while we run).
  if (options.resumeJobs !== false) {
    await services.invites.resumeJobs((err) => {
      logger.error({ err }, 'invite target-user jobs not resumed');
    });
  }

  return {
    config,
    http,
    storage,
    bus,
    blobs,
    logger,
    services: { ...services, provisional },
    gateway,
    voicePlacement,
    async listen() {
      // A deep accept queue: thousands of gateway clients may connect at the same moment.
      await http.listen({ host: config.host, port: config.port, backlog: 4096 });
      const address = http.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : config.port;
      base = publicBaseUrl(config, port);
      listeningPort = port;
      let voiceEndpoint: string | undefined;
      try {
        voiceEndpoint = await voice?.node.listen();
      } catch (err) {
        // The voice port is taken (say): the API's listener does not stay open without it.
        await http.close();
        throw err;
      }
      const voiceTls = voice?.tls();
      if (voiceTls?.development === true) {
        logger.info(
          { endpoint: voiceEndpoint, certificate: voiceTls.certPath },
          'voice uses a development certificate: Node clients trust it with NODE_EXTRA_CA_CERTS',
        );
      }
      if (metricsListener !== null) {
        metricsUrl = await metricsListener.listen();
        logger.info({ url: `${metricsUrl}/metrics` }, 'metrics served on a listener of their own');
      }
      // Guilds whose messages predate their search index get it built in the background.
      searchIndexer.resume();
      return base;
    },
    baseUrl,
    metricsUrl: () => metricsUrl,
    apiUrl: () => `${baseUrl()}${API_PREFIX}`,
    gatewayUrl,
    voice: voice === null ? null : { endpoint: () => voice.node.endpoint(), tls: voice.tls },
    async close() {
      await gateway.close();
      await voice?.node.close();
      // Proxied activity WebSockets, like gateway sessions, would hold the listener open.
      activityProxy?.close();
      await http.close();
      await metricsListener?.close();
      // Background invite jobs stop (after their current batch) before the storage closes.
      await services.invites.close();
      await webhookEvents.stop();
      await searchIndexer.close();
      await blobSweeper?.stop();
      await lobbySweeper?.stop();
      await timedSweeper?.stop();
      await resealing?.stop();
      await services.interactions.close();
      revocations.close();
      await sharedState.close();
      await bus.close();
      await workerLease.release();
      await storage.close();
      // Log lines still queued in the asynchronous destination reach the output.
      await new Promise<void>((resolve) => {
        logger.flush(() => {
          resolve();
        });
      });
    },
  };
}
