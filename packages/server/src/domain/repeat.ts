/** @module domain/repeat: a pass run now and again after each one ends, on injected timers. */
import type { Timers } from './clock.js';

export interface RepeatingPass {
  /** Runs one pass now (tests call it instead of waiting for the timer). */
  sweep(): Promise<number>;
  /** No pass starts after this; resolves once the running one has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` at once, then `intervalMs` after each pass ends (never two at a time from the
 * timer). A failed pass goes to `onError` and the next one still comes.
 */
export function startRepeatingPass(deps: {
  pass: () => Promise<number>;
  timers: Timers;
  intervalMs: number;
  onError: (err: unknown) => void;
}): RepeatingPass {
  let cancel: (() => void) | null = null;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const sweep = () => {
    const pass = deps.pass();
    running = pass.catch(deps.onError);
    return pass;
  };
  /** One pass from the timer; its promise is the wait's work (a clock that fires it awaits it). */
  const run = () =>
    sweep()
      .catch(() => 0)
      .then(() => {
        if (!stopped) cancel = deps.timers.schedule(run, deps.intervalMs);
      });
  cancel = deps.timers.schedule(run, 0);
  return {
    sweep,
    async stop() {
      stopped = true;
      cancel?.();
      await running;
    },
  };
}
