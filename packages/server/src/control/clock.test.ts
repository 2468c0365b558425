import { describe, expect, it } from 'vitest';
import { manualClock, type Timers } from '../domain/clock.js';
import { createPlatformClock } from './clock.js';
import { parseDuration, parseInstant } from './duration.js';

/** Real timers a test fires by hand: what is armed, for how long. */
function heldTimers() {
  const armed = new Map<number, { fn: () => unknown; ms: number }>();
  let next = 0;
  const timers: Timers = {
    schedule(fn, ms) {
      const id = next++;
      armed.set(id, { fn, ms });
      return () => armed.delete(id);
    },
  };
  return {
    timers,
    armed: () => [...armed.values()].map((t) => t.ms),
    fireAll() {
      const all = [...armed.values()];
      armed.clear();
      for (const t of all) t.fn();
    },
  };
}

const START = Date.UTC(2030, 0, 1);

function setup() {
  const real = manualClock(START);
  const held = heldTimers();
  const clock = createPlatformClock({ base: real, baseTimers: held.timers });
  return { real, held, clock };
}

describe('the platform clock', () => {
  it('runs with the real clock until frozen, then stands until moved', async () => {
    const { real, clock } = setup();
    real.advance(500);
    expect(clock.now()).toBe(START + 500);
    await clock.freeze();
    real.advance(10_000);
    expect(clock.now()).toBe(START + 500);
    expect(clock.state()).toMatchObject({ frozen: true, offsetMs: -10_000 });
    // Resumed, it runs on from where it stood.
    clock.resume();
    real.advance(1000);
    expect(clock.now()).toBe(START + 1500);
    expect(clock.state().frozen).toBe(false);
  });

  it('advances by durations written as text or ms, sets to moments, and restores', async () => {
    const { clock } = setup();
    expect((await clock.advance('1h30m')).nowMs).toBe(START + 90 * 60_000);
    expect((await clock.advance(250)).nowMs).toBe(START + 90 * 60_000 + 250);
    expect((await clock.set('2031-06-01T12:00:00Z')).now).toBe('2031-06-01T12:00:00.000Z');
    expect((await clock.restore()).nowMs).toBe(START);
    await expect(clock.advance('soon')).rejects.toThrow(/not a duration.*'15m'/);
    await expect(clock.advance(-5)).rejects.toThrow(/not a duration/);
    await expect(clock.set('next tuesday')).rejects.toThrow(/not a moment/);
  });

  it('reports its state from one reading of the real clock, even as it ticks', async () => {
    // A real clock that moves a millisecond between any two readings, as a busy machine's does.
    let ms = START;
    const ticking = { now: () => ms++ };
    const clock = createPlatformClock({ base: ticking, baseTimers: heldTimers().timers });
    expect(clock.state().offsetMs).toBe(0);
    await clock.advance('1d');
    expect(clock.state().offsetMs).toBe(86_400_000);
    await clock.restore();
    expect(clock.state().offsetMs).toBe(0);
    const state = clock.state();
    expect(Date.parse(state.now)).toBe(state.nowMs);
  });

  it('fires the waits a move passes, in deadline order, and awaits their work', async () => {
    const { clock } = setup();
    await clock.freeze();
    const order: string[] = [];
    let settled = false;
    clock.timers.schedule(() => order.push('late'), 60_000);
    clock.timers.schedule(
      () =>
        new Promise<void>((resolve) => {
          order.push('early');
          setTimeout(() => {
            settled = true;
            resolve();
          }, 5);
        }),
      3000,
    );
    const cancelled = clock.timers.schedule(() => order.push('cancelled'), 1000);
    cancelled();
    await clock.advance('2999ms');
    expect(order).toEqual([]);
    await clock.advance('1m');
    expect(order).toEqual(['early', 'late']);
    // The early wait's promise was awaited before advance resolved.
    expect(settled).toBe(true);
  });

  it('fires a periodic wait once for a move that spans many of its periods', async () => {
    const { clock } = setup();
    await clock.freeze();
    let passes = 0;
    const turn = () => {
      passes++;
      clock.timers.schedule(turn, 60_000);
    };
    clock.timers.schedule(turn, 60_000);
    await clock.advance('15m');
    expect(passes).toBe(1);
    await clock.advance('1m');
    expect(passes).toBe(2);
  });

  it('set back, leaves a wait no longer than it was scheduled for', async () => {
    const { clock } = setup();
    await clock.freeze();
    await clock.advance('1h');
    let fired = 0;
    clock.timers.schedule(() => fired++, 60_000);
    await clock.restore();
    await clock.freeze();
    await clock.advance('59s');
    expect(fired).toBe(0);
    await clock.advance('1s');
    expect(fired).toBe(1);
  });

  it('arms real timers for the time left while running, none while frozen but those due', async () => {
    const { held, clock } = setup();
    let fired = 0;
    clock.timers.schedule(() => fired++, 3000);
    expect(held.armed()).toEqual([3000]);
    // Advancing re-times what is left: 1 s of the 3 s.
    await clock.advance('2s');
    expect(held.armed()).toEqual([1000]);
    await clock.freeze();
    expect(held.armed()).toEqual([]);
    // Due at once even while frozen.
    clock.timers.schedule(() => fired++, 0);
    expect(held.armed()).toEqual([0]);
    held.fireAll();
    expect(fired).toBe(1);
    clock.resume();
    expect(held.armed()).toEqual([1000]);
    held.fireAll();
    expect(fired).toBe(2);
  });
});

describe('durations and moments', () => {
  it('reads what a person writes, and refuses the rest', () => {
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('1h 30m')).toBe(5_400_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('250')).toBe(250);
    expect(parseDuration('15 minutes')).toBeNull();
    expect(parseDuration('-1s')).toBeNull();
    expect(parseInstant('2030-01-01')).toBe(START);
    expect(parseInstant(String(START))).toBe(START);
    expect(parseInstant(new Date(START))).toBe(START);
    expect(parseInstant('Jan 1 2030')).toBeNull();
  });
});
