/**
 * The activity parts of the composition root: the proxy host of an API node
 * (activities/proxyServer.ts) and the watch that takes people out of instances
 * (activities/participantWatch.ts).
 */
import { createParticipantWatch } from './activities/participantWatch.js';
import { createActivityProxy, type ActivityProxy } from './activities/proxyServer.js';
import type { AppOverrides } from './appTypes.js';
import { roleServes, type Config } from './config.js';
import type { Clock } from './domain/clock.js';
import type { Component, Lifecycle } from './domain/lifecycle.js';
import type { createRevocations } from './events/revocations.js';
import { clientAddressOf } from './http/server.js';
import type { Logger } from 'pino';
import type { Storage } from './storage/index.js';

export interface AppActivityProxyDeps {
  config: Config;
  overrides: AppOverrides;
  storage: Pick<Storage, 'activities' | 'applications'>;
  /** The wire clock: proxy timeouts follow real time. */
  clock: Clock;
  logger: Logger;
  revocations: Pick<ReturnType<typeof createRevocations>, 'listen'>;
  /** The port the API listens on, once it does. */
  port: () => number;
}

/**
 * The proxy host on a node that serves the API, else null. It shares every API listener (the
 * Host header tells them apart), drops an application's URL mappings when any node's revocation
 * names them; {@link activityProxyPart} stops it.
 */
export function createAppActivityProxy(deps: AppActivityProxyDeps): ActivityProxy | null {
  const { config, revocations } = deps;
  if (!roleServes(config.role, 'api')) return null;
  const proxy = createActivityProxy({
    config,
    mappings: deps.storage.activities,
    verifyKeys: {
      verifyKey: async (applicationId) =>
        (await deps.storage.applications.findById(applicationId))?.verifyKey ?? null,
    },
    clock: deps.clock,
    port: deps.port,
    clientAddress: (request) => clientAddressOf(request, config.trustProxy),
    logger: deps.logger,
    ...(deps.overrides.activityProxy ?? {}),
  });
  // An application's changed URL mappings, on any node, are read again here.
  revocations.listen(({ activityApplicationIds }) => {
    for (const applicationId of activityApplicationIds) proxy.forgetMappings(applicationId);
  });
  return proxy;
}

/**
 * The proxy host's part of the node's lifecycle: added after the HTTP listener's, so it stops
 * first (parts stop in reverse) and its proxied WebSockets do not hold the listener open.
 */
export function activityProxyPart(proxy: ActivityProxy): Component {
  return {
    name: 'activity proxy',
    stop: () => {
      proxy.close();
    },
  };
}

/**
 * People leave activity instances when they leave the voice channel or the guild, or close their
 * last gateway session (an instance outside voice); a lifecycle part of the node.
 */
export function watchActivityParticipants(
  deps: Omit<Parameters<typeof createParticipantWatch>[0], 'onError'> & {
    logger: Logger;
    lifecycle: Lifecycle;
  },
): ReturnType<typeof createParticipantWatch> {
  const { logger, lifecycle, ...watched } = deps;
  const watch = createParticipantWatch({
    ...watched,
    onError: (err) => {
      logger.warn({ err }, 'activity participant not taken out of an instance');
    },
  });
  lifecycle.add(watch);
  return watch;
}
