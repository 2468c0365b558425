import type { Redis } from 'ioredis';
import type { IdentifyBuckets, IdentifyQuota } from '../types.js';
import { gcGraceMs, redisKey } from './keys.js';

const KIND = 'identify';

/** The identify buckets of every node on the same prefix: one queue per bucket, cluster-wide. */
export class RedisIdentifyBuckets implements IdentifyBuckets {
  readonly #client: Redis;
  readonly #prefix: string;

  constructor(client: Redis, prefix: string) {
    this.#client = client;
    this.#prefix = prefix;
  }

  reserve(key: string, quota: IdentifyQuota, nowMs: number): Promise<number> {
    return this.#client.guildhallReserve(
      redisKey(this.#prefix, KIND, key),
      Math.max(1, quota.perWindow),
      quota.windowMs,
      nowMs,
      gcGraceMs(quota.windowMs),
    );
  }
}
