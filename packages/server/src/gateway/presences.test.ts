import { describe, expect, it } from 'vitest';
import { manualClock, type Timers } from '../domain/clock.js';
import { MemoryPresenceStore } from '../sharedState/memory/index.js';
import { createPresences } from './presences.js';
import type { Presence } from './presences.js';

const TTL_MS = 30_000;
const online: Presence = {
  status: 'online',
  activities: [],
  since: null,
  afk: false,
  privacy: 'everyone',
};

/** Timers the test turns by hand. */
function handTimers() {
  const pending: { fn: () => void; ms: number }[] = [];
  const timers: Timers = {
    schedule(fn, ms) {
      const entry = { fn, ms };
      pending.push(entry);
      return () => {
        pending.splice(pending.indexOf(entry), 1);
      };
    },
  };
  const turn = () => {
    for (const entry of pending.splice(0)) entry.fn();
  };
  return { timers, pending, turn };
}

describe('gateway presences', () => {
  it('keeps the presences of users served here alive, and lets the others expire', async () => {
    const clock = manualClock(0);
    const { timers, pending, turn } = handTimers();
    const usersHere = new Set(['here', 'left']);
    const presences = createPresences({
      store: new MemoryPresenceStore({ ttlMs: TTL_MS }),
      clock,
      timers,
      onError: (err) => {
        throw err;
      },
    });
    await presences.set('here', online);
    await presences.set('left', online);
    expect(pending).toHaveLength(0);
    presences.start(() => usersHere);
    expect(pending.map((p) => p.ms)).toEqual([TTL_MS / 3]);

    // The user "left" ends their last session here: nobody refreshes their entry any more.
    usersHere.delete('left');
    for (let i = 1; i <= 6; i++) {
      clock.set((i * TTL_MS) / 3);
      turn();
    }
    expect([...(await presences.get(['here', 'left'])).keys()]).toEqual(['here']);

    presences.stop();
    expect(pending).toHaveLength(0);
    clock.advance(TTL_MS);
    expect((await presences.get(['here'])).size).toBe(0);
  });
});
