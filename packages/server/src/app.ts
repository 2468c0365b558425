import { join } from 'node:path';
import { createActivityProxy, hostSplitServerFactory } from './activities/proxyServer.js';
import { DiskBlobStore } from './blobs/index.js';
import { openBus, openSharedState, openStorage } from './appDrivers.js';
import { createAppRealtime } from './appRealtime.js';
import { registerAppRoutes } from './appRoutes.js';
import { createServices } from './appServices.js';
import { startAppSweeps } from './appSweeps.js';
import type { App, AppOptions } from './appTypes.js';
import { activityOrigin } from './activities/proxyHost.js';
import { attachAppControl, createAppControl } from './appControl.js';
import { publicBaseUrl, roleServes, type Config } from './config.js';
import { createWebhookEventsService } from './delivery/service.js';
import { DEFAULT_DELIVERY_SETTINGS } from './delivery/worker.js';
import { realTimers, systemClock } from './domain/clock.js';
import { DEFAULT_SCRYPT_COST } from './domain/credentials.js';
import { dispatchingStorage } from './events/afterCommit.js';
import { createBusDispatcher } from './events/dispatcher.js';
import { createRevocations } from './events/revocations.js';
import { DEFAULT_GATEWAY_OPTIONS, liveActivities, type GatewayOptions } from './gateway/index.js';
import { createAuthenticator } from './http/authenticator.js';
import { createRateLimiter } from './http/rateLimit/index.js';
import { clientAddressOf, createHttpServer } from './http/server.js';
import { API_PREFIX } from './http/versioning.js';
import { createLogger } from './logger.js';
import { expandScopes } from './oauth/index.js';
import { createOidcVerifier } from './oauth/provisional/oidc.js';
import { createProvisionalService } from './oauth/provisional/service.js';
import {
  DEFAULT_SESSION_START_LIMIT,
  createSessionStartLimit,
} from './resources/gatewayInfo/index.js';
import { loadAttachmentSigner } from './resources/messages/index.js';
import { createSearchIndexer } from './resources/search/index.js';
import { createSocialLimits } from './resources/socialLimits/index.js';
import { createMetrics, createMetricsListener, instrument } from './resources/system/index.js';
import { createCdnImages } from './resources/imageVariants.js';
import type { SecretKeyring } from './domain/keyring.js';
import type { SecretBox } from './domain/secretBox.js';
import { rotateSecretKey, type RotationResult } from './secretRotation.js';
import { openSecrets } from './secrets.js';
import { leaseWorkerSlot, leasedIdGenerator, type WorkerLease } from './workerLease.js';
import type { EventBus } from './bus/index.js';
import type { SharedState } from './sharedState/index.js';
import { SECOND_MS, DAY_MS } from './domain/time.js';
import { createSeedSwitch, systemEntropy } from './domain/seeded.js';
import { takeSnapshot } from './control/reset.js';
import { createWorldState } from './control/worldState.js';

export type { App, AppOptions } from './appTypes.js';

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
  const logger = options.logger ?? createLogger(config.logLevel);
  // Two clocks: the platform's, which every dated rule reads and a test moves (app.control), and
  // the real one of what runs on the wire or between nodes (heartbeats, leases, the bus).
  const wireClock = options.clock ?? systemClock;
  const control = createAppControl({ config, options, logger });
  const clock = control.parts.clock;
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
    } = await openSecrets({ config, storage, logger }, wireClock));
    // No two processes sharing the database mint ids with one worker slot.
    workerLease = await leaseWorkerSlot({
      storage,
      clock: wireClock,
      timers: options.workerLease?.timers ?? realTimers,
      logger,
      workerId: config.workerId,
      processId: options.processId ?? 0,
      ...(options.workerLease?.options ? { options: options.workerLease.options } : {}),
    });
    bus = options.bus ?? (await openBus(config, logger));
    sharedState = await openSharedState(config, { logger, clock: wireClock });
  } catch (err) {
    // Nothing else holds the storage and bus yet: close them rather than leak connections.
    await bus?.close();
    await workerLease?.release();
    await storage.close();
    throw err;
  }
  const blobs = options.blobs ?? new DiskBlobStore(join(config.dataDir, 'blobs'));
  const rateLimitStore = sharedState.rateLimits;
  // Ids and credentials follow a world's seed while it loads (App.withSeed), else clock and chance.
  const seeds = createSeedSwitch({
    ids: leasedIdGenerator(workerLease, clock),
    entropy: systemEntropy,
  });
  const { ids } = seeds;
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
    clock: wireClock,
    onError: (err, event) => {
      logger.error({ err, type: event.type, guildId: event.guildId }, 'dispatch not published');
    },
  });
  const revocations = createRevocations({
    bus,
    clock: wireClock,
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
    timers: options.webhookDelivery?.timers ?? clock.timers,
    fault: control.deliveryFault,
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
      entropy: seeds.entropy,
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
        activitiesOf: (userId) =>
          liveActivities({ store: sharedState.presences, clock: wireClock }, userId),
      },
      presencesOf: async (userIds) =>
        (await sharedState.presences.get(userIds, wireClock.now())) as Map<
          string,
          { status: string; activities: readonly Record<string, unknown>[] }
        >,
      interactions: {
        timers: options.interactions?.timers ?? clock.timers,
        deliveryFault: control.deliveryFault,
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

  const { voicePlacement, voice, gateway } = createAppRealtime({
    ...{ config, options, storage, bus, clock, wireClock, logger, keyring, metrics },
    ...{ authenticator, sessionStartLimit, sharedState, events, gatewayUrl, gatewayOptions },
    gatewayHooks: control.gatewayHooks,
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
  // The faults and log hooked in, the controls' routes (docs/testing.md).
  let app: App | null = null;
  const built = () => {
    if (app === null) throw new Error('the app is not built yet');
    return app;
  };
  const attached = await attachAppControl({
    control,
    config,
    options,
    http,
    gateway,
    storage: dispatchingStorage(storage, events),
    revocations,
    app: built,
  });
  webhookEvents.start();
  // Interactions a stopped node left unanswered fail now; expired ones go (and every 30 s).
  services.interactionLifecycle.start();

  const sweeps = startAppSweeps({
    options,
    storage,
    blobs,
    clock,
    wireClock,
    logger,
    services,
    secrets: { box: secrets, keyring, source: keySource },
  });

  // Target-user jobs a stopped node left PROCESSING resume here (and on a timer while we run).
  if (options.resumeJobs !== false) {
    await services.invites.resumeJobs((err) => {
      logger.error({ err }, 'invite target-user jobs not resumed');
    });
  }

  app = {
    config,
    http,
    storage,
    bus,
    blobs,
    logger,
    services: { ...services, provisional },
    gateway,
    voicePlacement,
    control: { clock, faults: control.parts.faults, log: control.parts.log },
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
      await attached.listened(base);
      return base;
    },
    baseUrl,
    metricsUrl: () => metricsUrl,
    apiUrl: () => `${baseUrl()}${API_PREFIX}`,
    gatewayUrl,
    voice: voice === null ? null : { endpoint: () => voice.node.endpoint(), tls: voice.tls },
    snapshot: () => takeSnapshot({ storage, sharedState, authenticator, gateway }),
    // A reset also takes back the faults, the clock and the log (appControl.ts).
    worlds: attached.resetting(createWorldState(built)),
    withSeed: (source, work) => seeds.run(source, work),
    async close() {
      await attached.close();
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
      await sweeps.stop();
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
  return app;
}
