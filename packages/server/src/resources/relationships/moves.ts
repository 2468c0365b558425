import {
  RelationshipType,
  type RelationshipRecord,
  type Repositories,
  type UserRecord,
} from '../../storage/index.js';
import { announceRelationships, RelationshipEvents, type RelationshipChange } from './events.js';
import { usesApplication } from './rules.js';

const keyOf = (r: RelationshipRecord) => `${r.userId}:${r.applicationId ?? ''}:${r.targetId}`;

async function announceWithUsers(tx: Repositories, changes: RelationshipChange[]): Promise<void> {
  if (changes.length === 0) return;
  const ids = [...new Set(changes.map((c) => c.record.targetId))];
  const users: UserRecord[] = await tx.users.findByIds(ids);
  announceRelationships(tx, new Map(users.map((u) => [u.id, u])), changes);
}

/** The rows about `userId` that others hold, every scope. */
async function rowsAbout(tx: Repositories, userId: string, others: Iterable<string>) {
  const rows: RelationshipRecord[] = [];
  for (const other of new Set(others)) {
    rows.push(
      ...(await tx.relationships.listBetween(userId, other)).filter((r) => r.userId === other),
    );
  }
  return rows;
}

/**
 * A provisional account's merge into a full one (inside the merge's transaction, before the
 * provisional account is deleted): its relationships, game-scoped ones included, move to the full
 * account, which keeps its own where both had one. The full account and the other sides get
 * RELATIONSHIP_ADD for what they gained.
 */
export async function mergeRelationships(
  tx: Repositories,
  { from, to }: { from: string; to: string },
): Promise<void> {
  const own = await tx.relationships.listEveryScope(from);
  const targets = own.map((r) => r.targetId);
  const before = new Set(
    [...(await tx.relationships.listEveryScope(to)), ...(await rowsAbout(tx, to, targets))].map(
      keyOf,
    ),
  );
  if ((await tx.relationships.moveUser(from, to)) === 0) return;
  const after = [
    ...(await tx.relationships.listEveryScope(to)),
    ...(await rowsAbout(tx, to, targets)),
  ];
  await announceWithUsers(
    tx,
    after
      .filter((r) => !before.has(keyOf(r)))
      .map((record) => ({ type: RelationshipEvents.ADD, record })),
  );
}

/**
 * An unmerge (or a ban's) of a full account's identity of an application into a new provisional
 * account, in the same transaction: the application's game relationships move to it; the full
 * account's Discord friends who use the application become its game friends there; blocks either
 * way are kept against it in that scope (docs/social-friends.md#merge-and-unmerge).
 */
export async function unmergeRelationships(
  tx: Repositories,
  input: { fullUserId: string; provisionalUserId: string; applicationId: string; now: number },
): Promise<void> {
  const { fullUserId: full, provisionalUserId: provisional, applicationId, now } = input;
  const changes: RelationshipChange[] = [];
  const moving = await tx.relationships.listForUser(full, applicationId);
  const theirsBefore = await rowsAbout(
    tx,
    full,
    moving.map((r) => r.targetId),
  );
  await tx.relationships.moveScope(full, provisional, applicationId);
  for (const record of moving) {
    changes.push({ type: RelationshipEvents.REMOVE, record });
    changes.push({
      type: RelationshipEvents.ADD,
      record: { ...record, userId: provisional },
    });
  }
  for (const record of theirsBefore.filter((r) => r.applicationId === applicationId)) {
    changes.push({ type: RelationshipEvents.REMOVE, record });
    changes.push({ type: RelationshipEvents.ADD, record: { ...record, targetId: provisional } });
  }

  const put = async (record: RelationshipRecord) => {
    if ((await tx.relationships.get(record.userId, record.targetId, applicationId)) !== null)
      return;
    await tx.relationships.put(record);
    changes.push({ type: RelationshipEvents.ADD, record });
  };
  const row = (userId: string, targetId: string, type: RelationshipRecord['type']) => ({
    userId,
    targetId,
    applicationId,
    type,
    nickname: null,
    isSpamRequest: false,
    since: now,
  });
  for (const friendId of await tx.relationships.friendIds(full)) {
    if (friendId === provisional || !(await usesApplication(tx, friendId, applicationId))) continue;
    if (await tx.relationships.isBlockedEitherWay(friendId, provisional)) continue;
    await put(row(provisional, friendId, RelationshipType.FRIEND));
    await put(row(friendId, provisional, RelationshipType.FRIEND));
  }
  for (const blocked of await tx.relationships.listEveryScope(full)) {
    if (blocked.type === RelationshipType.BLOCKED && blocked.targetId !== provisional) {
      await put(row(provisional, blocked.targetId, RelationshipType.BLOCKED));
    }
  }
  for (const blocker of await tx.relationships.blockerIds(full)) {
    if (blocker !== provisional) await put(row(blocker, provisional, RelationshipType.BLOCKED));
  }
  await announceWithUsers(tx, changes);
}
