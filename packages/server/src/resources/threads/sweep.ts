/**
 * The sweep of what ends by time: idle threads archive themselves after their auto-archive
 * duration, polls end at their expiry, and the other tasks app.ts gives it run beside them
 * (expired credentials, resources/auth/sweep.ts). Each pass works in batches until nothing is due; time
 * comes from the injected clock, waits from the injected timers; app.ts starts and stops it.
 */
import type { Timers } from '../../domain/clock.js';
import { startRepeatingPass, type RepeatingPass } from '../../domain/repeat.js';
import { MINUTE_MS } from '../../domain/time.js';
import { THREAD_LIMITS } from './rules.js';

/** Between passes: a thread archives at most a minute late, a poll ends a minute late at most. */
export const TIMED_SWEEP_INTERVAL_MS = MINUTE_MS;

export type TimedSweeper = RepeatingPass;

/** Runs every batch of every task until none is full; returns how many items changed. */
async function drain(tasks: readonly ((limit: number) => Promise<number>)[]): Promise<number> {
  let done = 0;
  for (const task of tasks) {
    for (;;) {
      const n = await task(THREAD_LIMITS.sweepBatch);
      done += n;
      if (n < THREAD_LIMITS.sweepBatch) break;
    }
  }
  return done;
}

export function startTimedSweeper(deps: {
  tasks: readonly ((limit: number) => Promise<number>)[];
  timers: Timers;
  intervalMs?: number;
  onError: (err: unknown) => void;
}): TimedSweeper {
  return startRepeatingPass({
    pass: () => drain(deps.tasks),
    timers: deps.timers,
    intervalMs: deps.intervalMs ?? TIMED_SWEEP_INTERVAL_MS,
    onError: deps.onError,
  });
}
