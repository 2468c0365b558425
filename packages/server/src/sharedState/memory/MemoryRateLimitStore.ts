import type { BucketLimit, ConsumeResult, RateLimitStore } from '../types.js';

interface Window {
  count: number;
  resetAtMs: number;
}

export interface MemoryRateLimitStoreOptions {
  /** How often expired windows are swept, so idle keys do not pile up. */
  sweepEveryConsumes?: number;
}

/** Fixed windows in a Map: for one process. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, Window>();
  readonly #sweepEvery: number;
  #sinceSweep = 0;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.#sweepEvery = options.sweepEveryConsumes ?? 10_000;
  }

  consume(key: string, limit: BucketLimit, nowMs: number): ConsumeResult {
    if (++this.#sinceSweep >= this.#sweepEvery) this.#sweep(nowMs);
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAtMs <= nowMs) {
      window = { count: 0, resetAtMs: nowMs + limit.windowMs };
      this.#windows.set(key, window);
    }
    const allowed = window.count < limit.limit;
    if (allowed) window.count += 1;
    return {
      allowed,
      limit: limit.limit,
      remaining: limit.limit - window.count,
      resetAtMs: window.resetAtMs,
    };
  }

  peek(key: string, limit: BucketLimit, nowMs: number): ConsumeResult {
    const window = this.#windows.get(key);
    if (window === undefined || window.resetAtMs <= nowMs) {
      return {
        allowed: true,
        limit: limit.limit,
        remaining: limit.limit,
        resetAtMs: nowMs + limit.windowMs,
      };
    }
    return {
      allowed: window.count < limit.limit,
      limit: limit.limit,
      remaining: limit.limit - window.count,
      resetAtMs: window.resetAtMs,
    };
  }

  /** How many buckets are held (for tests and metrics). */
  get size(): number {
    return this.#windows.size;
  }

  #sweep(nowMs: number): void {
    this.#sinceSweep = 0;
    for (const [key, window] of this.#windows) {
      if (window.resetAtMs <= nowMs) this.#windows.delete(key);
    }
  }
}
