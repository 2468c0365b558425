import type { Redis } from 'ioredis';
import type {
  BucketLimit,
  ChainResult,
  ChainStep,
  ConsumeResult,
  RateLimitStore,
} from '../types.js';
import { gcGraceMs, redisKey } from './keys.js';

const KIND = 'rl';
/** The script's answer holds three numbers per step reached: allowed, count, reset at. */
const FIELDS_PER_STEP = 3;

/**
 * Fixed windows in Redis hashes, shared by every node on the same prefix. Every call, a single
 * consume or peek as well as a chain, is one run of the chain script: one round trip.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #client: Redis;
  readonly #prefix: string;

  constructor(client: Redis, prefix: string) {
    this.#client = client;
    this.#prefix = prefix;
  }

  async consume(key: string, limit: BucketLimit, nowMs: number): Promise<ConsumeResult> {
    return this.#single({ key, limit, count: true }, nowMs);
  }

  async peek(key: string, limit: BucketLimit, nowMs: number): Promise<ConsumeResult> {
    return this.#single({ key, limit, count: false }, nowMs);
  }

  async consumeChain(steps: readonly ChainStep[], nowMs: number): Promise<ChainResult> {
    if (steps.length === 0) return { refusedAt: -1, results: [] };
    const keys = steps.map((step) => redisKey(this.#prefix, KIND, step.key));
    const args: number[] = [nowMs];
    for (const { count, limit } of steps) {
      args.push(count ? 1 : 0, limit.limit, limit.windowMs, gcGraceMs(limit.windowMs));
    }
    const flat = await this.#client.guildhallChain(steps.length, ...keys, ...args);
    const results: ConsumeResult[] = [];
    let refusedAt = -1;
    for (const [i, step] of steps.entries()) {
      const at = i * FIELDS_PER_STEP;
      if (at >= flat.length) break;
      const [allowed = 0, count = 0, resetAtMs = 0] = flat.slice(at, at + FIELDS_PER_STEP);
      results.push({
        allowed: allowed === 1,
        limit: step.limit.limit,
        remaining: step.limit.limit - count,
        resetAtMs,
      });
      if (allowed !== 1) refusedAt = i;
    }
    return { refusedAt, results };
  }

  async #single(step: ChainStep, nowMs: number): Promise<ConsumeResult> {
    const { results } = await this.consumeChain([step], nowMs);
    const [result] = results;
    if (result === undefined) throw new Error('the rate limit script answered no step');
    return result;
  }
}
