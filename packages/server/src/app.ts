// First: Node's tick objects' shape held before the app's modules load (tickShape.ts).
import './tickShape.js';
import { hostSplitServerFactory } from './activities/proxyServer.js';
import {
  activityProxyPart,
  createAppActivityProxy,
  watchActivityParticipants,
} from './appActivities.js';
import { createAppCore } from './appCore.js';
import { openFoundation } from './appFoundation.js';
import { createAppRealtime, gatewaySettings } from './appRealtime.js';
import { composeServices } from './appServiceWiring.js';
import { createAppProvisional } from './appProvisional.js';
import { registerAppRoutes } from './appRoutes.js';
import { appSweeps } from './appSweeps.js';
import type { App, AppOptions } from './appTypes.js';
import { attachAppControl } from './appControl.js';
import { publicBaseUrl, roleServes, type Config } from './config.js';
import { dispatchingStorage } from './events/afterCommit.js';
import { closeListener } from './http/closeListener.js';
import { traceRequests } from './http/tracing.js';
import { createHttpServer } from './http/server.js';
import { API_PREFIX } from './http/versioning.js';
import { createConfiguredLogger } from './logger.js';
import { createMetrics, createMetricsListener, instrument } from './resources/system/index.js';
import { createCdnImages } from './resources/imageVariants.js';
import type { Logger } from 'pino';
import { createLifecycle, type Lifecycle } from './domain/lifecycle.js';
import { takeSnapshot } from './control/reset.js';
import { createWorldState } from './control/worldState.js';

export type { App, AppOptions, AppOverrides } from './appTypes.js';
export {
  backupSqlite,
  checkSqliteBackup,
  rotateSecrets,
  type RotationResult,
} from './appDrivers.js';

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
  const foundation = await openFoundation(config, options, lifecycle);
  const { control, clock, wireClock, tls, tracing, storage, secrets, bus, sharedState, blobs } =
    foundation;
  const core = await createAppCore(config, { overrides, logger, lifecycle, foundation });
  const { seeds, ids, authenticator, rateLimiter, events, revocations, webhookEvents } = core;
  const { autoModRules, searchIndexer, signer } = core;
  const rateLimitStore = sharedState.rateLimits;
  // Until listen() learns the real port, the configured one stands in (for app.inject()).
  let base = publicBaseUrl(config, config.port);
  const baseUrl = () => base;
  // The port activity origins carry when there is no public URL (known once listening).
  let listeningPort = config.port;
  const services = composeServices(config, {
    ...{ options, lifecycle, foundation, core, baseUrl },
    listeningPort: () => listeningPort,
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
    secrets,
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
    ...{ config, overrides, storage, bus, clock, wireClock, logger, metrics },
    keyring: secrets.keyring,
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
