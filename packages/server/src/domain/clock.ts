/** Where time comes from. Tests inject a fixed or stepping clock to test dated behaviour. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Where background waits come from (delivery retries, blob sweeps); `schedule` returns a cancel
 * function. A wait may return the promise of the work it starts: the platform clock awaits it
 * when a move of the clock fires the wait (control/clock.ts), so a test that advances the clock
 * sees that work done.
 */
export interface Timers {
  schedule(fn: () => unknown, ms: number): () => void;
}

/** Timers on the event loop; they never keep the process alive. */
export const realTimers: Timers = {
  schedule(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return () => {
      clearTimeout(handle);
    };
  },
};

/** A clock tests move by hand. */
export function manualClock(
  startMs: number,
): Clock & { advance(ms: number): void; set(ms: number): void } {
  let current = startMs;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
    set(ms) {
      current = ms;
    },
  };
}
