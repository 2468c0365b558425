import type { Timers } from '../domain/clock.js';
import type { Clock } from '../domain/clock.js';

/**
 * The window in which each identify bucket admits its quota
 * (docs/platform-notes.md#gateway-limits).
 */
export const IDENTIFY_WINDOW_MS = 5000;

/** Expired buckets are pruned once there are this many. */
const PRUNE_FROM_BUCKETS = 10_000;

interface Bucket {
  /** Start of the window the next identify falls in (may be in the future when queued). */
  windowStart: number;
  used: number;
}

/**
 * max_concurrency: each bucket key admits `perBucket` identifies per 5 s; the excess waits for a
 * later window instead of failing, so a storm of identifies all reach READY, in order.
 */
export class IdentifyQueue {
  private readonly buckets = new Map<string, Bucket>();
  /** Cancels the waits in progress. */
  private readonly waits = new Set<() => void>();
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly perBucket: number;

  constructor(options: { clock: Clock; timers: Timers; perBucket: number }) {
    this.clock = options.clock;
    this.timers = options.timers;
    this.perBucket = Math.max(1, options.perBucket);
  }

  /** Resolves when the bucket admits one more identify. */
  acquire(key: string): Promise<void> {
    const now = this.clock.now();
    let bucket = this.buckets.get(key);
    if (bucket === undefined || bucket.windowStart + IDENTIFY_WINDOW_MS <= now) {
      bucket = { windowStart: now, used: 0 };
      this.buckets.set(key, bucket);
    }
    if (bucket.used >= this.perBucket) {
      bucket.windowStart += IDENTIFY_WINDOW_MS;
      bucket.used = 0;
    }
    bucket.used++;
    const delay = bucket.windowStart - now;
    this.prune(now);
    if (delay <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const cancel = this.timers.schedule(() => {
        this.waits.delete(cancel);
        resolve();
      }, delay);
      this.waits.add(cancel);
    });
  }

  private prune(now: number) {
    if (this.buckets.size < PRUNE_FROM_BUCKETS) return;
    for (const [key, bucket] of this.buckets) {
      if (bucket.windowStart + IDENTIFY_WINDOW_MS <= now) this.buckets.delete(key);
    }
  }

  /** Stops waiting: identifies still queued never resume. */
  close() {
    for (const cancel of this.waits) cancel();
    this.waits.clear();
  }
}
