import { deconstructSnowflake } from '@guildhall/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import {
  TEST_DATABASE_URL,
  acquireSchema,
  postgresAvailable,
  releaseSchema,
} from '../test/support/postgres.js';
import { seedDeveloper, startTestServer, type TestServer } from '../test/support/testServer.js';
import { ConfigError } from './config.js';
import { manualClock, type Timers } from './domain/clock.js';
import { createLogger } from './logger.js';
import { createPostgresStorage } from './storage/postgres/index.js';
import { createSqliteStorage } from './storage/sqlite/index.js';
import type { Storage } from './storage/index.js';
import {
  DEFAULT_WORKER_LEASE_OPTIONS,
  LEASABLE_SLOTS,
  leaseWorkerSlot,
  leasedIdGenerator,
  type WorkerLease,
} from './workerLease.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const { ttlMs, renewEveryMs } = DEFAULT_WORKER_LEASE_OPTIONS;
const logger = createLogger('silent');

/** Timers a test fires by hand. */
function handTimers(): Timers & { fire(): Promise<void> } {
  let pending: (() => void) | null = null;
  return {
    schedule(fn) {
      pending = fn;
      return () => {
        pending = null;
      };
    },
    async fire() {
      const fn = pending;
      pending = null;
      fn?.();
      // The renewal's queries, then its rescheduling.
      await expect.poll(() => pending !== null).toBe(true);
    },
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function postgres(): { schema: string; open: () => Promise<Storage> } {
  // A migrated schema of the worker's pool (emptied again after), or a new one.
  const schema = acquireSchema();
  cleanups.push(() => releaseSchema(schema));
  const open = async () => {
    const storage = await createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema });
    cleanups.push(() => storage.close());
    return storage;
  };
  return { schema, open };
}

describe('leaseWorkerSlot on SQLite', () => {
  it('keeps the configured id (0 when unset) and leases nothing', async () => {
    const storage = createSqliteStorage({ filename: ':memory:' });
    cleanups.push(() => storage.close());
    const deps = { storage, clock: manualClock(NOW), timers: handTimers(), logger, processId: 0 };
    const unset = await leaseWorkerSlot({ ...deps, workerId: null });
    expect(unset.slot()).toEqual({ workerId: 0, processId: 0 });
    expect(unset.leased).toBe(false);
    const set = await leaseWorkerSlot({ ...deps, workerId: 9, processId: 31 });
    expect(set.slot()).toEqual({ workerId: 9, processId: 31 });
    expect(await storage.workerLeases.listLive(NOW)).toEqual([]);
  });
});

describe.skipIf(!postgresAvailable)('leaseWorkerSlot on PostgreSQL', () => {
  const lease = (storage: Storage, workerId: number | null, timers = handTimers()) =>
    leaseWorkerSlot({ storage, clock, timers, logger, workerId, processId: 0 });
  const clock = manualClock(NOW);
  const leases: WorkerLease[] = [];
  afterEach(async () => {
    for (const held of leases.splice(0)) await held.release();
    clock.set(NOW);
  });

  it('gives each process a free slot, and frees it when the process stops', async () => {
    const { open } = postgres();
    const storage = await open();
    const first = await lease(storage, null);
    const second = await lease(await open(), null);
    leases.push(first, second);
    expect(first.slot()).toEqual(LEASABLE_SLOTS[0]);
    expect(second.slot()).toEqual(LEASABLE_SLOTS[1]);
    await first.release();
    expect((await storage.workerLeases.listLive(NOW)).map((l) => l.workerId)).toEqual([
      second.slot().workerId,
    ]);
    // The freed slot is the next one leased.
    const third = await lease(await open(), null);
    leases.push(third);
    expect(third.slot()).toEqual(LEASABLE_SLOTS[0]);
  });

  it('honours a configured id, and refuses it while another live process holds it', async () => {
    const { open } = postgres();
    const first = await lease(await open(), 5);
    leases.push(first);
    expect(first.slot()).toEqual({ workerId: 5, processId: 0 });
    const refused = lease(await open(), 5);
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(/GUILDHALL_WORKER_ID 5: worker id 5 .* is in use/);
    // A process that stopped without freeing it (SIGKILL) holds it until its lease ends.
    clock.advance(ttlMs);
    const after = await lease(await open(), 5);
    leases.push(after);
    expect(after.slot()).toEqual({ workerId: 5, processId: 0 });
  });

  it('refuses to start when every slot is leased', async () => {
    const { open } = postgres();
    const storage = await open();
    // All 960 claims at once, over the pool's connections: one after another they took seconds.
    await Promise.all(
      LEASABLE_SLOTS.map((slot) =>
        storage.workerLeases.claim({ ...slot, holder: 'other', expiresAt: NOW + ttlMs }, NOW),
      ),
    );
    await expect(lease(storage, null)).rejects.toThrow(
      `No free snowflake worker id: all ${String(LEASABLE_SLOTS.length)} of this database are leased`,
    );
  });

  it('renews its lease on the timer, and moves to a free slot when it lost it', async () => {
    const { open } = postgres();
    const storage = await open();
    const timers = handTimers();
    const held = await lease(storage, null, timers);
    leases.push(held);
    const first = held.slot();
    const ids = leasedIdGenerator(held, clock);
    expect(deconstructSnowflake(ids())).toMatchObject(LEASABLE_SLOTS[0] ?? {});
    clock.advance(renewEveryMs);
    await timers.fire();
    expect(await storage.workerLeases.listLive(NOW + ttlMs)).toEqual([
      expect.objectContaining({ ...LEASABLE_SLOTS[0], expiresAt: NOW + renewEveryMs + ttlMs }),
    ]);
    // Stalled past its lease: another process took the slot meanwhile.
    clock.advance(2 * ttlMs);
    await storage.workerLeases.claim(
      { ...first, holder: 'intruder', expiresAt: clock.now() + ttlMs },
      clock.now(),
    );
    await timers.fire();
    expect(held.slot()).toEqual(LEASABLE_SLOTS[1]);
    expect(deconstructSnowflake(ids())).toMatchObject(LEASABLE_SLOTS[1] ?? {});
  });
});

describe.skipIf(!postgresAvailable)('apps sharing one PostgreSQL database', () => {
  it('mint ids with different worker slots', async () => {
    const schema = acquireSchema();
    cleanups.push(() => releaseSchema(schema));
    const servers: TestServer[] = [];
    cleanups.push(async () => {
      for (const server of servers.reverse()) await server.close();
    });
    for (let i = 0; i < 2; i++) {
      servers.push(await startTestServer({ storage: 'postgres', database: schema }));
    }
    const [a, b] = servers as [TestServer, TestServer];
    const slotOf = async (server: TestServer, name: string) => {
      const { workerId, processId } = deconstructSnowflake(
        (await seedDeveloper(server.app, name)).userId,
      );
      return { workerId, processId };
    };
    const [slotA, slotB] = [await slotOf(a, 'first'), await slotOf(b, 'second')];
    expect(slotA).not.toEqual(slotB);
    const live = await a.app.storage.workerLeases.listLive(Date.now());
    expect(live.map(({ workerId, processId }) => ({ workerId, processId }))).toEqual(
      expect.arrayContaining([slotA, slotB]),
    );
    await b.close();
    servers.pop();
    expect(await a.app.storage.workerLeases.listLive(Date.now())).toHaveLength(1);
  });
});
