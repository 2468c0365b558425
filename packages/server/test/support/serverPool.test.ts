import { snowflakeTimestampMs } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { manualClock, realTimers } from '../../src/domain/clock.js';
import { registration } from './fileServer.js';
import { acquirePooledServer, poolKey, type PooledServer } from './serverPool.js';
import type { TestServer } from './testServer.js';

/** When the server dates what it makes now: the time in a new user's id. */
const idTime = async (server: TestServer) =>
  snowflakeTimestampMs((await server.app.services.auth.register(registration('pool'))).user_id);

const shared = (pooled: PooledServer | null): PooledServer => {
  if (pooled === null) throw new Error('not shared');
  return pooled;
};

describe('the worker pool of test servers', () => {
  it('keys plain options by value and driver, and refuses options that carry identity', () => {
    const clock = manualClock(Date.UTC(2026, 0, 1));
    expect(
      poolKey({ storage: 'sqlite', config: { maxBodyBytes: 1, demo: true }, listen: true }),
    ).toBe(poolKey({ listen: true, config: { demo: true, maxBodyBytes: 1 } }));
    expect(poolKey({ config: { maxBodyBytes: 1 } })).not.toBe(
      poolKey({ config: { maxBodyBytes: 2 } }),
    );
    expect(poolKey({ storage: 'postgres' })).not.toBe(poolKey({ storage: 'sqlite' }));
    expect(poolKey({ clock })).toBe(poolKey({ clock: manualClock(0) }));
    expect(poolKey({ clock })).not.toBe(poolKey({}));
    expect(poolKey({ timedSweep: false })).not.toBeNull();
    expect(poolKey({ timedSweep: { timers: realTimers } })).toBeNull();
    expect(poolKey({ processId: 3 })).toBeNull();
    expect(poolKey({ dataDir: '/tmp/x' })).toBeNull();
  });

  it('hands a server on only to a clock at or after what it read, and reports a rewound clock', async () => {
    // A config no other file uses: the servers here are this test's.
    const options = { config: { maxBodyBytes: 4321 } };
    const first = manualClock(Date.UTC(2026, 5, 1));
    const a = shared(await acquirePooledServer({ ...options, clock: first }));
    first.advance(60_000);
    expect(await idTime(a.server)).toBe(Date.UTC(2026, 5, 1) + 60_000);
    await a.release();

    // Earlier than the server read: a server of its own.
    const earlier = manualClock(Date.UTC(2026, 0, 1));
    const b = shared(await acquirePooledServer({ ...options, clock: earlier }));
    expect(b.server).not.toBe(a.server);
    // Later: the same server, on the new clock.
    const later = manualClock(Date.UTC(2026, 6, 1));
    const c = shared(await acquirePooledServer({ ...options, clock: later }));
    expect(c.server).toBe(a.server);
    expect(await idTime(c.server)).toBe(Date.UTC(2026, 6, 1));
    await c.release();

    earlier.set(Date.UTC(2025, 11, 1));
    await idTime(b.server);
    await expect(b.release()).rejects.toThrow(/went back to 2025-12-01/);
  });
});
