/**
 * @module appCore: the parts of the composition root that the services and the transports
 * share, built on the foundation (appFoundation.ts): ids and entropy, the authenticator and the
 * rate limiter, the dispatcher and the revocations (with the caches they drop), the search
 * indexer, the webhook event worker and the attachment signer.
 */
import type { Foundation } from './appFoundation.js';
import type { AppOverrides } from './appTypes.js';
import type { Config } from './config.js';
import { createWebhookEventsService } from './delivery/service.js';
import { DEFAULT_DELIVERY_SETTINGS } from './delivery/worker.js';
import type { Lifecycle } from './domain/lifecycle.js';
import { createSeedSwitch, systemEntropy } from './domain/seeded.js';
import { SECOND_MS, DAY_MS } from './domain/time.js';
import { createBusDispatcher } from './events/dispatcher.js';
import { createRevocations } from './events/revocations.js';
import { activeTraceparent } from './events/tracing.js';
import { createAuthenticator } from './http/authenticator.js';
import { createRateLimiter } from './http/rateLimit/index.js';
import { createAutoModRuleCache } from './resources/autoModeration/index.js';
import { loadAttachmentSigner } from './resources/messages/index.js';
import { createSearchIndexer } from './resources/search/index.js';
import { leasedIdGenerator } from './workerLease.js';
import type { Logger } from 'pino';

export async function createAppCore(
  config: Config,
  deps: { overrides: AppOverrides; logger: Logger; lifecycle: Lifecycle; foundation: Foundation },
) {
  const { overrides, logger, lifecycle } = deps;
  const { storage, clock, wireClock, bus, workerLease, tracing, control } = deps.foundation;
  // Ids and credentials follow a world's seed while it loads (App.withSeed), else clock and chance.
  const seeds = createSeedSwitch({
    ids: leasedIdGenerator(workerLease, clock),
    entropy: systemEntropy,
  });
  const sessionTtlMs = config.sessionTtlDays * DAY_MS;
  const authenticator = createAuthenticator({
    storage,
    clock,
    cacheTtlMs: config.authCacheSeconds * SECOND_MS,
    sessionTtlMs,
  });
  const rateLimiter = config.rateLimits
    ? createRateLimiter({
        store: deps.foundation.sharedState.rateLimits,
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
  const searchIndexer = createSearchIndexer({
    storage,
    clock,
    onError: (err, guildId) => {
      logger.error({ err, guildId }, 'search index backfill failed');
    },
  });
  lifecycle.add({ name: 'search indexer', stop: () => searchIndexer.close() });
  const webhookEvents = createWebhookEventsService({
    ...{ storage, clock, ids: seeds.ids, logger, secrets: deps.foundation.secrets.box },
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
    secrets: deps.foundation.secrets.box,
  });
  return {
    ...{ seeds, ids: seeds.ids, sessionTtlMs, authenticator, rateLimiter, events, revocations },
    ...{ autoModRules, searchIndexer, webhookEvents, signer },
  };
}

export type AppCore = Awaited<ReturnType<typeof createAppCore>>;
