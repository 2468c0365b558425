import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const TTL_MS = 30_000;

/** The snowflake worker slot leases, on every driver. */
export function describeWorkerLeasesContract(makeStorage: () => Promise<StorageFixture>): void {
  let fixture: StorageFixture;
  let storage: Storage;
  const slot = { workerId: 3, processId: 1 };
  const lease = (holder: string, nowMs = NOW) => ({
    ...slot,
    holder,
    expiresAt: nowMs + TTL_MS,
  });

  beforeEach(async () => {
    fixture = await makeStorage();
    storage = fixture.storage;
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('gives a free slot to the first holder and shows the live lease to the next', async () => {
    expect(await storage.workerLeases.claim(lease('a'), NOW)).toEqual(lease('a'));
    expect(await storage.workerLeases.claim(lease('b'), NOW + 1)).toEqual(lease('a'));
    expect(await storage.workerLeases.listLive(NOW)).toEqual([lease('a')]);
    // Its own holder claims it again (a restart of the check) and moves the expiry.
    expect(await storage.workerLeases.claim(lease('a', NOW + 5), NOW + 5)).toEqual(
      lease('a', NOW + 5),
    );
  });

  it('lets another holder take a slot once its lease has ended', async () => {
    await storage.workerLeases.claim(lease('a'), NOW);
    const later = NOW + TTL_MS;
    expect(await storage.workerLeases.listLive(later)).toEqual([]);
    expect(await storage.workerLeases.claim(lease('b', later), later)).toEqual(lease('b', later));
    // The old holder has lost it: it cannot renew or release another's lease.
    expect(await storage.workerLeases.renew(lease('a', later))).toBe(false);
    await storage.workerLeases.release({ ...slot, holder: 'a' });
    expect(await storage.workerLeases.listLive(later)).toEqual([lease('b', later)]);
  });

  it('renews a held lease, and frees the slot on release', async () => {
    await storage.workerLeases.claim(lease('a'), NOW);
    expect(await storage.workerLeases.renew(lease('a', NOW + 10_000))).toBe(true);
    expect(await storage.workerLeases.listLive(NOW + TTL_MS)).toEqual([lease('a', NOW + 10_000)]);
    await storage.workerLeases.release({ ...slot, holder: 'a' });
    expect(await storage.workerLeases.listLive(NOW)).toEqual([]);
    expect(await storage.workerLeases.renew(lease('a', NOW + 20_000))).toBe(false);
    expect(await storage.workerLeases.claim(lease('b'), NOW)).toEqual(lease('b'));
  });

  it('of many claims of one slot at once, exactly one wins', async () => {
    const holders = Array.from({ length: 8 }, (_, i) => `h${String(i)}`);
    const results = await Promise.all(
      holders.map((holder) => storage.workerLeases.claim(lease(holder), NOW)),
    );
    const winner = results[0]?.holder;
    expect(results.every((r) => r.holder === winner)).toBe(true);
    expect(await storage.workerLeases.listLive(NOW)).toHaveLength(1);
  });

  it('lists live leases in slot order', async () => {
    const at = (workerId: number, processId: number, holder: string) => ({
      workerId,
      processId,
      holder,
      expiresAt: NOW + TTL_MS,
    });
    await storage.workerLeases.claim(at(2, 1, 'x'), NOW);
    await storage.workerLeases.claim(at(0, 2, 'y'), NOW);
    await storage.workerLeases.claim(at(0, 1, 'z'), NOW);
    await storage.workerLeases.claim({ ...at(1, 1, 'gone'), expiresAt: NOW }, NOW - 1);
    expect(await storage.workerLeases.listLive(NOW)).toEqual([
      at(0, 1, 'z'),
      at(0, 2, 'y'),
      at(2, 1, 'x'),
    ]);
  });
}
