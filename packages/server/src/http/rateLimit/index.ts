/** @module http/rateLimit: buckets, the global limit, and where counts are kept. */
export type { BucketLimit, ConsumeResult, RateLimitStore } from './types.js';
export { MemoryRateLimitStore } from './MemoryRateLimitStore.js';
export {
  CDN_RATE_LIMIT,
  DEFAULT_INVALID_REQUEST_LIMIT,
  createRateLimiter,
  type RateLimiter,
  type RateLimiterOptions,
  type RouteRateLimit,
} from './rateLimiter.js';
