/**
 * @module sharedState: the limits, counters and presences nodes share. Drivers live in memory/
 * (one process) and redis/ (several nodes); app.ts picks.
 */
export type * from './types.js';
export { DEFAULT_PRESENCE_TTL_MS } from './types.js';
export { withFallback, type FallbackEvents } from './fallback.js';
