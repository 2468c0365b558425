import type { IdentifyBuckets, IdentifyQuota } from '../types.js';

/** Expired buckets are pruned once there are this many. */
const PRUNE_FROM_BUCKETS = 10_000;

interface Bucket {
  /** Start of the window the next identify falls in (in the future while identifies queue). */
  windowStart: number;
  used: number;
}

/** The identify buckets of one process. */
export class MemoryIdentifyBuckets implements IdentifyBuckets {
  readonly #buckets = new Map<string, Bucket>();

  /** Forgets everything kept (a server returned to a snapshot). */
  clear(): void {
    this.#buckets.clear();
  }

  reserve(key: string, quota: IdentifyQuota, nowMs: number): Promise<number> {
    let bucket = this.#buckets.get(key);
    if (bucket === undefined || bucket.windowStart + quota.windowMs <= nowMs) {
      bucket = { windowStart: nowMs, used: 0 };
      this.#buckets.set(key, bucket);
    }
    if (bucket.used >= Math.max(1, quota.perWindow)) {
      bucket.windowStart += quota.windowMs;
      bucket.used = 0;
    }
    bucket.used++;
    const startAt = bucket.windowStart;
    this.#prune(quota.windowMs, nowMs);
    return Promise.resolve(startAt);
  }

  #prune(windowMs: number, nowMs: number) {
    if (this.#buckets.size < PRUNE_FROM_BUCKETS) return;
    for (const [key, bucket] of this.#buckets) {
      if (bucket.windowStart + windowMs <= nowMs) this.#buckets.delete(key);
    }
  }
}
