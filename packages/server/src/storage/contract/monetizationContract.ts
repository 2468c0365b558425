import { afterAll, beforeAll, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import { StorageConflictError } from '../errors.js';
import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from '../types/monetization.js';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

/** SKUs, entitlements and subscriptions (migration 0031), on every driver; one database. */
export function describeMonetizationContract(makeStorage: () => Promise<StorageFixture>): void {
  let fixture: StorageFixture;
  let storage: Storage;
  const clock = manualClock(Date.UTC(2026, 10, 24, 12));
  const nextId = createSnowflakeGenerator({ clock, workerId: 1 });
  let appId: string;
  let ann: string;
  let bob: string;

  const user = async (username: string) =>
    (await storage.users.create({ id: nextId(), username, createdAt: clock.now() })).id;
  const sku = async (extra: Partial<SkuRecord> = {}): Promise<SkuRecord> => {
    const record: SkuRecord = {
      id: nextId(),
      applicationId: appId,
      type: 3,
      name: 'Potion',
      slug: `potion-${nextId()}`,
      flags: 4,
      createdAt: clock.now(),
      ...extra,
    };
    await storage.skus.create(record);
    return record;
  };
  const entitlement = async (
    skuId: string,
    extra: Partial<EntitlementRecord> = {},
  ): Promise<EntitlementRecord> => {
    const record: EntitlementRecord = {
      id: nextId(),
      applicationId: appId,
      skuId,
      userId: ann,
      guildId: null,
      type: 4,
      startsAt: null,
      endsAt: null,
      consumed: false,
      deleted: false,
      subscriptionId: null,
      createdAt: clock.now(),
      updatedAt: clock.now(),
      ...extra,
    };
    await storage.entitlements.create(record);
    return record;
  };

  beforeAll(async () => {
    fixture = await makeStorage();
    storage = fixture.storage;
    ann = await user('ann');
    bob = await user('bob');
    appId = (
      await storage.applications.create({
        id: nextId(),
        name: 'shop',
        ownerId: ann,
        botUserId: null,
        verifyKey: 'ab'.repeat(32),
        signingKey: 'key',
        clientSecretHash: 'hash',
        flags: 0n,
        redirectUris: [],
        createdAt: clock.now(),
      })
    ).id;
  });
  afterAll(() => fixture.dispose());

  it('keeps SKUs with unique slugs per application, and updates them', async () => {
    const made = await sku({ slug: 'sword', type: 2 });
    expect(await storage.skus.findById(made.id)).toEqual(made);
    await expect(sku({ slug: 'sword' })).rejects.toBeInstanceOf(StorageConflictError);
    const other = await sku({ slug: 'shield' });
    await expect(storage.skus.update(other.id, { slug: 'sword' })).rejects.toBeInstanceOf(
      StorageConflictError,
    );
    expect(await storage.skus.update(made.id, { name: 'Blade', flags: 0 })).toEqual({
      ...made,
      name: 'Blade',
      flags: 0,
    });
    expect((await storage.skus.listByApplication(appId)).map((s) => s.id)).toContain(other.id);
    expect(await storage.skus.findById('1')).toBeNull();
  });

  it('lists entitlements by every filter, pages both ways, and finds those in force', async () => {
    const potion = await sku();
    const sword = await sku({ type: 2 });
    const now = clock.now();
    const a = await entitlement(potion.id);
    const b = await entitlement(sword.id, { userId: bob, startsAt: now - 10, endsAt: now - 1 });
    const c = await entitlement(potion.id, { consumed: true });
    const d = await entitlement(sword.id, { deleted: true });
    const e = await entitlement(potion.id, { startsAt: now + 1_000 });
    const base = { applicationId: appId, limit: 100, excludeDeleted: true };
    const ids = async (query: Partial<Parameters<Storage['entitlements']['list']>[0]>) =>
      (await storage.entitlements.list({ ...base, ...query })).map((x) => x.id);
    const mine = [a, b, c, d, e].map((x) => x.id);
    const listed = await ids({});
    expect(listed.filter((id) => mine.includes(id))).toEqual([e.id, c.id, b.id, a.id]);
    expect(await ids({ userId: bob })).toEqual([b.id]);
    expect(await ids({ skuIds: [sword.id], excludeDeleted: false })).toEqual([d.id, b.id]);
    expect(await ids({ skuIds: [] })).toEqual([]);
    expect(await ids({ skuIds: [potion.id], excludeConsumed: true })).toEqual([e.id, a.id]);
    expect(await ids({ skuIds: [sword.id, potion.id], endedBefore: now })).toEqual([
      e.id,
      c.id,
      a.id,
    ]);
    expect(await ids({ skuIds: [sword.id, potion.id], activeAt: now })).toEqual([a.id]);
    expect(await ids({ skuIds: [potion.id], after: a.id, limit: 1 })).toEqual([c.id]);
    expect(await ids({ skuIds: [potion.id], before: e.id, limit: 1 })).toEqual([c.id]);
    const inForce = await storage.entitlements.listInForce(
      appId,
      { userId: ann, guildId: null },
      now,
    );
    expect(inForce.map((x) => x.id)).toEqual([a.id]);
    expect(await storage.entitlements.update(a.id, { consumed: true, updatedAt: now + 5 })).toEqual(
      { ...a, consumed: true, updatedAt: now + 5 },
    );
  });

  it('keeps subscriptions with their entitlements, pages them per SKU, deletes them', async () => {
    const plan = await sku({ type: 5, flags: 260 });
    const now = clock.now();
    const subscription = (userId: string): SubscriptionRecord => ({
      id: nextId(),
      applicationId: appId,
      skuId: plan.id,
      userId,
      guildId: null,
      renewalSkuIds: [plan.id],
      currentPeriodStart: now,
      currentPeriodEnd: now + 1_000,
      status: 0,
      canceledAt: null,
      country: null,
      createdAt: now,
      updatedAt: now,
    });
    const first = subscription(ann);
    const second = subscription(ann);
    const third = subscription(bob);
    for (const s of [first, second, third]) await storage.subscriptions.create(s);
    const granted = await entitlement(plan.id, { type: 8, subscriptionId: second.id });
    expect(await storage.subscriptions.findById(first.id)).toEqual(first);
    const page = async (query: {
      userId?: string;
      before?: string;
      after?: string;
      limit: number;
    }) => (await storage.subscriptions.listBySku({ skuId: plan.id, ...query })).map((s) => s.id);
    expect(await page({ limit: 10 })).toEqual([third.id, second.id, first.id]);
    expect(await page({ userId: ann, limit: 10 })).toEqual([second.id, first.id]);
    expect(await page({ after: first.id, limit: 1 })).toEqual([second.id]);
    expect(await page({ before: third.id, limit: 1 })).toEqual([second.id]);
    expect(
      (await storage.entitlements.listBySubscriptions([second.id, first.id])).map((x) => x.id),
    ).toEqual([granted.id]);
    const updated = await storage.subscriptions.update(second.id, {
      status: 2,
      canceledAt: now + 1,
      renewalSkuIds: null,
      updatedAt: now + 1,
    });
    expect(updated).toEqual({
      ...second,
      status: 2,
      canceledAt: now + 1,
      renewalSkuIds: null,
      updatedAt: now + 1,
    });
    expect(await storage.subscriptions.delete(second.id)).toBe(true);
    expect(await storage.subscriptions.delete(second.id)).toBe(false);
    expect(await storage.subscriptions.findById(second.id)).toBeNull();
    // The entitlement stays, no longer tied to the subscription.
    expect(await storage.entitlements.findById(granted.id)).toMatchObject({ subscriptionId: null });
  });
}
