import { describe, expect, it } from 'vitest';
import { withFallback } from './fallback.js';
import { createMemorySharedState } from './memory/index.js';
import type { SharedState } from './types.js';

/** A primary that fails while `down` is set, and otherwise is a memory store of its own. */
function flakyPrimary() {
  const inner = createMemorySharedState();
  const control = { down: false };
  const guard = <R>(run: () => R): R => {
    if (control.down) throw new Error('connection lost');
    return run();
  };
  const state: SharedState = {
    driver: 'redis',
    rateLimits: {
      consume: (...args) => guard(() => inner.rateLimits.consume(...args)),
      peek: (...args) => guard(() => inner.rateLimits.peek(...args)),
      consumeChain: (...args) => guard(() => inner.rateLimits.consumeChain(...args)),
    },
    identifyBuckets: {
      reserve: (...args) => guard(() => inner.identifyBuckets.reserve(...args)),
    },
    presences: {
      ttlMs: inner.presences.ttlMs,
      set: (...args) => guard(() => inner.presences.set(...args)),
      get: (...args) => guard(() => inner.presences.get(...args)),
      refresh: (...args) => guard(() => inner.presences.refresh(...args)),
    },
    voiceNodes: {
      announce: (...args) => guard(() => inner.voiceNodes.announce(...args)),
      withdraw: (...args) => guard(() => inner.voiceNodes.withdraw(...args)),
      list: (...args) => guard(() => inner.voiceNodes.list(...args)),
      holder: (...args) => guard(() => inner.voiceNodes.holder(...args)),
      claim: (...args) => guard(() => inner.voiceNodes.claim(...args)),
      refresh: (...args) => guard(() => inner.voiceNodes.refresh(...args)),
      release: (...args) => guard(() => inner.voiceNodes.release(...args)),
    },
    close: () => inner.close(),
  };
  return { state, control };
}

describe('withFallback', () => {
  const limit = { limit: 1, windowMs: 1000 };

  it('answers from the fallback while the primary fails, and reports each change once', async () => {
    const { state: primary, control } = flakyPrimary();
    const events: string[] = [];
    const state = withFallback(primary, createMemorySharedState(), {
      onDegraded: (err) => events.push(`degraded: ${(err as Error).message}`),
      onRecovered: (served) => events.push(`recovered after ${served}`),
    });
    expect(state.driver).toBe('redis');
    expect(await state.rateLimits.consume('k', limit, 0)).toMatchObject({ allowed: true });

    control.down = true;
    // The fallback counts on its own: the primary's spent window is not seen.
    expect(await state.rateLimits.consume('k', limit, 0)).toMatchObject({ allowed: true });
    expect(await state.rateLimits.consume('k', limit, 0)).toMatchObject({ allowed: false });
    expect(
      await state.rateLimits.consumeChain([{ key: 'k', limit, count: true }], 0),
    ).toMatchObject({ refusedAt: 0 });
    expect(await state.identifyBuckets.reserve('b', { perWindow: 1, windowMs: 5000 }, 0)).toBe(0);
    await state.presences.set('u', { status: 'online' }, 0);
    expect(await state.presences.get(['u'], 1)).toEqual(new Map([['u', { status: 'online' }]]));
    expect(events).toEqual(['degraded: connection lost']);

    control.down = false;
    expect(await state.rateLimits.peek('k', limit, 0)).toMatchObject({ remaining: 0 });
    expect(await state.presences.get(['u'], 1)).toEqual(new Map());
    expect(events).toEqual(['degraded: connection lost', 'recovered after 6']);
  });
});
