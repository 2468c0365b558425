import { hostSplitServerFactory } from './activities/proxyServer.js';
import {
  activityProxyPart,
  createAppActivityProxy,
  watchActivityParticipants,
} from './appActivities.js';
import {
  loadApiTls,
  openBlobStore,
  openBus,
  openSharedState,
  openStorage,
  startConfiguredTracing,
} from './appDrivers.js';
import { createAppRealtime, gatewaySettings } from './appRealtime.js';
import { createAppProvisional } from './appProvisional.js';
import { registerAppRoutes } from './appRoutes.js';
import { createServices } from './appServices.js';
import { appSweeps } from './appSweeps.js';
import type { App, AppOptions } from './appTypes.js';
import { activityOrigin } from './activities/proxyHost.js';
import { attachAppControl, createAppControl } from './appControl.js';
import { publicBaseUrl, roleServes, servesTls, type Config } from './config.js';
import { createWebhookEventsService } from './delivery/service.js';
import { DEFAULT_DELIVERY_SETTINGS } from './delivery/worker.js';
import { realTimers, systemClock } from './domain/clock.js';
import { DEFAULT_SCRYPT_COST } from './domain/credentials.js';
import { dispatchingStorage } from './events/afterCommit.js';
import { createBusDispatcher } from './events/dispatcher.js';
import { activeTraceparent } from './events/tracing.js';
import { closeListener } from './http/closeListener.js';
import { traceRequests } from './http/tracing.js';
import { createRevocations } from './events/revocations.js';
import { DEFAULT_GATEWAY_OPTIONS, liveActivities } from './gateway/index.js';
import { createAuthenticator } from './http/authenticator.js';
import { createRateLimiter } from './http/rateLimit/index.js';
import { createHttpServer } from './http/server.js';
import { API_PREFIX } from './http/versioning.js';
import { createConfiguredLogger } from './logger.js';
import { createAutoModRuleCache } from './resources/autoModeration/index.js';
import { loadAttachmentSigner } from './resources/messages/index.js';
import { createSearchIndexer } from './resources/search/index.js';
import { createSocialLimits } from './resources/socialLimits/index.js';
import { createMetrics, createMetricsListener, instrument } from './resources/system/index.js';
import { createCdnImages } from './resources/imageVariants.js';
import { openSecrets } from './secrets.js';
import { leaseWorkerSlot, leasedIdGenerator } from './workerLease.js';
import type { Logger } from 'pino';
import { SECOND_MS, DAY_MS } from './domain/time.js';
import { createLifecycle, type Lifecycle } from './domain/lifecycle.js';
import { createSeedSwitch, systemEntropy } from './domain/seeded.js';
import { takeSnapshot } from './control/reset.js';
import { createWorldState } from './control/worldState.js';

export type { App, AppOptions, AppOverrides } from './appTypes.js';
export {
  backupSqlite,
  checkSqliteBackup,
  rotateSecrets,
  type RotationResult,
} from './appDrivers.js';

/**
 * The CPU time (user and system) this thread has used, in ms, where Node can tell
 * (`process.threadCpuUsage`, Node 23.9 and later); the whole process's before that, which also
 * counts the garbage collector's helper threads.
 */
const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
const processCpuMs = () => {
  const used = threadCpuUsage === undefined ? process.cpuUsage() : threadCpuUsage.call(process);
  return (used.user + used.system) / 1000;
};

/** The composition root: the only place that knows which drivers run. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? createConfiguredLogger(config);
  // Each part is added as it is built, after what it is built from; close stops them in reverse.
  const lifecycle = createLifecycle((err, name) => {
    logger.error({ err, part: name }, 'app part not stopped cleanly');
  });
  // Log lines still queued in the asynchronous destination reach the output, last of all.
  lifecycle.add({
    name: 'logger',
    stop: () =>
      new Promise<void>((resolve) => {
        logger.flush(() => {
          resolve();
        });
      }),
  });
  try {
    return await composeApp(config, { ...options, logger }, lifecycle);
  } catch (err) {
    // What was opened before the failure (the storage given included) is not left open.
    await lifecycle.close().catch(() => undefined);
    throw err;
  }
}

async function composeApp(
  config: Config,
  options: AppOptions & { logger: Logger },
  lifecycle: Lifecycle,
): Promise<App> {
  const { logger } = options;
  const overrides = options.overrides ?? {};
  // Two clocks: the platform's, which every dated rule reads and a test moves (app.control), and
  // the real one of what runs on the wire or between nodes (heartbeats, leases, the bus).
  const wireClock = overrides.clock ?? systemClock;
  const control = createAppControl({ config, base: overrides.clock, logger });
  const clock = control.parts.clock;
  // Read (or made) before anything opens: unreadable files stop the start with one line.
  const tls = servesTls(config) ? await loadApiTls(config, wireClock.now()) : null;
  // Tracing, when configured: only then is its SDK loaded (tracing.ts); stopped last.
  const tracing = await startConfiguredTracing(config, overrides.traceExporter);
  if (tracing !== null) lifecycle.add({ name: 'tracing', stop: () => tracing.shutdown() });
  const storage = overrides.storage ?? (await openStorage(config, logger));
  lifecycle.add({ name: 'storage', stop: () => storage.close() });
  // Stored secrets are sealed (and checked to open) before anything serves them.
  const {
    box: secrets,
    keyring,
    source: keySource,
  } = await openSecrets({ config, storage, logger }, wireClock);
  // No two processes sharing the database mint ids with one worker slot.
  const workerLease = await leaseWorkerSlot({
    storage,
    clock: wireClock,
    timers: overrides.workerLease?.timers ?? realTimers,
    logger,
    workerId: config.workerId,
    processId: options.processId ?? 0,
    ...(overrides.workerLease?.options ? { options: overrides.workerLease.options } : {}),
  });
  lifecycle.add({ name: 'worker lease', stop: () => workerLease.release() });
  const bus = overrides.bus ?? (await openBus(config, logger));
  lifecycle.add({ name: 'bus', stop: () => bus.close() });
  const sharedState = await openSharedState(config, { logger, clock: wireClock });
  lifecycle.add({ name: 'shared state', stop: () => sharedState.close() });
  const blobs = overrides.blobs ?? (await openBlobStore(config, logger));
  if (overrides.blobs === undefined) {
    lifecycle.add({
      name: 'blob store',
      stop: () => {
        blobs.close?.();
      },
    });
  }
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
        defaultBucket: overrides.defaultRouteBucket ?? config.routeRateLimit,
        ...(overrides.invalidRequestLimit
          ? { invalidRequests: overrides.invalidRequestLimit }
          : {}),
      })
    : null;
  const events = createBusDispatcher({
    bus,
    clock: wireClock,
    // A traced request's dispatches carry its trace to the gateway nodes.
    ...(tracing === null ? {} : { traceparent: activeTraceparent }),
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
  lifecycle.add({
    name: 'revocations',
    start: () => revocations.start(),
    stop: () => {
      revocations.close();
    },
  });
  // Read on every guild message create, changed rarely: held here, dropped on every node when
  // they change (the revocations carry the guilds).
  const autoModRules = createAutoModRuleCache({ storage });
  revocations.listen(({ tokenHashes, userIds, autoModGuildIds }) => {
    for (const hash of tokenHashes) authenticator.forgetToken(hash);
    for (const userId of userIds) authenticator.forgetUser(userId);
    for (const guildId of autoModGuildIds) autoModRules.forget(guildId);
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
  lifecycle.add({ name: 'search indexer', stop: () => searchIndexer.close() });
  const webhookEvents = createWebhookEventsService({
    storage,
    clock,
    ids,
    logger,
    secrets,
    timers: overrides.webhookDelivery?.timers ?? clock.timers,
    fault: control.deliveryFault,
    settings: {
      ...DEFAULT_DELIVERY_SETTINGS,
      allowLocal: config.allowLocalWebhooks,
      ...overrides.webhookDelivery?.settings,
    },
  });
  lifecycle.add({
    name: 'webhook events',
    start: () => {
      webhookEvents.start();
    },
    stop: () => webhookEvents.stop(),
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
      idTokenKey: overrides.idTokenKey,
      privilegedIntentReviewThreshold:
        overrides.gateway?.privilegedIntentReviewThreshold ??
        DEFAULT_GATEWAY_OPTIONS.privilegedIntentReviewThreshold,
      autoModeration: {
        budgetMs: config.autoModerationBudgetMs,
        wallClock: overrides.autoModeration?.stopwatch ?? (() => performance.now()),
        cpuClock: overrides.autoModeration?.stopwatch ?? processCpuMs,
      },
      autoModRules,
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
        timers: overrides.interactions?.timers ?? clock.timers,
        deliveryFault: control.deliveryFault,
        allowLocal: config.allowLocalWebhooks,
        attachmentSizeLimit: config.maxAttachmentBytes,
        onError: (err, context) => {
          logger.warn({ err, ...context }, 'interaction delivery failed');
        },
      },
    },
  );
  // Interactions a stopped node left unanswered fail now; expired ones go (and every 30 s).
  lifecycle.add({
    name: 'interaction lifecycle',
    start: () => {
      services.interactionLifecycle.start();
    },
    stop: () => services.interactionLifecycle.stop(),
  });
  lifecycle.add({ name: 'interactions', stop: () => services.interactions.close() });
  lifecycle.add({
    name: 'invite jobs',
    // Target-user jobs a stopped node left PROCESSING resume here (and on a timer while we run).
    ...(options.resumeJobs === false
      ? {}
      : {
          start: () =>
            services.invites.resumeJobs((err) => {
              logger.error({ err }, 'invite target-user jobs not resumed');
            }),
        }),
    // Background invite jobs stop (after their current batch) before the storage closes.
    stop: () => services.invites.close(),
  });
  const provisional = createAppProvisional({
    ...{ storage, events, clock, ids, blobs, authenticator, revocations, webhookEvents },
    oauth: services.oauth,
    oidcAllowInsecureLocal: config.oidcAllowInsecureLocal,
  });
  const { gatewayOptions, sessionStartLimit } = gatewaySettings(config, overrides, {
    store: rateLimitStore,
    clock,
  });
  const metrics = createMetrics();
  // The webhook event worker's queued, delivered, retried and failed events.
  metrics.addSource(() => webhookEvents.metricLines());
  for (const sweep of appSweeps({
    overrides,
    storage,
    blobs,
    clock,
    wireClock,
    logger,
    services,
    secrets: { box: secrets, keyring, source: keySource },
  })) {
    lifecycle.add(sweep);
  }
  const participantWatch = watchActivityParticipants({
    ...{ events, storage, logger, lifecycle },
    instances: services.activityInstances,
  });
  // /metrics is served by the main listener, or only by one of its own when configured.
  const metricsListener =
    config.metricsListen === null
      ? null
      : createMetricsListener(metrics, {
          tokenHash: config.metricsTokenHash,
          ...config.metricsListen,
        });
  if (metricsListener !== null) {
    lifecycle.add({ name: 'metrics listener', stop: () => metricsListener.close() });
  }

  // The activity proxy host shares every API listener; the Host header tells them apart.
  const activityProxy = createAppActivityProxy({
    ...{ config, overrides, storage, logger, revocations },
    clock: wireClock,
    port: () => listeningPort,
  });
  const http = createHttpServer({
    ...(activityProxy
      ? { serverFactory: hostSplitServerFactory(activityProxy, tls ?? undefined) }
      : {}),
    ...(tls === null ? {} : { tls }),
    logger,
    authenticator,
    rateLimiter,
    maxBodyBytes: config.maxBodyBytes,
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
  });
  instrument(http, metrics);
  if (tracing !== null) traceRequests(http);
  lifecycle.add({ name: 'http', stop: () => closeListener(http.server, () => http.close()) });
  if (activityProxy !== null) lifecycle.add(activityProxyPart(activityProxy));
  const gatewayUrl = () => config.gatewayUrl ?? `${baseUrl().replace(/^http/, 'ws')}/gateway`;

  const { voicePlacement, voice, gateway } = createAppRealtime({
    ...{ config, overrides, storage, bus, clock, wireClock, logger, keyring, metrics },
    ...{ authenticator, sessionStartLimit, sharedState, events, gatewayUrl, gatewayOptions },
    gatewayHooks: control.gatewayHooks,
    calls: services.calls.lifecycle,
    onPersonGone: participantWatch.personGone,
  });
  if (voice !== null) lifecycle.add({ name: 'voice node', stop: () => voice.node.close() });
  // Every node, API or gateway, applies every node's revocations (its cache, its sessions).
  revocations.listen((revocation) => {
    gateway.revoke(revocation);
  });
  lifecycle.add({
    name: 'gateway',
    // An API-only process leaves sessions to gateway processes (its dispatches reach them by NATS).
    ...(roleServes(config.role, 'gateway')
      ? {
          async start() {
            await gateway.start();
            gateway.attach(http.server);
          },
        }
      : {}),
    stop: () => gateway.close(),
  });

  const images = createCdnImages({ blobs });
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
  // The controls stop first (the last part added): their run file goes before the listener.
  lifecycle.add({ name: 'controls', stop: () => attached.close() });
  await lifecycle.start();

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
      try {
        await voice?.node.listen();
      } catch (err) {
        // The voice port is taken (say): the API's listener does not stay open without it.
        await closeListener(http.server, () => http.close());
        throw err;
      }
      if (tls?.development === true) {
        logger.info(
          { url: base, certificate: tls.certPath },
          'HTTPS and WSS use a development certificate: Node clients trust it with NODE_EXTRA_CA_CERTS',
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
    snapshot: () =>
      takeSnapshot({ storage, sharedState, authenticator, autoModRules, gateway, activityProxy }),
    // A reset also takes back the faults, the clock and the log (appControl.ts).
    worlds: attached.resetting(createWorldState(built)),
    withSeed: (source, work) => seeds.run(source, work),
    tls: () => tls,
    close: () => lifecycle.close(),
  };
  return app;
}
