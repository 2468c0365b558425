import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { firedTimers } from '../../test/support/firedTimers.js';
import { openTestStorage, type TestStorage } from '../../test/support/testStorage.js';
import { manualClock } from '../domain/clock.js';
import { createLogger } from '../logger.js';
import { EncodedDispatch } from './frames.js';
import {
  createDatabaseSessionStore,
  type SessionStore,
  type StoredSession,
} from './sessionStore.js';

const NOW = Date.UTC(2026, 10, 24, 13);
const RESUME_WINDOW_MS = 5 * 60_000;
const HEARTBEAT_MS = 10_000;

const session = (id: string): StoredSession => ({
  id,
  userId: '42',
  intents: 1,
  shard: [0, 1],
  obfuscate: false,
  largeThreshold: 50,
});

/** The shared session store's rows, kept per node: a dead node's go once nobody can resume them. */
describeDrivers('the shared gateway session store on $driver', (driver) => {
  let fixture: TestStorage;
  const clock = manualClock(NOW);
  const stores: SessionStore[] = [];
  beforeEach(async () => {
    clock.set(NOW);
    fixture = await openTestStorage(driver, { prefix: 'gwnodes' });
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await fixture.dispose();
  });

  /** A gateway node's store, its timers fired by the test. */
  const node = () => {
    const waits = firedTimers();
    const store = createDatabaseSessionStore({
      storage: fixture.storage,
      keep: 100,
      logger: createLogger('silent'),
      clock,
      timers: waits.timers,
      resumeWindowMs: RESUME_WINDOW_MS,
      heartbeatMs: HEARTBEAT_MS,
    });
    stores.push(store);
    return { store, fire: () => waits.fire() };
  };
  /** Lets the stores' queued writes and passes finish. */
  const settle = async () => {
    for (const store of stores) await store.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const store of stores) await store.flush();
  };
  const stored = async (id: string) => (await fixture.storage.gateway.findSession(id)) !== null;

  it("sweeps a stopped node's sessions once the resume window has passed, and no others", async () => {
    const a = node();
    const b = node();
    a.fire();
    b.fire();
    for (const id of ['a1', 'a2', 'taken']) a.store.save(session(id));
    b.store.save(session('b1'));
    a.store.record({
      sessionId: 'a1',
      seq: 1,
      event: new EncodedDispatch('GUILD_ROLE_CREATE', { id: '1' }),
      source: null,
    });
    await settle();
    expect(await fixture.storage.gateway.replaySince('a1', 0)).toHaveLength(1);
    // Node b takes over one of a's sessions (a RESUME there): it is b's now.
    b.store.save(session('taken'));
    a.store.release('taken');
    await settle();
    // Node a stops: its heartbeat ends with it.
    await a.store.close();

    // Within the resume window (and its margin) a's sessions may still be resumed elsewhere.
    clock.advance(RESUME_WINDOW_MS);
    b.fire();
    await settle();
    for (const id of ['a1', 'a2', 'taken', 'b1']) expect(await stored(id)).toBe(true);

    clock.advance(3 * HEARTBEAT_MS + 1);
    b.fire();
    // The sweep deletes in batches: wait until it has deleted both of a's own sessions.
    await vi.waitFor(async () => {
      expect(await stored('a1')).toBe(false);
      expect(await stored('a2')).toBe(false);
    });
    expect(await fixture.storage.gateway.replaySince('a1', 0)).toEqual([]);
    expect(await stored('taken')).toBe(true);
    expect(await stored('b1')).toBe(true);
  });

  it('a node cut off from the database past the window stores its sessions again', async () => {
    const a = node();
    const b = node();
    a.fire();
    b.fire();
    a.store.save(session('a1'));
    await settle();
    // a's heartbeats stop reaching the database (its timers do not fire): b sweeps its sessions.
    clock.advance(RESUME_WINDOW_MS + 3 * HEARTBEAT_MS + 1);
    b.fire();
    await vi.waitFor(async () => {
      expect(await stored('a1')).toBe(false);
    });
    // a is back: its next heartbeat finds it was taken for dead, and it stores its sessions again.
    a.fire();
    await vi.waitFor(async () => {
      expect(await stored('a1')).toBe(true);
    });
    clock.advance(HEARTBEAT_MS);
    a.fire();
    b.fire();
    await settle();
    expect(await stored('a1')).toBe(true);
  });
});
