import type { FastifyInstance } from 'fastify';
import type { Storage } from '../../storage/index.js';
import { principalOf } from '../../http/server.js';
import { LARGE_BOT_SHARDING_MAX_CONCURRENCY, type SessionStartLimit } from './sessionStartLimit.js';

export interface GatewayRouteOptions {
  storage: Storage;
  sessionStartLimit: SessionStartLimit;
  /** The WebSocket URL clients connect to. */
  gatewayUrl: () => string;
}

/** Guilds one shard should carry, as the platform recommends. */
export const GUILDS_PER_SHARD = 1000;

export function registerGatewayRoutes(app: FastifyInstance, options: GatewayRouteOptions): void {
  const { storage, sessionStartLimit, gatewayUrl } = options;

  app.get('/gateway', { config: { auth: 'none' } }, () => ({ url: gatewayUrl() }));

  app.get('/gateway/bot', { config: { auth: ['bot'] } }, async (request) => {
    const principal = principalOf(request);
    const [guildCount, sessionStart, application] = await Promise.all([
      storage.guilds.countForUser(principal.user.id),
      sessionStartLimit.read(principal.user.id),
      principal.applicationId === null
        ? null
        : storage.applications.findById(principal.applicationId),
    ]);
    return {
      url: gatewayUrl(),
      shards: Math.max(1, Math.ceil(guildCount / GUILDS_PER_SHARD)),
      session_start_limit: application?.largeBotSharding
        ? { ...sessionStart, max_concurrency: LARGE_BOT_SHARDING_MAX_CONCURRENCY }
        : sessionStart,
    };
  });
}
