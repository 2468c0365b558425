/**
 * @module sharedState: the limits, counters and presences nodes share. Drivers live in memory/
 * (one process) and redis/ (several nodes); appDrivers.ts picks.
 */
export type * from './types.js';
export { withFallback, type FallbackEvents } from './fallback.js';
