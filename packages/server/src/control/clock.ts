/**
 * @module control/clock: the platform's clock, which a test freezes, sets and advances, and the
 * background waits that follow it.
 *
 * A wait is scheduled for a platform deadline (now + ms). While the clock runs, a real timer
 * fires it when that much real time has passed; when the clock is set or advanced, every wait
 * whose deadline it passed fires at once, in deadline order, and the others are timed again from
 * the new time (set back, a wait has no longer left than it was scheduled for). While it is
 * frozen only waits already due fire. A periodic wait fires once for
 * a move, however many of its periods the move spans (it reschedules from the new time).
 *
 * A wait may return the promise of its work; a move resolves once that work has settled, so a
 * wait's work must not itself wait on this clock's timers (the webhook delivery loop, whose
 * attempt may wait out a timeout fault on them, returns nothing).
 */
import { realTimers, type Clock, type Timers } from '../domain/clock.js';
import { durationMs, instantMs } from './duration.js';
import type { ClockState, Instant, PlatformClock } from './types.js';

interface Wait {
  deadlineMs: number;
  /** How long it was scheduled for. */
  ms: number;
  fn: () => unknown;
  /** The real timer armed for it, if any. */
  cancel: (() => void) | null;
  done: boolean;
}

export interface PlatformClockDeps {
  /** The real clock it runs with (tests pass their own). */
  base?: Clock;
  /** The real timers it arms (tests pass their own). */
  baseTimers?: Timers;
  /** Where a wait's failure goes (a wait's own errors are its own to handle). */
  onError?: (err: unknown) => void;
}

export function createPlatformClock(deps: PlatformClockDeps = {}): PlatformClock {
  const base = deps.base ?? { now: () => Date.now() };
  const baseTimers = deps.baseTimers ?? realTimers;
  const onError = deps.onError ?? (() => undefined);
  let offsetMs = 0;
  let frozenAtMs: number | null = null;
  const waits = new Set<Wait>();

  /** The platform's time at a reading of the real clock. */
  const at = (baseMs: number) => frozenAtMs ?? baseMs + offsetMs;
  const now = () => at(base.now());

  const state = (): ClockState => {
    // One reading of the real clock: two could straddle a millisecond and report an offset of -1.
    const baseMs = base.now();
    const nowMs = at(baseMs);
    return {
      nowMs,
      now: new Date(nowMs).toISOString(),
      frozen: frozenAtMs !== null,
      offsetMs: nowMs - baseMs,
    };
  };

  const fire = (wait: Wait): unknown => {
    if (wait.done) return undefined;
    wait.done = true;
    waits.delete(wait);
    wait.cancel?.();
    wait.cancel = null;
    try {
      return wait.fn();
    } catch (err) {
      onError(err);
      return undefined;
    }
  };

  /** Times a wait's real timer from the platform's time: due now, later (running), or never. */
  const arm = (wait: Wait) => {
    wait.cancel?.();
    wait.cancel = null;
    const left = wait.deadlineMs - now();
    if (left <= 0 || frozenAtMs === null) {
      wait.cancel = baseTimers.schedule(() => void fire(wait), Math.max(0, left));
    }
  };

  /** The clock moved: what is due fires (its work awaited), the rest is timed again. */
  const moved = async (): Promise<ClockState> => {
    const nowMs = now();
    // Set back, a wait never has longer left than it was scheduled for (a sweep every minute
    // stays every minute after a test restores the clock).
    for (const wait of waits) wait.deadlineMs = Math.min(wait.deadlineMs, nowMs + wait.ms);
    const due = [...waits]
      .filter((wait) => wait.deadlineMs <= nowMs)
      .sort((a, b) => a.deadlineMs - b.deadlineMs);
    for (const wait of waits) if (wait.deadlineMs > nowMs) arm(wait);
    const work = due.map((wait) => fire(wait));
    const settled = await Promise.allSettled(work);
    for (const result of settled) if (result.status === 'rejected') onError(result.reason);
    return state();
  };

  const timers: Timers = {
    schedule(fn, ms) {
      const wait: Wait = {
        deadlineMs: now() + Math.max(0, ms),
        ms: Math.max(0, ms),
        fn,
        cancel: null,
        done: false,
      };
      waits.add(wait);
      arm(wait);
      return () => {
        wait.done = true;
        waits.delete(wait);
        wait.cancel?.();
        wait.cancel = null;
      };
    },
  };

  const setTo = (ms: number) => {
    if (frozenAtMs !== null) frozenAtMs = ms;
    else offsetMs = ms - base.now();
  };

  return {
    now,
    state,
    timers,
    async freeze(at?: Instant) {
      const ms = at === undefined ? now() : instantMs(at);
      frozenAtMs = ms;
      return moved();
    },
    resume() {
      if (frozenAtMs !== null) {
        offsetMs = frozenAtMs - base.now();
        frozenAtMs = null;
        for (const wait of waits) arm(wait);
      }
      return state();
    },
    async set(to) {
      setTo(instantMs(to));
      return moved();
    },
    async advance(by) {
      // By exactly `by`: the offset moves, not a new one read against the real clock.
      const ms = durationMs(by);
      if (frozenAtMs !== null) frozenAtMs += ms;
      else offsetMs += ms;
      return moved();
    },
    async restore() {
      offsetMs = 0;
      frozenAtMs = null;
      return moved();
    },
  };
}
