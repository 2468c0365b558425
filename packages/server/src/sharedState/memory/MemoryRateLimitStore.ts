import type {
  BucketLimit,
  ChainResult,
  ChainStep,
  ConsumeResult,
  RateLimitStore,
} from '../types.js';

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

  /** Forgets everything kept (a server returned to a snapshot). */
  clear(): void {
    this.#windows.clear();
  }

  consume(key: string, limit: BucketLimit, nowMs: number): ConsumeResult {
    return this.#step({ key, limit, count: true }, nowMs);
  }

  peek(key: string, limit: BucketLimit, nowMs: number): ConsumeResult {
    return this.#step({ key, limit, count: false }, nowMs);
  }

  consumeChain(steps: readonly ChainStep[], nowMs: number): ChainResult {
    const results: ConsumeResult[] = [];
    for (const step of steps) {
      const result = this.#step(step, nowMs);
      results.push(result);
      if (!result.allowed) return { refusedAt: results.length - 1, results };
    }
    return { refusedAt: -1, results };
  }

  /** One step: refused when the window is full, else counted when the step counts. */
  #step({ key, limit, count }: ChainStep, nowMs: number): ConsumeResult {
    if (count && ++this.#sinceSweep >= this.#sweepEvery) this.#sweep(nowMs);
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAtMs <= nowMs) {
      window = { count: 0, resetAtMs: nowMs + limit.windowMs };
      // A peek leaves no window behind: only a counted request starts one.
      if (count) this.#windows.set(key, window);
    }
    const allowed = window.count < limit.limit;
    if (allowed && count) window.count += 1;
    return {
      allowed,
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
