import { describe, expect, it } from 'vitest';
import { REPLAY_WINDOW, ReplayWindow } from './replayWindow.js';

function take(window: ReplayWindow, counter: number): boolean {
  if (!window.fresh(counter)) return false;
  window.accept(counter);
  return true;
}

describe('ReplayWindow', () => {
  it('accepts each counter once, in order or reordered within the window', () => {
    const window = new ReplayWindow();
    expect(take(window, 0)).toBe(true);
    expect(take(window, 0)).toBe(false);
    expect(take(window, 5)).toBe(true);
    expect(take(window, 3)).toBe(true);
    expect(take(window, 3)).toBe(false);
    expect(take(window, 4)).toBe(true);
    expect(take(window, 5)).toBe(false);
    expect(take(window, 1)).toBe(true);
  });

  it('refuses what fell out of the window, also across the 31st bit', () => {
    const window = new ReplayWindow();
    expect(take(window, 100)).toBe(true);
    expect(take(window, 100 - (REPLAY_WINDOW - 1))).toBe(true);
    expect(take(window, 100 - (REPLAY_WINDOW - 1))).toBe(false);
    expect(take(window, 100 - REPLAY_WINDOW)).toBe(false);
    expect(take(window, 100 + REPLAY_WINDOW + 10)).toBe(true);
    expect(take(window, 100)).toBe(false);
    expect(take(window, 0xffff_ffff)).toBe(true);
    expect(take(window, 0xffff_ffff)).toBe(false);
    expect(take(window, 0xffff_ffff - 31)).toBe(true);
    expect(take(window, 0xffff_ffff - 31)).toBe(false);
  });

  it('a fresh check alone records nothing; reset forgets', () => {
    const window = new ReplayWindow();
    expect(window.fresh(7)).toBe(true);
    expect(window.fresh(7)).toBe(true);
    window.accept(7);
    expect(window.fresh(7)).toBe(false);
    window.reset();
    expect(window.fresh(7)).toBe(true);
    expect(window.fresh(0)).toBe(true);
  });
});
