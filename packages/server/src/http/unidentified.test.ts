import type { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../domain/clock.js';
import { trackUnidentified } from './unidentified.js';

/** A socket that records what it was ended with. */
function socket() {
  const written: string[] = [];
  const raw = {
    end(data: string) {
      written.push(data);
    },
  };
  return { raw: raw as unknown as Duplex, written };
}

describe('trackUnidentified', () => {
  const clock = manualClock(1_000);
  const make = () =>
    trackUnidentified<object>({ clock, limits: { maxPerAddress: 2, timeoutMs: 500 } });

  it('answers 429 past the cap of one address; others, and freed places, go on', () => {
    const tracked = make();
    const [a, b, c] = [{}, {}, {}];
    tracked.add(a, '10.0.0.1');
    tracked.add(b, '10.0.0.1');
    // Counted once however often it is added.
    tracked.add(b, '10.0.0.1');
    const refused = socket();
    expect(tracked.admit('10.0.0.1', refused.raw)).toBe(false);
    expect(refused.written.join('')).toMatch(/^HTTP\/1\.1 429 /);
    const other = socket();
    expect(tracked.admit('10.0.0.2', other.raw)).toBe(true);
    expect(other.written).toEqual([]);
    tracked.remove(a);
    tracked.remove(a);
    expect(tracked.admit('10.0.0.1', socket().raw)).toBe(true);
    tracked.add(c, '10.0.0.1');
    expect(tracked.admit('10.0.0.1', socket().raw)).toBe(false);
  });

  it('is overdue past the timeout, and never once removed', () => {
    const tracked = make();
    const [early, late] = [{}, {}];
    tracked.add(early, '10.0.0.1');
    clock.advance(200);
    tracked.add(late, '10.0.0.1');
    clock.advance(300);
    expect(tracked.overdue(early, clock.now())).toBe(false);
    clock.advance(1);
    expect(tracked.overdue(early, clock.now())).toBe(true);
    expect(tracked.overdue(late, clock.now())).toBe(false);
    tracked.remove(early);
    expect(tracked.overdue(early, clock.now())).toBe(false);
    expect(tracked.overdue({}, clock.now())).toBe(false);
  });
});
