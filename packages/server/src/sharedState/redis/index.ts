/** @module sharedState/redis: the shared state of several nodes, in Redis (REDIS_URL). */
import type { SharedState } from '../types.js';
import { connectRedis } from './connection.js';
import { RedisIdentifyBuckets } from './identifyBuckets.js';
import { RedisPresenceStore } from './presences.js';
import { RedisRateLimitStore } from './rateLimits.js';
import { defineScripts } from './scripts.js';
import { RedisVoiceNodeStore } from './voiceNodes.js';

export { RedisUnavailableError, describeRedisUrl } from './connection.js';

export interface RedisSharedStateOptions {
  url: string;
  /** Prepended to every key, so deployments (or tests) sharing one Redis stay apart. */
  keyPrefix: string;
  presenceTtlMs?: number;
  /** Errors of the connection after the start (it reconnects by itself). */
  onError: (err: Error) => void;
}

/**
 * Connects to Redis and returns the shared state kept there.
 * @throws RedisUnavailableError when Redis does not answer at start.
 */
export async function openRedisSharedState(options: RedisSharedStateOptions): Promise<SharedState> {
  const client = await connectRedis({ url: options.url, onError: options.onError });
  defineScripts(client);
  const prefix = options.keyPrefix;
  return {
    driver: 'redis',
    rateLimits: new RedisRateLimitStore(client, prefix),
    identifyBuckets: new RedisIdentifyBuckets(client, prefix),
    presences: new RedisPresenceStore(client, {
      prefix,
      ...(options.presenceTtlMs === undefined ? {} : { ttlMs: options.presenceTtlMs }),
    }),
    voiceNodes: new RedisVoiceNodeStore(client, prefix),
    async close() {
      // Errors of a connection being closed (a write racing the QUIT) are no news.
      client.removeAllListeners('error');
      client.on('error', () => undefined);
      // QUIT waits for the replies of commands in flight; a dead connection is just dropped.
      await client.quit().catch(() => {
        client.disconnect();
      });
    },
  };
}
