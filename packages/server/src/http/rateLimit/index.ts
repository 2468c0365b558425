/** @module http/rateLimit: buckets, the global limit and the platform's headers. */
export type { BucketLimit, ConsumeResult, RateLimitStore } from '../../sharedState/index.js';
export {
  CDN_RATE_LIMIT,
  DEFAULT_INVALID_REQUEST_LIMIT,
  createRateLimiter,
  rateLimitHeaders,
  type RateLimiter,
  type RateLimiterOptions,
  type RouteRateLimit,
} from './rateLimiter.js';
