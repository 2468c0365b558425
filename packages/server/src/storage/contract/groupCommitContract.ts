import { afterEach, expect, it } from 'vitest';
import { GroupCommitTimeoutError, StorageConflictError } from '../errors.js';
import type { GroupCommitOptions } from '../sql/groupCommit.js';
import type { Repositories, Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

/** Members sent at once in the tests that count batches. */
const CONCURRENT_MEMBERS = 20;
/** The member time limit of the timeout test: short, so the test does not wait long. */
const SHORT_MEMBER_TIMEOUT_MS = 100;

/**
 * What `Storage.groupTransaction` promises on every driver: members that arrive together share
 * batches, each member's failure is its own, and a member that overstays its turn is cut off.
 * `makeStorage` opens a fresh database with the given group commit limits.
 */
export function describeGroupCommitContract(
  makeStorage: (groupCommit?: Partial<GroupCommitOptions>) => Promise<StorageFixture>,
): void {
  const fixtures: StorageFixture[] = [];
  const open = async (groupCommit?: Partial<GroupCommitOptions>) => {
    const fixture = await makeStorage(groupCommit);
    fixtures.push(fixture);
    return fixture.storage;
  };
  afterEach(async () => {
    for (const fixture of fixtures.splice(0)) await fixture.dispose();
  });

  let nextId = 1_000_000_000_000_000n;
  const newId = () => String((nextId += 1n));
  const createUser = (tx: Repositories, username: string) =>
    tx.users.create({ id: newId(), username, createdAt: 0, bot: true });
  const createToken = (tx: Repositories, hash: string, userId: string) =>
    tx.tokens.create({
      hash,
      kind: 'session',
      userId,
      applicationId: null,
      scopes: [],
      createdAt: 0,
      expiresAt: null,
    });
  const usernames = async (storage: Storage, ids: readonly string[]) =>
    (await storage.users.findByIds(ids)).map((user) => user.username).sort();

  it('commits members sent together in fewer transactions than members', async () => {
    const storage = await open();
    const before = storage.groupCommitStats();
    const users = await Promise.all(
      Array.from({ length: CONCURRENT_MEMBERS }, (_, i) =>
        storage.groupTransaction(async (tx) => {
          expect(tx.inTransaction).toBe(true);
          const user = await createUser(tx, `member_${i}`);
          await createToken(tx, `member-token-${i}`, user.id);
          return user;
        }),
      ),
    );
    const after = storage.groupCommitStats();
    expect(after.members - before.members).toBe(CONCURRENT_MEMBERS);
    expect(after.batches - before.batches).toBeGreaterThan(0);
    expect(after.batches - before.batches).toBeLessThan(CONCURRENT_MEMBERS);
    // Each member got its own result, and every write is there.
    expect(users.map((user) => user.username)).toEqual(
      Array.from({ length: CONCURRENT_MEMBERS }, (_, i) => `member_${i}`),
    );
    expect(await storage.users.findByIds(users.map((user) => user.id))).toHaveLength(
      CONCURRENT_MEMBERS,
    );
    expect(await storage.tokens.findByHash('member-token-7')).toMatchObject({
      userId: users[7]?.id,
    });
  });

  it('fails a member alone, with its own error, and commits its neighbours', async () => {
    const storage = await open();
    const owner = await createUser(storage, 'token_owner');
    await createToken(storage, 'taken-hash', owner.id);
    const refused = new Error('refused by the member itself');
    const ids = { first: newId(), thrower: newId(), conflict: newId(), last: newId() };
    const make = (id: string, username: string) => (tx: Repositories) =>
      tx.users.create({ id, username, createdAt: 0, bot: true });

    const results = await Promise.allSettled([
      storage.groupTransaction(make(ids.first, 'first')),
      storage.groupTransaction(async (tx) => {
        await make(ids.thrower, 'thrower')(tx);
        throw refused;
      }),
      // A statement that fails in the database: on PostgreSQL it aborts the transaction.
      storage.groupTransaction(async (tx) => {
        await make(ids.conflict, 'conflict')(tx);
        await createToken(tx, 'taken-hash', ids.conflict);
      }),
      storage.groupTransaction(async (tx) => {
        const user = await make(ids.last, 'last')(tx);
        return user.username;
      }),
    ]);

    expect(results[0]).toMatchObject({ status: 'fulfilled' });
    expect(results[1]).toEqual({ status: 'rejected', reason: refused });
    expect(results[2]).toMatchObject({ status: 'rejected' });
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(StorageConflictError);
    expect(results[3]).toEqual({ status: 'fulfilled', value: 'last' });
    expect(await usernames(storage, Object.values(ids))).toEqual(['first', 'last']);
    // The failed members' other writes are gone too; the earlier token is untouched.
    expect(await storage.tokens.findByHash('taken-hash')).toMatchObject({ userId: owner.id });
  });

  it('answers a member only once its batch has committed', async () => {
    const storage = await open();
    const before = storage.groupCommitStats().batches;
    const seen = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        storage
          .groupTransaction(async (tx) => (await createUser(tx, `answered_${i}`)).id)
          // Answered means committed: the batch is counted, and a read outside it sees the row.
          .then(async (id) => ({
            committed: storage.groupCommitStats().batches > before,
            user: await storage.users.findById(id),
          })),
      ),
    );
    for (const { committed, user } of seen) {
      expect(committed).toBe(true);
      expect(user).not.toBeNull();
    }
  });

  it('rolls back a member that overstays its turn, and its repositories refuse it after', async () => {
    const storage = await open({ memberTimeoutMs: SHORT_MEMBER_TIMEOUT_MS });
    const slowId = newId();
    let release: () => void = () => undefined;
    const waited = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reportLate: (outcome: unknown) => void = () => undefined;
    const late = new Promise<unknown>((resolve) => {
      reportLate = resolve;
    });
    const slow = storage.groupTransaction(async (tx) => {
      await tx.users.create({ id: slowId, username: 'slow', createdAt: 0, bot: true });
      // Waiting on something else than the repositories breaks the members' rule.
      await waited;
      await createUser(tx, 'late').then(reportLate, reportLate);
    });
    const neighbour = storage.groupTransaction((tx) => createUser(tx, 'neighbour'));

    await expect(slow).rejects.toBeInstanceOf(GroupCommitTimeoutError);
    const kept = await neighbour;
    release();
    expect(await late).toBeInstanceOf(GroupCommitTimeoutError);
    expect(await storage.users.findById(slowId)).toBeNull();
    expect(await storage.users.findById(kept.id)).toMatchObject({ username: 'neighbour' });
    // The storage goes on: later members commit.
    await expect(storage.groupTransaction((tx) => createUser(tx, 'after'))).resolves.toBeTruthy();
  });

  it('keeps plain transactions and statements working beside the batches', async () => {
    const storage = await open();
    const [grouped, plain, single] = await Promise.all([
      storage.groupTransaction((tx) => createUser(tx, 'grouped')),
      storage.transaction((tx) => createUser(tx, 'plain')),
      createUser(storage, 'single'),
    ]);
    expect(await usernames(storage, [grouped.id, plain.id, single.id])).toEqual([
      'grouped',
      'plain',
      'single',
    ]);
  });

  it('answers the members still queued before it closes', async () => {
    const fixture = await makeStorage();
    const pending = Array.from({ length: 3 }, (_, i) =>
      fixture.storage.groupTransaction((tx) => createUser(tx, `closing_${i}`)),
    );
    await fixture.dispose();
    await expect(Promise.all(pending)).resolves.toHaveLength(3);
  });
}
