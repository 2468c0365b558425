import type { Clock } from '../../domain/clock.js';
import type { BucketLimit, RateLimitStore } from '../../http/rateLimit/index.js';
import { DAY_MS } from '../../domain/time.js';

/**
 * IDENTIFYs a bot may start per day, and per 5-second window per bucket
 * (docs/platform-notes.md#gateway-limits).
 */
export interface SessionStartLimitOptions {
  store: RateLimitStore;
  clock: Clock;
  totalPerDay: number;
  maxConcurrency: number;
}

export const DEFAULT_SESSION_START_LIMIT = {
  totalPerDay: 1000,
  maxConcurrency: 1,
} as const satisfies Partial<SessionStartLimitOptions>;

/**
 * The max_concurrency of a bot whose application uses large bot sharding (large bots identify in
 * buckets of 16: docs/platform-notes.md#gateway-limits). GET /users/@me/guilds checks its `shard`
 * against it.
 */
export const LARGE_BOT_SHARDING_MAX_CONCURRENCY = 16;

/**
 * The session start budget of each bot, kept in the rate-limit store so every node sees the same
 * count. GET /gateway/bot reads it; the gateway spends it on each IDENTIFY.
 */
export function createSessionStartLimit(options: SessionStartLimitOptions) {
  const { store, clock, totalPerDay, maxConcurrency } = options;
  const daily: BucketLimit = { limit: totalPerDay, windowMs: DAY_MS };
  const key = (userId: string) => `identify:${userId}`;
  return {
    maxConcurrency,
    /** What GET /gateway/bot reports. */
    async read(userId: string) {
      const now = clock.now();
      const state = await store.peek(key(userId), daily, now);
      return {
        total: totalPerDay,
        remaining: state.remaining,
        reset_after: state.remaining === totalPerDay ? 0 : Math.max(0, state.resetAtMs - now),
        max_concurrency: maxConcurrency,
      };
    },
    /** Spends one session start; false when the day's budget is gone. */
    async spend(userId: string) {
      return (await store.consume(key(userId), daily, clock.now())).allowed;
    },
  };
}

export type SessionStartLimit = ReturnType<typeof createSessionStartLimit>;
