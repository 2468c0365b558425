/**
 * @module appServiceWiring: the resources' services as the composition root makes them
 * (appServices.ts) from the foundation and the core: each option read from the config and the
 * overrides, and the services' background work (interaction deadlines, invite jobs) added to the
 * lifecycle.
 */
import { activityOrigin } from './activities/proxyHost.js';
import type { AppCore } from './appCore.js';
import type { Foundation } from './appFoundation.js';
import { createServices } from './appServices.js';
import type { AppOptions } from './appTypes.js';
import type { Config } from './config.js';
import { DEFAULT_SCRYPT_COST } from './domain/credentials.js';
import type { Lifecycle } from './domain/lifecycle.js';
import { DEFAULT_GATEWAY_OPTIONS, liveActivities } from './gateway/index.js';
import { createSocialLimits } from './resources/socialLimits/index.js';
import type { Logger } from 'pino';

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

export function composeServices(
  config: Config,
  deps: {
    options: AppOptions & { logger: Logger };
    lifecycle: Lifecycle;
    foundation: Foundation;
    core: AppCore;
    baseUrl: () => string;
    /** The port activity origins carry when there is no public URL (known once listening). */
    listeningPort: () => number;
  },
) {
  const { options, lifecycle, foundation, core, baseUrl } = deps;
  const { logger } = options;
  const overrides = options.overrides ?? {};
  const { storage, clock, wireClock, blobs, sharedState, control } = foundation;
  const { authenticator, revocations, webhookEvents, signer } = core;
  const services = createServices(
    {
      ...{ storage, clock, ids: core.ids, blobs, authenticator, revocations, webhookEvents },
      secrets: foundation.secrets.box,
      entropy: core.seeds.entropy,
      socialLimits: createSocialLimits({ storage, clock, store: sharedState.rateLimits }),
    },
    {
      events: core.events,
      baseUrl,
      links: () => ({ baseUrl: baseUrl(), signer }),
      searchIndexer: core.searchIndexer,
      onCommitTaskError: (err) => {
        logger.warn({ err }, 'blob not freed after commit (the sweep removes it)');
      },
      onLobbyMirrorError: (err, context) => {
        logger.warn({ err, ...context }, 'lobby message not mirrored into its linked channel');
      },
      auth: {
        sessionTtlMs: core.sessionTtlMs,
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
      autoModRules: core.autoModRules,
      // The proxy host's origin for the app (--activity-host, the public URL's scheme and port).
      activityOrigin: (applicationId) =>
        activityOrigin(config, deps.listeningPort(), applicationId),
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
  return services;
}
