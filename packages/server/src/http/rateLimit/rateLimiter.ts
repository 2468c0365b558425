import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../domain/clock.js';
import { RateLimitedError } from '../../errors/index.js';
import type { BucketLimit, ConsumeResult, RateLimitStore } from './types.js';

/** What a route may say about its limits, in its `config.rateLimit`. */
export interface RouteRateLimit {
  /** Its own bucket instead of the default one. */
  bucket?: BucketLimit;
  /** false exempts the route from the global limit (the platform does so for interactions). */
  global?: boolean;
}

export interface RateLimiterOptions {
  store: RateLimitStore;
  clock: Clock;
  /** Requests per second a bot or user (or, unauthenticated, an address) may make in all. */
  globalPerSecond: number;
  /** The bucket of a route that names none. */
  defaultBucket: BucketLimit;
  /**
   * 401, 403 and 429 answers an address may collect before it is refused outright (10,000 per
   * 10 minutes: docs/platform-notes.md#rate-limits).
   */
  invalidRequests?: BucketLimit;
}

export const DEFAULT_INVALID_REQUEST_LIMIT = {
  limit: 10_000,
  windowMs: 10 * 60_000,
} as const satisfies BucketLimit;

const INVALID_STATUSES = new Set([401, 403, 429]);

/** The top-level resources a bucket is also keyed by (docs/platform-notes.md#rate-limits). */
const MAJOR_PARAMS = ['channel_id', 'guild_id', 'webhook_id'] as const;

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

function headersOf(result: ConsumeResult, bucket: string, nowMs: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(result.limit),
    'x-ratelimit-remaining': String(Math.max(0, result.remaining)),
    'x-ratelimit-reset': seconds(result.resetAtMs),
    'x-ratelimit-reset-after': seconds(result.resetAtMs - nowMs),
    'x-ratelimit-bucket': bucket,
  };
}

export interface RateLimiter {
  /** Refuses an address that has collected too many 401, 403 and 429 answers. */
  checkAddress(request: FastifyRequest): Promise<void>;
  /** Counts the request; sets the X-RateLimit-* headers, or throws RateLimitedError. */
  check(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Counts a 401, 403 or 429 answer against the caller's address. */
  recordAnswer(request: FastifyRequest, statusCode: number): Promise<void>;
}

/**
 * Per-route buckets keyed by caller, route and top-level resource, under a global limit per
 * caller, with the platform's headers (docs/platform-notes.md#rate-limits).
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { store, clock, globalPerSecond, defaultBucket } = options;
  const invalidLimit = options.invalidRequests ?? DEFAULT_INVALID_REQUEST_LIMIT;
  const invalidKey = (request: FastifyRequest) => `invalid:${request.ip}`;
  const globalLimit: BucketLimit = { limit: globalPerSecond, windowMs: 1000 };
  const bucketIds = new Map<string, string>();

  const bucketIdOf = (route: string) => {
    let bucket = bucketIds.get(route);
    if (bucket === undefined) {
      // Opaque and free of resource ids, as the platform's are.
      bucket = createHash('sha256').update(route).digest('hex').slice(0, 32);
      bucketIds.set(route, bucket);
    }
    return bucket;
  };

  const globalLimited = (resetAtMs: number, now: number) =>
    new RateLimitedError({
      retryAfterSeconds: (resetAtMs - now) / 1000,
      global: true,
      scope: 'global',
      headers: { 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
    });

  return {
    async checkAddress(request) {
      const now = clock.now();
      const state = await store.peek(invalidKey(request), invalidLimit, now);
      if (state.remaining > 0) return;
      throw globalLimited(state.resetAtMs, now);
    },

    async recordAnswer(request, statusCode) {
      if (INVALID_STATUSES.has(statusCode)) {
        await store.consume(invalidKey(request), invalidLimit, clock.now());
      }
    },

    async check(request, reply) {
      const config = request.routeOptions.config.rateLimit;
      if (config === false) return;
      const caller = request.principal ? `u${request.principal.user.id}` : `ip${request.ip}`;
      const now = clock.now();

      if (config?.global !== false) {
        const global = await store.consume(`g:${caller}`, globalLimit, now);
        if (!global.allowed) throw globalLimited(global.resetAtMs, now);
      }

      const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
      const bucket = bucketIdOf(route);
      const params = request.params as Record<string, string | undefined>;
      let major = '';
      for (const name of MAJOR_PARAMS) {
        const value = params[name];
        if (value !== undefined) {
          major = name === 'webhook_id' ? `${value}/${params['webhook_token'] ?? ''}` : value;
          break;
        }
      }
      const result = await store.consume(
        `r:${caller}:${bucket}:${major}`,
        config?.bucket ?? defaultBucket,
        now,
      );
      const headers = headersOf(result, bucket, now);
      if (!result.allowed) {
        throw new RateLimitedError({
          retryAfterSeconds: (result.resetAtMs - now) / 1000,
          global: false,
          scope: 'user',
          headers: { ...headers, 'x-ratelimit-scope': 'user' },
        });
      }
      void reply.headers(headers);
    },
  };
}
