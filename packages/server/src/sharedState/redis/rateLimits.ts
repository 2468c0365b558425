import type { Redis } from 'ioredis';
import type { BucketLimit, ConsumeResult, RateLimitStore } from '../types.js';
import { gcGraceMs, redisKey } from './keys.js';

const KIND = 'rl';

/** Fixed windows in Redis hashes, shared by every node on the same prefix. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #client: Redis;
  readonly #prefix: string;

  constructor(client: Redis, prefix: string) {
    this.#client = client;
    this.#prefix = prefix;
  }

  async consume(key: string, limit: BucketLimit, nowMs: number): Promise<ConsumeResult> {
    const [allowed, count, resetAtMs] = await this.#client.guildhallConsume(
      redisKey(this.#prefix, KIND, key),
      limit.limit,
      limit.windowMs,
      nowMs,
      gcGraceMs(limit.windowMs),
    );
    return {
      allowed: allowed === 1,
      limit: limit.limit,
      remaining: limit.limit - count,
      resetAtMs,
    };
  }

  async peek(key: string, limit: BucketLimit, nowMs: number): Promise<ConsumeResult> {
    const [count, reset] = await this.#client.hmget(redisKey(this.#prefix, KIND, key), 'c', 'r');
    const resetAtMs = Number(reset);
    if (count === null || reset === null || resetAtMs <= nowMs) {
      return {
        allowed: true,
        limit: limit.limit,
        remaining: limit.limit,
        resetAtMs: nowMs + limit.windowMs,
      };
    }
    const used = Number(count);
    return {
      allowed: used < limit.limit,
      limit: limit.limit,
      remaining: limit.limit - used,
      resetAtMs,
    };
  }
}
