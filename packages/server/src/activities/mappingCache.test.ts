import { describe, expect, it } from 'vitest';
import { manualClock } from '../domain/clock.js';
import { createMappingCache } from './mappingCache.js';

/**
 * A storage stand-in whose reads the test answers when it likes: each read answers what was
 * stored when it started (a read under way does not see a later commit).
 */
function storage() {
  const values = new Map<string, string | null>();
  const pending: { answer: () => void; fail: (err: Error) => void }[] = [];
  let reads = 0;
  const read = (id: string) =>
    new Promise<string | null>((resolve, reject) => {
      reads += 1;
      const value = values.get(id) ?? null;
      pending.push({
        answer: () => {
          resolve(value);
        },
        fail: reject,
      });
    });
  return {
    values,
    read,
    reads: () => reads,
    /** Answers every read started so far, in order. */
    answerAll: () => {
      for (const entry of pending.splice(0)) entry.answer();
    },
    /** Answers every read started so far, the latest first. */
    answerLatestFirst: () => {
      for (const entry of pending.splice(0).reverse()) entry.answer();
    },
    failAll: (err: Error) => {
      for (const entry of pending.splice(0)) entry.fail(err);
    },
  };
}

describe('createMappingCache', () => {
  it('reads an application once, then answers from memory until forgotten', async () => {
    const store = storage();
    store.values.set('1', 'first');
    const cache = createMappingCache({ read: store.read, clock: manualClock(0) });
    expect(cache.cached('1')).toBeUndefined();
    const both = Promise.all([cache.get('1'), cache.get('1')]);
    store.answerAll();
    expect(await both).toEqual(['first', 'first']);
    expect(store.reads()).toBe(1);
    expect(cache.cached('1')).toBe('first');

    store.values.set('1', 'second');
    expect(await cache.get('1')).toBe('first');
    cache.forget('1');
    expect(cache.cached('1')).toBeUndefined();
    const next = cache.get('1');
    store.answerAll();
    expect(await next).toBe('second');
    expect(store.reads()).toBe(2);
  });

  it('holds "no activity" too, and forgets everything at once', async () => {
    const store = storage();
    store.values.set('2', 'two');
    const cache = createMappingCache({ read: store.read, clock: manualClock(0) });
    const read = Promise.all([cache.get('1'), cache.get('2')]);
    store.answerAll();
    expect(await read).toEqual([null, 'two']);
    expect(cache.cached('1')).toBeNull();
    cache.forgetAll();
    expect(cache.cached('1')).toBeUndefined();
    expect(cache.cached('2')).toBeUndefined();
  });

  it('does not keep a read that a forget overtook, nor hand it to later callers', async () => {
    const store = storage();
    store.values.set('1', 'old');
    const cache = createMappingCache({ read: store.read, clock: manualClock(0) });
    const early = cache.get('1');
    // The mappings change (and are revoked) while that read is under way.
    store.values.set('1', 'new');
    cache.forget('1');
    const late = cache.get('1');
    expect(store.reads()).toBe(2);
    // The early read answers last: its old answer must not replace the new one.
    store.answerLatestFirst();
    expect(await late).toBe('new');
    expect(await early).toBe('old');
    expect(cache.cached('1')).toBe('new');

    cache.forget('1');
    const overtaken = cache.get('1');
    cache.forgetAll();
    store.answerAll();
    await overtaken;
    expect(cache.cached('1')).toBeUndefined();
  });

  it('reads again once an entry has expired, and keeps at most maxEntries', async () => {
    const store = storage();
    const clock = manualClock(0);
    const cache = createMappingCache({ read: store.read, clock, ttlMs: 1000, maxEntries: 2 });
    const first = Promise.all(['1', '2'].map((id) => cache.get(id)));
    store.answerAll();
    await first;
    clock.advance(999);
    expect(cache.cached('1')).toBeNull();
    clock.advance(1);
    expect(cache.cached('1')).toBeUndefined();

    const refill = Promise.all(['1', '3'].map((id) => cache.get(id)));
    store.answerAll();
    await refill;
    // '2' was the oldest of three: it made room.
    expect(cache.cached('2')).toBeUndefined();
    expect(cache.cached('1')).toBeNull();
    expect(cache.cached('3')).toBeNull();
  });

  it('passes a failed read on and keeps nothing of it', async () => {
    const store = storage();
    const cache = createMappingCache({ read: store.read, clock: manualClock(0) });
    const failed = cache.get('1');
    store.failAll(new Error('database down'));
    await expect(failed).rejects.toThrow('database down');
    expect(cache.cached('1')).toBeUndefined();
    const again = cache.get('1');
    store.answerAll();
    expect(await again).toBeNull();
    expect(store.reads()).toBe(2);
  });
});
