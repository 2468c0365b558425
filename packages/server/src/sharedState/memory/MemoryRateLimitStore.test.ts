import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from './MemoryRateLimitStore.js';

// Its behaviour is the shared-state contract's (sharedState.test.ts); this is its own upkeep.
describe('MemoryRateLimitStore', () => {
  const limit = { limit: 2, windowMs: 1000 };

  it('sweeps expired windows', () => {
    const store = new MemoryRateLimitStore({ sweepEveryConsumes: 3 });
    store.consume('a', limit, 0);
    store.consume('b', limit, 0);
    expect(store.size).toBe(2);
    store.consume('c', limit, 5000);
    expect(store.size).toBe(1);
  });
});
