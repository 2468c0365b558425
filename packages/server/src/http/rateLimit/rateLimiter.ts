import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../domain/clock.js';
import { RateLimitedError } from '../../errors/index.js';
import type {
  BucketLimit,
  ChainResult,
  ChainStep,
  ConsumeResult,
  RateLimitStore,
} from '../../sharedState/index.js';

/** What a route may say about its limits, in its `config.rateLimit`. */
export interface RouteRateLimit {
  /** Its own bucket instead of the default one. */
  bucket?: BucketLimit;
  /** false exempts the route from the global limit (the platform does so for interactions). */
  global?: boolean;
  /**
   * The account a request is aimed at, read from its parsed body (login: the email or username
   * tried): it gets the route's bucket too, so changing address does not buy more attempts.
   */
  account?: (request: FastifyRequest) => string | null;
  /**
   * true: the route's bucket belongs to the resource it names, whoever calls (a webhook's
   * executes, as on the platform); its refusals have the `shared` scope.
   */
  shared?: boolean;
}

/**
 * The limits of the CDN file routes (images, stickers, attachments). A page or a bot loads many
 * files at once, so these skip the API's global limit and get a larger bucket per caller and
 * route than the API's default; image conversions are bounded on their own (docs/cdn.md).
 */
export const CDN_RATE_LIMIT = {
  bucket: { limit: 250, windowMs: 5000 },
  global: false,
} as const satisfies RouteRateLimit;

export interface RateLimiterOptions {
  store: RateLimitStore;
  clock: Clock;
  /** Requests per second a bot or user (or, unauthenticated, an address) may make in all. */
  globalPerSecond: number;
  /** The bucket of a route that names none. */
  defaultBucket: BucketLimit;
  /**
   * 401, 403 and 429 answers an address, or an authenticated user from any address, may collect
   * before it is refused outright (10,000 per 10 minutes: docs/platform-notes.md#rate-limits).
   */
  invalidRequests?: BucketLimit;
}

export const DEFAULT_INVALID_REQUEST_LIMIT = {
  limit: 10_000,
  windowMs: 10 * 60_000,
} as const satisfies BucketLimit;

const INVALID_STATUSES = new Set([401, 403, 429]);

/**
 * Answers that say the top-level resource a request named is unknown or not the caller's. A
 * bucket per resource would let a caller dodge its route limit by naming a new unknown id each
 * time, so these count into one bucket per caller and route instead.
 */
const MISS_STATUSES = new Set([403, 404]);

/** The top-level resources a bucket is also keyed by (docs/platform-notes.md#rate-limits). */
const MAJOR_PARAMS = ['channel_id', 'guild_id', 'webhook_id'] as const;

const MS_PER_SECOND = 1000;

/** Milliseconds as seconds with three decimals ("5.000"); integers without toFixed, 4x faster. */
function seconds(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) return (Math.max(0, ms) / MS_PER_SECOND).toFixed(3);
  const rest = ms % MS_PER_SECOND;
  const decimals = rest < 10 ? `.00${rest}` : rest < 100 ? `.0${rest}` : `.${rest}`;
  return `${(ms - rest) / MS_PER_SECOND}${decimals}`;
}

/** The X-RateLimit-* headers of a bucket's state (docs/platform-notes.md#rate-limits). */
export function rateLimitHeaders(
  result: ConsumeResult,
  bucket: string,
  nowMs: number,
): Record<string, string> {
  return {
    'x-ratelimit-limit': String(result.limit),
    'x-ratelimit-remaining': String(Math.max(0, result.remaining)),
    'x-ratelimit-reset': seconds(result.resetAtMs),
    'x-ratelimit-reset-after': seconds(result.resetAtMs - nowMs),
    'x-ratelimit-bucket': bucket,
  };
}

export interface RateLimiter {
  /**
   * Refuses an address that has collected too many 401, 403 and 429 answers: for a request that
   * may be refused, or cost a database read, before {@link RateLimiter.check} (which checks the
   * address too).
   */
  checkAddress(request: FastifyRequest): void | Promise<void>;
  /**
   * Refuses an address or user who has collected too many 401, 403 and 429 answers, then counts
   * the request against the global limit and its route bucket, all in one store call; sets the
   * X-RateLimit-* headers, or throws RateLimitedError.
   *
   * Both answer at once (no promise; a refusal thrown at once) when the store does, as the
   * in-memory one always does: on a request whose token is cached, the limiter is then the only
   * step between its arrival and its route, and a promise per request cost a measurable share.
   */
  check(request: FastifyRequest, reply: FastifyReply): void | Promise<void>;
  /** Counts the request against the account its body names, when its route says which. */
  checkAccount(request: FastifyRequest): Promise<void>;
  /**
   * Counts a 401, 403 or 429 answer against the caller's address and user, and a 403 or 404 on a
   * route keyed by a top-level resource against the caller's misses on that route.
   */
  recordAnswer(request: FastifyRequest, statusCode: number): Promise<void> | undefined;
}

/** A route's limits, worked out once per route and method rather than on every request. */
interface RouteLimits {
  /** The opaque bucket id; null for a request that matched no route (a 404). */
  bucket: string | null;
  limit: BucketLimit;
  /** false when the route skips the global limit. */
  global: boolean;
  account: RouteRateLimit['account'] | null;
  shared: boolean;
}

/** A step of check's chain, and whether its refusal is the global kind or the route's. */
interface CheckStep extends ChainStep {
  scope: 'global' | 'route';
}

/**
 * Per-route buckets keyed by caller, route and top-level resource, under a global limit per
 * caller, with the platform's headers (docs/platform-notes.md#rate-limits).
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { store, clock, globalPerSecond, defaultBucket } = options;
  const invalidLimit = options.invalidRequests ?? DEFAULT_INVALID_REQUEST_LIMIT;
  const invalidKey = (request: FastifyRequest) => `invalid:${request.ip}`;
  const invalidUserKey = (userId: string) => `invalid:u${userId}`;
  const globalLimit: BucketLimit = { limit: globalPerSecond, windowMs: 1000 };
  // Keyed by Fastify's config object of each route, then by method (a route may serve several):
  // no "METHOD url" string to build and look up, and one routeOptions read, per request.
  const routeLimits = new WeakMap<object, Map<string, RouteLimits | null>>();

  /** The limits of the request's route; null when the route is exempt from every limit. */
  const limitsOf = (request: FastifyRequest): RouteLimits | null => {
    const config = request.routeOptions.config;
    let byMethod = routeLimits.get(config);
    if (byMethod === undefined) {
      byMethod = new Map();
      routeLimits.set(config, byMethod);
    }
    let limits = byMethod.get(request.method);
    if (limits === undefined) {
      const rateLimit = config.rateLimit;
      // A request that matched no route (a 404) has no url, whatever the type says.
      const { url } = config as { url?: string };
      limits =
        rateLimit === false
          ? null
          : {
              // Opaque and free of resource ids, as the platform's are.
              bucket:
                url === undefined
                  ? null
                  : createHash('sha256')
                      .update(`${request.method} ${url}`)
                      .digest('hex')
                      .slice(0, 32),
              limit: rateLimit?.bucket ?? defaultBucket,
              global: rateLimit?.global !== false,
              account: rateLimit?.account ?? null,
              shared: rateLimit?.shared === true,
            };
      byMethod.set(request.method, limits);
    }
    return limits;
  };

  const callerOf = (request: FastifyRequest) =>
    request.principal ? `u${request.principal.user.id}` : `ip${request.ip}`;

  /** The bucket a request counts against: its route, and the top-level resource it names. */
  const routeOf = (request: FastifyRequest, limits: RouteLimits | null) => {
    const bucket = limits?.bucket ?? null;
    if (limits === null || bucket === null) return null;
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    let major: string | null = null;
    for (const name of MAJOR_PARAMS) {
      const value = params[name];
      if (value !== undefined) {
        major = name === 'webhook_id' ? `${value}/${params['webhook_token'] ?? ''}` : value;
        break;
      }
    }
    const caller = callerOf(request);
    return {
      caller,
      bucket,
      major,
      limit: limits.limit,
      missKey: `m:${caller}:${bucket}`,
      shared: limits.shared,
    };
  };

  const routeLimited = (
    result: ConsumeResult,
    bucket: string,
    { now, scope = 'user' }: { now: number; scope?: 'user' | 'shared' },
  ) =>
    new RateLimitedError({
      retryAfterSeconds: (result.resetAtMs - now) / 1000,
      global: false,
      scope,
      headers: { ...rateLimitHeaders(result, bucket, now), 'x-ratelimit-scope': scope },
    });

  const globalLimited = (resetAtMs: number, now: number) =>
    new RateLimitedError({
      retryAfterSeconds: (resetAtMs - now) / 1000,
      global: true,
      scope: 'global',
      headers: { 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
    });

  return {
    checkAddress(request) {
      const now = clock.now();
      const settle = (state: ConsumeResult) => {
        if (state.remaining <= 0) throw globalLimited(state.resetAtMs, now);
      };
      const state = store.peek(invalidKey(request), invalidLimit, now);
      if (state instanceof Promise) return state.then(settle);
      settle(state);
      return undefined;
    },

    recordAnswer(request, statusCode) {
      // Most answers count nothing: no promise is made for them.
      if (!INVALID_STATUSES.has(statusCode) && !MISS_STATUSES.has(statusCode)) return undefined;
      return (async () => {
        if (INVALID_STATUSES.has(statusCode)) {
          await store.consume(invalidKey(request), invalidLimit, clock.now());
          const userId = request.principal?.user.id;
          if (userId !== undefined)
            await store.consume(invalidUserKey(userId), invalidLimit, clock.now());
        }
        const route = MISS_STATUSES.has(statusCode) ? routeOf(request, limitsOf(request)) : null;
        if (route !== null && route.major !== null) {
          await store.consume(route.missKey, route.limit, clock.now());
        }
      })();
    },

    check(request, reply) {
      const limits = limitsOf(request);
      if (limits === null) return undefined;
      const now = clock.now();
      // Every limit of the request in one store call (one Redis round trip), in the order they
      // apply: the first refusal ends the chain, so a limit after it is neither read nor counted.
      const chain: CheckStep[] = [
        { key: invalidKey(request), limit: invalidLimit, count: false, scope: 'global' },
      ];
      if (request.principal !== null) {
        const key = invalidUserKey(request.principal.user.id);
        chain.push({ key, limit: invalidLimit, count: false, scope: 'global' });
      }
      if (limits.global) {
        const key = `g:${callerOf(request)}`;
        chain.push({ key, limit: globalLimit, count: true, scope: 'global' });
      }
      const route = routeOf(request, limits);
      if (route !== null) {
        // A caller whose misses on this route spent its bucket waits, whatever id it names next.
        if (route.major !== null)
          chain.push({ key: route.missKey, limit: route.limit, count: false, scope: 'route' });
        const owner = route.shared ? 'shared' : route.caller;
        const key = `r:${owner}:${route.bucket}:${route.major ?? ''}`;
        chain.push({ key, limit: route.limit, count: true, scope: 'route' });
      }
      const settle = ({ refusedAt, results }: ChainResult) => {
        const refusing = chain[refusedAt];
        const refused = results[refusedAt];
        if (refusing !== undefined && refused !== undefined) {
          throw refusing.scope === 'route' && route !== null
            ? routeLimited(refused, route.bucket, { now, scope: route.shared ? 'shared' : 'user' })
            : globalLimited(refused.resetAtMs, now);
        }
        const bucket = results.at(-1);
        if (route !== null && bucket !== undefined) {
          void reply.headers(rateLimitHeaders(bucket, route.bucket, now));
        }
      };
      const answer = store.consumeChain(chain, now);
      if (answer instanceof Promise) return answer.then(settle);
      settle(answer);
      return undefined;
    },

    async checkAccount(request) {
      const limits = limitsOf(request);
      const account = limits?.account?.(request) ?? null;
      const route = routeOf(request, limits);
      if (route === null || account === null) return;
      const now = clock.now();
      const result = await store.consume(`a:${route.bucket}:${account}`, route.limit, now);
      if (!result.allowed) throw routeLimited(result, route.bucket, { now });
    },
  };
}
