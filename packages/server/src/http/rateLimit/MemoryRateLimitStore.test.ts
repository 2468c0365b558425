import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from './MemoryRateLimitStore.js';

describe('MemoryRateLimitStore', () => {
  const limit = { limit: 2, windowMs: 1000 };

  it('allows `limit` requests per window, then refuses until the window ends', () => {
    const store = new MemoryRateLimitStore();
    expect(store.consume('k', limit, 0)).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      resetAtMs: 1000,
    });
    expect(store.consume('k', limit, 10)).toMatchObject({ allowed: true, remaining: 0 });
    expect(store.consume('k', limit, 999)).toMatchObject({
      allowed: false,
      remaining: 0,
      resetAtMs: 1000,
    });
    expect(store.consume('k', limit, 1000)).toMatchObject({
      allowed: true,
      remaining: 1,
      resetAtMs: 2000,
    });
  });

  it('keeps keys apart and peeks without counting', () => {
    const store = new MemoryRateLimitStore();
    store.consume('a', limit, 0);
    expect(store.peek('a', limit, 0)).toMatchObject({ remaining: 1 });
    expect(store.peek('a', limit, 0)).toMatchObject({ remaining: 1 });
    expect(store.consume('b', limit, 0)).toMatchObject({ remaining: 1 });
  });

  it('sweeps expired windows', () => {
    const store = new MemoryRateLimitStore({ sweepEveryConsumes: 3 });
    store.consume('a', limit, 0);
    store.consume('b', limit, 0);
    expect(store.size).toBe(2);
    store.consume('c', limit, 5000);
    expect(store.size).toBe(1);
  });
});
