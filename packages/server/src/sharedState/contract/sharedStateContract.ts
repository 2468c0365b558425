import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SharedState } from '../types.js';

/**
 * Two nodes' views of one shared state (the same object for the memory driver, two connections
 * for Redis), and how to dispose of them.
 */
export interface SharedStateFixture {
  first: SharedState;
  second: SharedState;
  /** The presence TTL both were opened with. */
  presenceTtlMs: number;
  dispose(): Promise<void>;
}

const T0 = Date.UTC(2026, 10, 24, 12);
const WINDOW_MS = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The one suite every shared-state driver passes. Time is the caller's: every call names its
 * `nowMs`, so windows and expiries follow the test's clock on every driver. What one node
 * writes, the other reads.
 */
export function describeSharedStateContract(
  name: string,
  make: () => Promise<SharedStateFixture>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`SharedState contract: ${name}`, () => {
    let fixture: SharedStateFixture;
    beforeEach(async () => {
      fixture = await make();
    });
    afterEach(async () => {
      await fixture.dispose();
    });

    describe('rate limits', () => {
      const limit = { limit: 2, windowMs: 1000 };

      it('allows `limit` requests per window across nodes, then refuses until it ends', async () => {
        const { first, second } = fixture;
        expect(await first.rateLimits.consume('k', limit, T0)).toEqual({
          allowed: true,
          limit: 2,
          remaining: 1,
          resetAtMs: T0 + 1000,
        });
        expect(await second.rateLimits.consume('k', limit, T0 + 10)).toEqual({
          allowed: true,
          limit: 2,
          remaining: 0,
          resetAtMs: T0 + 1000,
        });
        expect(await first.rateLimits.consume('k', limit, T0 + 999)).toEqual({
          allowed: false,
          limit: 2,
          remaining: 0,
          resetAtMs: T0 + 1000,
        });
        expect(await second.rateLimits.consume('k', limit, T0 + 1000)).toEqual({
          allowed: true,
          limit: 2,
          remaining: 1,
          resetAtMs: T0 + 2000,
        });
      });

      it('peeks without counting, and keeps keys apart', async () => {
        const { first, second } = fixture;
        expect(await second.rateLimits.peek('p', limit, T0)).toEqual({
          allowed: true,
          limit: 2,
          remaining: 2,
          resetAtMs: T0 + 1000,
        });
        await first.rateLimits.consume('p', limit, T0);
        expect(await second.rateLimits.peek('p', limit, T0 + 5)).toMatchObject({
          remaining: 1,
          resetAtMs: T0 + 1000,
        });
        expect(await second.rateLimits.peek('p', limit, T0 + 5)).toMatchObject({ remaining: 1 });
        expect(await second.rateLimits.consume('q', limit, T0)).toMatchObject({ remaining: 1 });
        await first.rateLimits.consume('p', limit, T0 + 6);
        expect(await second.rateLimits.peek('p', limit, T0 + 7)).toMatchObject({
          allowed: false,
          remaining: 0,
        });
        expect(await second.rateLimits.peek('p', limit, T0 + 1000)).toMatchObject({
          allowed: true,
          remaining: 2,
          resetAtMs: T0 + 2000,
        });
      });

      it('does not count refused requests, and holds a day-long window', async () => {
        const { first, second } = fixture;
        const daily = { limit: 1, windowMs: DAY_MS };
        expect(await first.rateLimits.consume('day', daily, T0)).toMatchObject({ allowed: true });
        for (let i = 1; i <= 3; i++) {
          expect(await second.rateLimits.consume('day', daily, T0 + i * 1000)).toMatchObject({
            allowed: false,
            remaining: 0,
            resetAtMs: T0 + DAY_MS,
          });
        }
        expect(await second.rateLimits.consume('day', daily, T0 + DAY_MS)).toMatchObject({
          allowed: true,
          resetAtMs: T0 + 2 * DAY_MS,
        });
      });

      it('admits exactly `limit` of many requests racing from both nodes', async () => {
        const { first, second } = fixture;
        const racing = { limit: 5, windowMs: 1000 };
        const results = await Promise.all(
          Array.from({ length: 24 }, async (_, i) =>
            (i % 2 === 0 ? first : second).rateLimits.consume('race', racing, T0),
          ),
        );
        expect(results.filter((r) => r.allowed)).toHaveLength(5);
        expect(results.map((r) => r.remaining).sort((a, b) => a - b)).toEqual([
          ...Array<number>(20).fill(0),
          1,
          2,
          3,
          4,
        ]);
      });

      it('goes through a chain in order, and stops at the first refusal', async () => {
        const { first, second } = fixture;
        const peek = (key: string) => ({ key, limit, count: false });
        const count = (key: string) => ({ key, limit, count: true });
        const chain = [peek('c:a'), count('c:b'), peek('c:c'), count('c:d')];
        expect(await first.rateLimits.consumeChain(chain, T0)).toEqual({
          refusedAt: -1,
          results: [
            { allowed: true, limit: 2, remaining: 2, resetAtMs: T0 + 1000 },
            { allowed: true, limit: 2, remaining: 1, resetAtMs: T0 + 1000 },
            { allowed: true, limit: 2, remaining: 2, resetAtMs: T0 + 1000 },
            { allowed: true, limit: 2, remaining: 1, resetAtMs: T0 + 1000 },
          ],
        });
        await second.rateLimits.consume('c:c', limit, T0 + 10);
        await second.rateLimits.consume('c:c', limit, T0 + 10);
        // The full window refuses: the counting step before it counted, the one after did not.
        expect(await second.rateLimits.consumeChain(chain, T0 + 20)).toEqual({
          refusedAt: 2,
          results: [
            // A peek of a window nobody counted in: a fresh one, from now.
            { allowed: true, limit: 2, remaining: 2, resetAtMs: T0 + 1020 },
            { allowed: true, limit: 2, remaining: 0, resetAtMs: T0 + 1000 },
            { allowed: false, limit: 2, remaining: 0, resetAtMs: T0 + 1010 },
          ],
        });
        expect(await first.rateLimits.peek('c:a', limit, T0 + 30)).toMatchObject({ remaining: 2 });
        expect(await first.rateLimits.peek('c:d', limit, T0 + 30)).toMatchObject({ remaining: 1 });
        // A spent counting step refuses too, before the steps after it.
        expect(await first.rateLimits.consumeChain(chain, T0 + 40)).toMatchObject({
          refusedAt: 1,
          results: [{ allowed: true }, { allowed: false, remaining: 0 }],
        });
        expect(await first.rateLimits.consumeChain([], T0)).toEqual({ refusedAt: -1, results: [] });
      });

      it('admits exactly `limit` of many chains racing from both nodes', async () => {
        const { first, second } = fixture;
        const wide = { limit: 100, windowMs: 1000 };
        const chain = [
          { key: 'race:g', limit: { limit: 5, windowMs: 1000 }, count: true },
          { key: 'race:r', limit: wide, count: true },
        ];
        const outcomes = await Promise.all(
          Array.from({ length: 24 }, async (_, i) =>
            (i % 2 === 0 ? first : second).rateLimits.consumeChain(chain, T0),
          ),
        );
        expect(outcomes.filter((o) => o.refusedAt === -1)).toHaveLength(5);
        expect(outcomes.filter((o) => o.refusedAt === 0)).toHaveLength(19);
        // Only the admitted chains reached the second window.
        expect(await second.rateLimits.peek('race:r', wide, T0)).toMatchObject({
          remaining: 95,
        });
      });

      it('keeps long keys apart', async () => {
        const { first, second } = fixture;
        const long = 'a'.repeat(500);
        await first.rateLimits.consume(`${long}1`, { limit: 1, windowMs: 1000 }, T0);
        expect(
          await second.rateLimits.consume(`${long}2`, { limit: 1, windowMs: 1000 }, T0),
        ).toMatchObject({ allowed: true });
        expect(
          await second.rateLimits.consume(`${long}1`, { limit: 1, windowMs: 1000 }, T0),
        ).toMatchObject({ allowed: false });
      });
    });

    describe('identify buckets', () => {
      it('queues reservations into later windows instead of refusing', async () => {
        const { first, second } = fixture;
        const quota = { perWindow: 1, windowMs: WINDOW_MS };
        expect(await first.identifyBuckets.reserve('bot:0', quota, T0)).toBe(T0);
        expect(await second.identifyBuckets.reserve('bot:0', quota, T0 + 1)).toBe(T0 + WINDOW_MS);
        expect(await first.identifyBuckets.reserve('bot:0', quota, T0 + 2)).toBe(
          T0 + 2 * WINDOW_MS,
        );
        // Another bucket (shard_id % max_concurrency) is not held up.
        expect(await second.identifyBuckets.reserve('bot:1', quota, T0 + 3)).toBe(T0 + 3);
        // Once the queue has drained, the bucket starts afresh.
        expect(await second.identifyBuckets.reserve('bot:0', quota, T0 + 3 * WINDOW_MS)).toBe(
          T0 + 3 * WINDOW_MS,
        );
      });

      it('admits perWindow reservations per window, racing from both nodes', async () => {
        const { first, second } = fixture;
        const quota = { perWindow: 2, windowMs: WINDOW_MS };
        const starts = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (i % 2 === 0 ? first : second).identifyBuckets.reserve('wide', quota, T0),
          ),
        );
        expect(starts.sort((a, b) => a - b)).toEqual([
          T0,
          T0,
          T0 + WINDOW_MS,
          T0 + WINDOW_MS,
          T0 + 2 * WINDOW_MS,
          T0 + 2 * WINDOW_MS,
        ]);
      });
    });

    describe('presences', () => {
      const online = { status: 'online', activities: [{ name: 'chess', type: 0 }], afk: false };

      it('shows what one node set to the other, and only the users who have one', async () => {
        const { first, second } = fixture;
        await first.presences.set('u1', online, T0);
        await first.presences.set('u2', { status: 'idle' }, T0);
        await first.presences.set('u2', { status: 'dnd' }, T0 + 1);
        const seen = await second.presences.get(['u1', 'u2', 'u3'], T0 + 2);
        expect(Object.fromEntries(seen)).toEqual({ u1: online, u2: { status: 'dnd' } });
        expect(await second.presences.get([], T0)).toEqual(new Map());
      });

      it('expires an entry a TTL after its last set or refresh, by the caller’s clock', async () => {
        const { first, second, presenceTtlMs: ttl } = fixture;
        expect(first.presences.ttlMs).toBe(ttl);
        await first.presences.set('kept', online, T0);
        await first.presences.set('dropped', online, T0);
        await first.presences.refresh(['kept', 'absent'], T0 + ttl - 1);
        const later = await second.presences.get(['kept', 'dropped', 'absent'], T0 + ttl);
        expect([...later.keys()]).toEqual(['kept']);
        // An expired entry is not brought back by a refresh, nor an absent one made.
        await second.presences.refresh(['dropped', 'absent'], T0 + ttl + 1);
        expect([
          ...(await first.presences.get(['kept', 'dropped', 'absent'], T0 + ttl + 1)).keys(),
        ]).toEqual(['kept']);
        expect(await second.presences.get(['kept'], T0 + 2 * ttl - 2)).toHaveProperty('size', 1);
        expect(await second.presences.get(['kept'], T0 + 2 * ttl - 1)).toHaveProperty('size', 0);
      });

      it('reads and refreshes many users at once', async () => {
        const { first, second, presenceTtlMs: ttl } = fixture;
        const userIds = Array.from({ length: 2500 }, (_, i) => `m${i}`);
        const withPresence = userIds.filter((_, i) => i % 3 === 0);
        await Promise.all(withPresence.map((id) => first.presences.set(id, { id }, T0)));
        await second.presences.refresh(userIds, T0 + ttl - 1);
        const seen = await second.presences.get(userIds, T0 + ttl);
        expect([...seen.keys()]).toEqual(withPresence);
        expect(seen.get('m2499')).toEqual({ id: 'm2499' });
      });
    });

    describe('voice nodes', () => {
      const TTL = 15_000;
      const at = (ms: number) => ({ nowMs: T0 + ms, ttlMs: TTL });
      const claim = (callKey: string, endpoint: string, ms: number) => ({
        callKey,
        endpoint,
        ...at(ms),
      });

      it('lists the nodes that announced themselves until their heartbeat stops', async () => {
        const { first, second } = fixture;
        await first.voiceNodes.announce({ endpoint: 'a:1', load: 3 }, at(0));
        await second.voiceNodes.announce({ endpoint: 'b:2', load: 0 }, at(1000));
        const sorted = async (ms: number) =>
          (await first.voiceNodes.list(T0 + ms)).sort((x, y) =>
            x.endpoint.localeCompare(y.endpoint),
          );
        expect(await sorted(2000)).toEqual([
          { endpoint: 'a:1', load: 3 },
          { endpoint: 'b:2', load: 0 },
        ]);
        // a:1's heartbeat moves its expiry and its load.
        await first.voiceNodes.announce({ endpoint: 'a:1', load: 1 }, at(10_000));
        expect(await sorted(TTL + 1500)).toEqual([{ endpoint: 'a:1', load: 1 }]);
        expect(await second.voiceNodes.list(T0 + TTL + 10_000)).toEqual([]);
        await second.voiceNodes.announce({ endpoint: 'b:2', load: 0 }, at(30_000));
        await second.voiceNodes.withdraw('b:2');
        expect(await first.voiceNodes.list(T0 + 30_001)).toEqual([]);
      });

      it('claims a call for one node: set if absent, refreshed by its holder, released by it', async () => {
        const { first, second } = fixture;
        expect(await first.voiceNodes.holder('call', T0)).toBeNull();
        expect(await first.voiceNodes.claim(claim('call', 'a:1', 0))).toBe('a:1');
        // Another node's claim meanwhile finds the holder.
        expect(await second.voiceNodes.claim(claim('call', 'b:2', 10))).toBe('a:1');
        expect(await second.voiceNodes.holder('call', T0 + 10)).toBe('a:1');
        expect(await second.voiceNodes.refresh(claim('call', 'b:2', 20))).toBe(false);
        expect(await first.voiceNodes.refresh(claim('call', 'a:1', 10_000))).toBe(true);
        expect(await second.voiceNodes.holder('call', T0 + TTL + 5000)).toBe('a:1');
        // Not released by another node; expired without refreshes; then free for anyone.
        await second.voiceNodes.release('call', 'b:2');
        expect(await first.voiceNodes.holder('call', T0 + 10_001)).toBe('a:1');
        expect(await second.voiceNodes.holder('call', T0 + 10_000 + TTL)).toBeNull();
        expect(await first.voiceNodes.refresh(claim('call', 'a:1', 10_000 + TTL))).toBe(false);
        expect(await second.voiceNodes.claim(claim('call', 'b:2', 10_000 + TTL))).toBe('b:2');
        await second.voiceNodes.release('call', 'b:2');
        expect(await first.voiceNodes.holder('call', T0 + 10_000 + TTL)).toBeNull();
      });

      it('takes a call over from a holder found dead, and only from that one', async () => {
        const { first, second } = fixture;
        await first.voiceNodes.claim(claim('lobby', 'a:1', 0));
        expect(await second.voiceNodes.claim(claim('lobby', 'b:2', 10), 'c:3')).toBe('a:1');
        expect(await second.voiceNodes.claim(claim('lobby', 'b:2', 10), 'a:1')).toBe('b:2');
        expect(await first.voiceNodes.holder('lobby', T0 + 20)).toBe('b:2');
        // Calls are apart from each other, and long keys are kept bounded.
        const long = 'x'.repeat(500);
        expect(await first.voiceNodes.claim(claim(long, 'a:1', 0))).toBe('a:1');
        expect(await second.voiceNodes.holder(long, T0 + 1)).toBe('a:1');
        expect(await second.voiceNodes.holder('other', T0 + 1)).toBeNull();
      });
    });
  });
}
