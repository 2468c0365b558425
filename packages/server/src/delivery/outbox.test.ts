import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage, type TestStorage } from '../../test/support/testStorage.js';
import { generateSigningKeyPair } from '../domain/credentials.js';
import type { Storage } from '../storage/index.js';

const NOW = Date.UTC(2026, 10, 1);
const LEASE = 60_000;
const APP_ID = '1000';

describeDrivers('outbox on $driver', (driver) => {
  let db: TestStorage;
  let nextId = 5000;

  beforeEach(async () => {
    db = await openTestStorage(driver, { prefix: 'outbox', reopenable: true });
    await db.storage.users.create({ id: '900', username: 'owner', createdAt: NOW });
    await db.storage.applications.create({
      id: APP_ID,
      name: 'outbox app',
      ownerId: '900',
      botUserId: null,
      ...generateSigningKeyPair(),
      clientSecretHash: 'x',
      createdAt: NOW,
    });
  });
  afterEach(async () => {
    await db.dispose();
  });

  const enqueue = async (createdAt = NOW) => {
    const id = String(nextId++);
    await db.storage.outbox.enqueue({
      id,
      applicationId: APP_ID,
      eventType: 'APPLICATION_DEAUTHORIZED',
      event: '{"type":"APPLICATION_DEAUTHORIZED","timestamp":"t","data":{}}',
      createdAt,
      giveUpAt: createdAt + 600_000,
    });
    return id;
  };
  const finish = (id: string, attempt: number, next: 'delivered' | { retryAt: number }) =>
    db.storage.outbox.finishAttempt({
      attempt: {
        outboxId: id,
        attempt,
        startedAt: NOW,
        durationMs: 3,
        httpStatus: 204,
        error: null,
      },
      next:
        next === 'delivered' ? { status: 'delivered', at: NOW } : { status: 'pending', ...next },
    });

  it('claims due events once per lease, counting attempts', async () => {
    const due = await enqueue();
    await enqueue(NOW + 10_000);
    const claimed = await db.storage.outbox.claimDue({ now: NOW, limit: 10, leaseMs: LEASE });
    expect(claimed).toEqual([
      expect.objectContaining({
        id: due,
        attempts: 1,
        status: 'pending',
        nextAttemptAt: NOW + LEASE,
      }),
    ]);
    // Claimed: not again until its lease runs out; the other is not due yet.
    expect(await db.storage.outbox.claimDue({ now: NOW + 1, limit: 10, leaseMs: LEASE })).toEqual(
      [],
    );
    // A worker that died mid-delivery: after the lease the event is claimed again.
    const again = await db.storage.outbox.claimDue({ now: NOW + LEASE, limit: 10, leaseMs: LEASE });
    expect(again.map((e) => [e.id, e.attempts])).toContainEqual([due, 2]);
  });

  it('records an attempt only for the latest claim', async () => {
    const id = await enqueue();
    await db.storage.outbox.claimDue({ now: NOW, limit: 1, leaseMs: LEASE });
    await db.storage.outbox.claimDue({ now: NOW + LEASE, limit: 1, leaseMs: LEASE });
    // Attempt 1's worker comes back late: its result is ignored.
    expect(await finish(id, 1, 'delivered')).toBe(false);
    expect(await finish(id, 2, { retryAt: NOW + LEASE + 5000 })).toBe(true);
    expect(await db.storage.outbox.findById(id)).toMatchObject({
      status: 'pending',
      attempts: 2,
      nextAttemptAt: NOW + LEASE + 5000,
    });
    expect(await db.storage.outbox.listAttempts([id])).toEqual([
      { outboxId: id, attempt: 2, startedAt: NOW, durationMs: 3, httpStatus: 204, error: null },
    ]);
    const [claim] = await db.storage.outbox.claimDue({
      now: NOW + LEASE + 5000,
      limit: 1,
      leaseMs: LEASE,
    });
    expect(claim?.attempts).toBe(3);
    expect(await finish(id, 3, 'delivered')).toBe(true);
    expect(await db.storage.outbox.findById(id)).toMatchObject({
      status: 'delivered',
      finishedAt: NOW,
    });
    expect(await db.storage.outbox.claimDue({ now: NOW * 2, limit: 10, leaseMs: LEASE })).toEqual(
      [],
    );
  });

  it('claims at most the limit, oldest due first', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await enqueue(NOW - 1000 + i));
    const claimed = await db.storage.outbox.claimDue({ now: NOW, limit: 3, leaseMs: LEASE });
    expect(claimed.map((e) => e.id)).toEqual(ids.slice(0, 3));
  });

  it('lists an app’s events newest first, paging with before', async () => {
    const ids = [await enqueue(), await enqueue(), await enqueue()];
    const all = await db.storage.outbox.listByApplication(APP_ID, { limit: 10 });
    expect(all.map((e) => e.id)).toEqual([...ids].reverse());
    const page = await db.storage.outbox.listByApplication(APP_ID, { limit: 10, before: ids[2] });
    expect(page.map((e) => e.id)).toEqual([ids[1], ids[0]]);
  });

  it(`concurrent claimers on two ${driver} connections never get the same event`, async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 60; i++) ids.add(await enqueue());
    const second = await db.another();
    const claimedBy = async (storage: Storage) => {
      const got: string[] = [];
      for (;;) {
        const batch = await storage.outbox.claimDue({ now: NOW, limit: 4, leaseMs: LEASE });
        if (batch.length === 0) return got;
        got.push(...batch.map((e) => e.id));
      }
    };
    const results = await Promise.all([
      claimedBy(db.storage),
      claimedBy(second),
      claimedBy(db.storage),
      claimedBy(second),
    ]);
    const all = results.flat();
    expect(all).toHaveLength(60);
    expect(new Set(all)).toEqual(ids);
  });
});
