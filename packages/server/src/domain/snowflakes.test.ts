import { deconstructSnowflake, compareSnowflakes } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { manualClock } from './clock.js';
import { createSnowflakeGenerator } from './snowflakes.js';

describe('createSnowflakeGenerator', () => {
  it('encodes the clock and the worker id', () => {
    const clock = manualClock(Date.UTC(2026, 10, 22));
    const next = createSnowflakeGenerator({ clock, workerId: 7, processId: 3 });
    const parts = deconstructSnowflake(next());
    expect(parts).toEqual({
      timestampMs: Date.UTC(2026, 10, 22),
      workerId: 7,
      processId: 3,
      increment: 0,
    });
  });

  it('stays strictly increasing when the clock stands still, steps back or overflows a millisecond', () => {
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const next = createSnowflakeGenerator({ clock, workerId: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 5000; i++) ids.push(next());
    clock.advance(-10_000);
    ids.push(next());
    for (let i = 1; i < ids.length; i++) {
      expect(compareSnowflakes(ids[i - 1] ?? '', ids[i] ?? '')).toBe(-1);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives different ids to two workers at the same instant', () => {
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const a = createSnowflakeGenerator({ clock, workerId: 1 });
    const b = createSnowflakeGenerator({ clock, workerId: 2 });
    expect(a()).not.toBe(b());
  });
});
