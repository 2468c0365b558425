/**
 * Timers that wait for the test: `fire` runs what is scheduled (deadlines, sweeps, a server's
 * periodic pass), so a test moves time without waiting on it.
 *
 * @module
 */
import type { Timers } from '../../src/domain/clock.js';

export function firedTimers() {
  const scheduled: { fn: () => void; done: boolean }[] = [];
  const timers: Timers = {
    schedule(fn) {
      const entry = { fn, done: false };
      scheduled.push(entry);
      return () => {
        entry.done = true;
      };
    },
  };
  return {
    timers,
    /** Runs every timer scheduled and not cancelled; returns how many ran. */
    fire() {
      let ran = 0;
      for (const entry of scheduled.splice(0)) {
        if (entry.done) continue;
        entry.done = true;
        entry.fn();
        ran++;
      }
      return ran;
    },
    /** Timers scheduled and neither cancelled nor run. */
    pending: () => scheduled.filter((entry) => !entry.done).length,
  };
}

export type FiredTimers = ReturnType<typeof firedTimers>;
