/** @module sharedState/memory: the shared state of a single process (no REDIS_URL). */
import type { SharedState } from '../types.js';
import { MemoryIdentifyBuckets } from './identifyBuckets.js';
import { MemoryPresenceStore } from './presences.js';
import { MemoryRateLimitStore } from './MemoryRateLimitStore.js';
import { MemoryVoiceNodeStore } from './voiceNodes.js';

export { MemoryIdentifyBuckets, MemoryPresenceStore, MemoryRateLimitStore, MemoryVoiceNodeStore };

/** Limits, identify buckets and presences in this process's memory. */
export function createMemorySharedState(options: { presenceTtlMs?: number } = {}): SharedState {
  return {
    driver: 'memory',
    rateLimits: new MemoryRateLimitStore(),
    identifyBuckets: new MemoryIdentifyBuckets(),
    presences: new MemoryPresenceStore(
      options.presenceTtlMs === undefined ? {} : { ttlMs: options.presenceTtlMs },
    ),
    voiceNodes: new MemoryVoiceNodeStore(),
    close: () => Promise.resolve(),
  };
}
