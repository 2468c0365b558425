import type { Clock, Timers } from '../domain/clock.js';
import type { IdentifyBuckets } from '../sharedState/index.js';

/**
 * The window in which each identify bucket admits its quota
 * (docs/platform-notes.md#gateway-limits).
 */
export const IDENTIFY_WINDOW_MS = 5000;

/**
 * max_concurrency: each bucket key admits `perBucket` identifies per 5 s; the excess waits for a
 * later window instead of failing, so a storm of identifies all reach READY, in order. The
 * buckets are shared (sharedState): with Redis, every gateway node reserves in the same ones,
 * and only the wait for a reserved turn happens here.
 */
export class IdentifyQueue {
  /** Cancels the waits in progress. */
  private readonly waits = new Set<() => void>();
  private readonly buckets: IdentifyBuckets;
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly perBucket: number;

  constructor(options: {
    buckets: IdentifyBuckets;
    clock: Clock;
    timers: Timers;
    perBucket: number;
  }) {
    this.buckets = options.buckets;
    this.clock = options.clock;
    this.timers = options.timers;
    this.perBucket = Math.max(1, options.perBucket);
  }

  /** Resolves when the bucket admits one more identify. */
  async acquire(key: string): Promise<void> {
    const quota = { perWindow: this.perBucket, windowMs: IDENTIFY_WINDOW_MS };
    const startAt = await this.buckets.reserve(key, quota, this.clock.now());
    const delay = startAt - this.clock.now();
    if (delay <= 0) return;
    await new Promise<void>((resolve) => {
      const cancel = this.timers.schedule(() => {
        this.waits.delete(cancel);
        resolve();
      }, delay);
      this.waits.add(cancel);
    });
  }

  /** Stops waiting: identifies still queued never resume. */
  close() {
    for (const cancel of this.waits) cancel();
    this.waits.clear();
  }
}
