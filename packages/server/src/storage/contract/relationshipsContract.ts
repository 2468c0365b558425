import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import { RelationshipType, type RelationshipRecord } from '../types/relationships.js';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

/** Friends, requests, blocks and the message setting, on every driver. */
export function describeRelationshipsContract(makeStorage: () => Promise<StorageFixture>): void {
  let fixture: StorageFixture;
  let storage: Storage;
  const clock = manualClock(Date.UTC(2026, 10, 24, 12));
  const nextId = createSnowflakeGenerator({ clock, workerId: 2 });
  let ada: string;
  let bob: string;
  let cy: string;
  let app: string;

  beforeEach(async () => {
    fixture = await makeStorage();
    storage = fixture.storage;
    const user = async (username: string) =>
      (await storage.users.create({ id: nextId(), username, createdAt: clock.now() })).id;
    ada = await user('ada');
    bob = await user('bob');
    cy = await user('cy');
    app = nextId();
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  const row = (
    [userId, targetId]: [string, string],
    type: RelationshipRecord['type'],
    extra: Partial<RelationshipRecord> = {},
  ): RelationshipRecord => ({
    userId,
    targetId,
    applicationId: null,
    type,
    nickname: null,
    isSpamRequest: false,
    since: clock.now(),
    ...extra,
  });
  const friends = async (a: string, b: string, applicationId: string | null = null) => {
    await storage.relationships.put(row([a, b], RelationshipType.FRIEND, { applicationId }));
    await storage.relationships.put(row([b, a], RelationshipType.FRIEND, { applicationId }));
  };

  it('stores, replaces, reads and deletes one side per scope', async () => {
    const request = row([ada, bob], RelationshipType.PENDING_OUTGOING, { nickname: 'Bobby' });
    await storage.relationships.put(request);
    await storage.relationships.put(
      row([bob, ada], RelationshipType.PENDING_INCOMING, { isSpamRequest: true, since: 5 }),
    );
    expect(await storage.relationships.get(ada, bob)).toEqual(request);
    expect(await storage.relationships.get(ada, bob, null)).toEqual(request);
    expect(await storage.relationships.get(ada, bob, app)).toBeNull();
    expect(await storage.relationships.get(bob, ada)).toMatchObject({
      type: RelationshipType.PENDING_INCOMING,
      isSpamRequest: true,
      since: 5,
    });
    const accepted = { ...request, type: RelationshipType.FRIEND, nickname: null, since: 9 };
    await storage.relationships.put(accepted);
    expect(await storage.relationships.get(ada, bob)).toEqual(accepted);
    expect(await storage.relationships.delete(ada, bob)).toBe(true);
    expect(await storage.relationships.delete(ada, bob)).toBe(false);
    expect(await storage.relationships.get(ada, bob)).toBeNull();
  });

  it('keeps platform-wide and game-scoped relationships apart', async () => {
    await friends(ada, bob);
    await friends(ada, cy, app);
    expect((await storage.relationships.listForUser(ada)).map((r) => r.targetId)).toEqual([bob]);
    const game = await storage.relationships.listForUser(ada, app);
    expect(game).toEqual([row([ada, cy], RelationshipType.FRIEND, { applicationId: app })]);
    expect(await storage.relationships.listEveryScope(ada)).toHaveLength(2);
    expect(await storage.relationships.count(ada, RelationshipType.FRIEND)).toBe(1);
    expect(await storage.relationships.count(ada, RelationshipType.FRIEND, app)).toBe(1);
    expect(await storage.relationships.count(ada, RelationshipType.BLOCKED)).toBe(0);

    expect(await storage.relationships.areFriends(ada, bob)).toBe(true);
    expect(await storage.relationships.areFriends(ada, cy)).toBe(false);
    expect(await storage.relationships.areFriends(ada, cy, app)).toBe(true);
    // Platform-wide friends are friends in every application too.
    expect(await storage.relationships.areFriends(ada, bob, app)).toBe(true);
    expect(await storage.relationships.friendIds(ada)).toEqual([bob]);
    expect(await storage.relationships.friendIds(ada, app)).toEqual([bob, cy].sort(byId));
    expect(await storage.relationships.friendIds(ada, nextId())).toEqual([bob]);
    expect(await storage.relationships.allFriendIds(ada)).toEqual([bob, cy].sort(byId));
    expect(await storage.relationships.allFriendIds(cy)).toEqual([ada]);
  });

  it('tells blocks in either direction, and requests are not friends', async () => {
    await storage.relationships.put(row([ada, bob], RelationshipType.PENDING_OUTGOING));
    await storage.relationships.put(row([bob, ada], RelationshipType.PENDING_INCOMING));
    expect(await storage.relationships.areFriends(ada, bob)).toBe(false);
    expect(await storage.relationships.friendIds(ada)).toEqual([]);
    expect(await storage.relationships.isBlockedEitherWay(ada, bob)).toBe(false);
    await storage.relationships.put(
      row([cy, ada], RelationshipType.BLOCKED, { applicationId: app }),
    );
    expect(await storage.relationships.isBlockedEitherWay(ada, cy)).toBe(true);
    expect(await storage.relationships.isBlockedEitherWay(cy, ada)).toBe(true);
    expect(await storage.relationships.isBlockedEitherWay(bob, cy)).toBe(false);
    expect(await storage.relationships.blockerIds(ada)).toEqual([cy]);
    expect(await storage.relationships.blockerIds(cy)).toEqual([]);
    expect(await storage.relationships.blockersAmong(ada, [bob, cy])).toEqual([cy]);
    expect(await storage.relationships.blockersAmong(ada, [bob])).toEqual([]);
    expect(await storage.relationships.blockersAmong(cy, [ada, bob])).toEqual([]);
    expect(await storage.relationships.blockersAmong(ada, [])).toEqual([]);
    const between = await storage.relationships.listBetween(ada, cy);
    expect(between.map((r) => [r.userId, r.type])).toEqual([[cy, RelationshipType.BLOCKED]]);
    expect(await storage.relationships.listBetween(bob, ada)).toHaveLength(2);
  });

  it('moves a merged account, keeping what the destination had', async () => {
    const merged = nextId();
    await storage.users.create({ id: merged, username: 'provisional', createdAt: clock.now() });
    await friends(merged, bob, app);
    await friends(merged, ada, app);
    await friends(ada, bob);
    // ada already has cy blocked; the provisional account's request to cy is dropped.
    await storage.relationships.put(row([ada, cy], RelationshipType.BLOCKED, { since: 1 }));
    await storage.relationships.put(row([merged, cy], RelationshipType.PENDING_OUTGOING));
    await storage.relationships.put(row([cy, merged], RelationshipType.PENDING_INCOMING));

    const moved = await storage.relationships.moveUser(merged, ada);
    expect(moved).toBe(3);
    expect(await storage.relationships.listEveryScope(merged)).toEqual([]);
    expect(await storage.relationships.areFriends(ada, bob, app)).toBe(true);
    expect(await storage.relationships.get(ada, bob, app)).toMatchObject({ applicationId: app });
    expect(await storage.relationships.get(bob, ada, app)).toMatchObject({
      type: RelationshipType.FRIEND,
    });
    // Rows between the two accounts are gone; the destination's own block stays.
    expect(await storage.relationships.get(ada, ada, app)).toBeNull();
    expect(await storage.relationships.get(ada, cy)).toMatchObject({
      type: RelationshipType.BLOCKED,
      since: 1,
    });
    // cy's incoming request moved to ada (cy had nothing about ada).
    expect(await storage.relationships.get(cy, ada)).toMatchObject({
      type: RelationshipType.PENDING_INCOMING,
    });
    expect(await storage.relationships.moveUser(ada, ada)).toBe(0);
  });

  it('moves one application scope for an unmerge, leaving the others', async () => {
    const fresh = nextId();
    await storage.users.create({ id: fresh, username: 'fresh', createdAt: clock.now() });
    await friends(ada, bob, app);
    await friends(ada, cy);
    expect(await storage.relationships.moveScope(ada, fresh, app)).toBe(2);
    expect(await storage.relationships.friendIds(fresh, app)).toEqual([bob]);
    expect(await storage.relationships.friendIds(bob, app)).toEqual([fresh]);
    expect(await storage.relationships.friendIds(ada, app)).toEqual([cy]);
  });

  it('keeps a "who can message me" setting, friends by default', async () => {
    expect(await storage.relationships.messagePolicy(ada)).toBe('friends');
    await storage.relationships.setMessagePolicy(ada, 'nobody');
    await storage.relationships.setMessagePolicy(ada, 'everyone');
    expect(await storage.relationships.messagePolicy(ada)).toBe('everyone');
    expect(await storage.relationships.messagePolicy(bob)).toBe('friends');
  });

  it('serializes changes to one pair behind lockPair', async () => {
    const order: string[] = [];
    const held = deferred();
    const first = deferred();
    const one = storage.transaction(async (tx) => {
      await tx.relationships.lockPair(ada, bob);
      first.resolve();
      await held.promise;
      await tx.relationships.put(row([ada, bob], RelationshipType.PENDING_OUTGOING));
      order.push('one');
    });
    await first.promise;
    const two = storage.transaction(async (tx) => {
      await tx.relationships.lockPair(bob, ada);
      // Taken after the first committed: its row is visible.
      order.push(`two saw ${String((await tx.relationships.get(ada, bob))?.type)}`);
    });
    held.resolve();
    await Promise.all([one, two]);
    expect(order).toEqual(['one', `two saw ${String(RelationshipType.PENDING_OUTGOING)}`]);
  });

  it('rolls a relationship write back with its transaction', async () => {
    await expect(
      storage.transaction(async (tx) => {
        await tx.relationships.put(row([ada, bob], RelationshipType.BLOCKED));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await storage.relationships.get(ada, bob)).toBeNull();
  });
}

function byId(a: string, b: string): number {
  return BigInt(a) < BigInt(b) ? -1 : 1;
}

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
