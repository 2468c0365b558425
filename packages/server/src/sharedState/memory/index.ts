/** @module sharedState/memory: the shared state of a single process (no REDIS_URL). */
import type { SharedState } from '../types.js';
import { MemoryIdentifyBuckets } from './identifyBuckets.js';
import { MemoryPresenceStore } from './presences.js';
import { MemoryRateLimitStore } from './MemoryRateLimitStore.js';
import { MemoryVoiceNodeStore } from './voiceNodes.js';

export { MemoryIdentifyBuckets, MemoryPresenceStore, MemoryRateLimitStore, MemoryVoiceNodeStore };

/** Limits, identify buckets and presences in this process's memory. */
export function createMemorySharedState(options: { presenceTtlMs?: number } = {}): SharedState {
  const rateLimits = new MemoryRateLimitStore();
  const identifyBuckets = new MemoryIdentifyBuckets();
  const presences = new MemoryPresenceStore(
    options.presenceTtlMs === undefined ? {} : { ttlMs: options.presenceTtlMs },
  );
  return {
    driver: 'memory',
    rateLimits,
    identifyBuckets,
    presences,
    voiceNodes: new MemoryVoiceNodeStore(),
    clear() {
      rateLimits.clear();
      identifyBuckets.clear();
      presences.clear();
    },
    close: () => Promise.resolve(),
  };
}
