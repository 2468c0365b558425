import { describe, expect, it } from 'vitest';
import {
  TEST_REDIS_URL,
  deleteRedisPrefix,
  redisAvailable,
  redisKeyTtls,
  uniqueRedisPrefix,
} from '../../test/support/redis.js';
import { describeSharedStateContract } from './contract/sharedStateContract.js';
import { createMemorySharedState } from './memory/index.js';
import { openRedisSharedState } from './redis/index.js';

const PRESENCE_TTL_MS = 30_000;

describeSharedStateContract('memory', () => {
  const state = createMemorySharedState({ presenceTtlMs: PRESENCE_TTL_MS });
  return Promise.resolve({
    first: state,
    second: state,
    presenceTtlMs: PRESENCE_TTL_MS,
    dispose: () => state.close(),
  });
});

/** Two connections on one prefix: two nodes. */
async function openRedisNodes(keyPrefix: string) {
  const open = () =>
    openRedisSharedState({
      url: TEST_REDIS_URL,
      keyPrefix,
      presenceTtlMs: PRESENCE_TTL_MS,
      onError: (err) => {
        throw err;
      },
    });
  return { first: await open(), second: await open() };
}

describeSharedStateContract(
  'redis',
  async () => {
    const prefix = uniqueRedisPrefix('contract');
    const { first, second } = await openRedisNodes(prefix);
    return {
      first,
      second,
      presenceTtlMs: PRESENCE_TTL_MS,
      async dispose() {
        await Promise.all([first.close(), second.close()]);
        // Whatever a store writes leaves Redis on its own, even if nobody asks for it again.
        for (const [key, ttl] of await redisKeyTtls(prefix)) {
          expect(ttl, key).toBeGreaterThan(0);
        }
        await deleteRedisPrefix(prefix);
      },
    };
  },
  { skip: !redisAvailable },
);

describe.skipIf(!redisAvailable)('Redis shared state', () => {
  it('keeps deployments with different prefixes apart', async () => {
    const prefixes = [uniqueRedisPrefix('a'), uniqueRedisPrefix('b')];
    const [a, b] = await Promise.all(prefixes.map((p) => openRedisNodes(p)));
    try {
      const limit = { limit: 1, windowMs: 1000 };
      expect(await a?.first.rateLimits.consume('k', limit, 0)).toMatchObject({ allowed: true });
      expect(await b?.first.rateLimits.consume('k', limit, 0)).toMatchObject({ allowed: true });
      await a?.first.presences.set('u', { status: 'online' }, 0);
      expect(await b?.second.presences.get(['u'], 0)).toEqual(new Map());
    } finally {
      for (const nodes of [a, b]) await Promise.all([nodes?.first.close(), nodes?.second.close()]);
      for (const prefix of prefixes) await deleteRedisPrefix(prefix);
    }
  });
});
