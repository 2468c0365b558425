import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';

import { TEST_REDIS_URL } from './serviceUrls.js';

export { TEST_REDIS_URL } from './serviceUrls.js';

/**
 * Whether the Redis tests run: the server answered the probe of `globalSetup.ts` (which fails the
 * run under CI=true when it did not).
 */
export const redisAvailable = inject('redisFailure') === null;

/** A fresh key prefix, so parallel tests never see each other's keys. */
export function uniqueRedisPrefix(prefix = 't'): string {
  return `guildhall-test:${prefix}_${randomBytes(6).toString('hex')}:`;
}

/** How many keys one SCAN step asks for while deleting a prefix. */
const SCAN_COUNT = 500;

/** Deletes every key under a prefix made by {@link uniqueRedisPrefix}. */
export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true });
  await client.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', SCAN_COUNT);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/** Every key under a prefix with its TTL in ms (-1: none), to check what stores leave behind. */
export async function redisKeyTtls(prefix: string): Promise<Map<string, number>> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true });
  await client.connect();
  try {
    const keys = await client.keys(`${prefix}*`);
    const ttls = await Promise.all(keys.map((key) => client.pttl(key)));
    return new Map(keys.map((key, i) => [key, ttls[i] ?? -2]));
  } finally {
    client.disconnect();
  }
}
