/**
 * The writes between two people that the relationship routes share: the target checked and the
 * pair locked, a friend request sent or accepted, a block; each change announced to both.
 */
import { ApiError } from '../../errors/index.js';
import {
  RelationshipType,
  type RelationshipRecord,
  type Repositories,
  type UserRecord,
} from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { announceRelationships, RelationshipEvents, type RelationshipChange } from './events.js';
import { isSpamRequest, usesApplication, type RelationshipScope } from './rules.js';

function ids(owner: UserRecord, target: UserRecord) {
  return { userId: owner.id, targetId: target.id };
}

export function createRelationshipWrites(
  deps: Pick<ServiceDeps, 'clock'>,
  options: { maxFriends: number },
) {
  const { clock } = deps;
  const { maxFriends } = options;

  /**
   * The target of a write, checked: an existing human other than the caller, in reach of the
   * scope (both use the application of a game scope; neither is provisional platform-wide).
   */
  const loadTarget = async (
    tx: Repositories,
    input: { me: UserRecord; targetId: string; scope: RelationshipScope; reach: boolean },
  ) => {
    const { me, targetId, scope } = input;
    if (targetId === me.id) throw new ApiError('CANNOT_FRIEND_SELF');
    const target = await tx.users.findById(targetId);
    if (target === null) throw new ApiError('UNKNOWN_USER');
    if (target.bot) throw new ApiError('BOTS_CANNOT_HAVE_FRIENDS');
    // Removing, unblocking and renaming stay possible whoever uses what.
    if (input.reach) await checkReach(tx, { me, target, scope });
    await tx.relationships.lockPair(me.id, target.id);
    return target;
  };

  const checkReach = async (
    tx: Repositories,
    { me, target, scope }: { me: UserRecord; target: UserRecord; scope: RelationshipScope },
  ) => {
    if (scope === null) {
      // Provisional accounts have game-scoped relationships only.
      if (
        (await tx.provisional.isProvisional(me.id)) ||
        (await tx.provisional.isProvisional(target.id))
      ) {
        throw new ApiError('MISSING_ACCESS');
      }
      return;
    }
    for (const user of [me, target]) {
      if (!(await usesApplication(tx, user.id, scope))) {
        throw new ApiError('NO_COMMON_APPLICATION_AUTHORIZATION');
      }
    }
  };

  const announce = (tx: Repositories, users: UserRecord[], changes: RelationshipChange[]) => {
    announceRelationships(tx, new Map(users.map((u) => [u.id, u])), changes);
  };

  /** Sends a friend request, or accepts the target's; false when nothing changed. */
  const befriend = async (
    tx: Repositories,
    { me, target, scope }: { me: UserRecord; target: UserRecord; scope: RelationshipScope },
  ): Promise<boolean> => {
    if (await tx.relationships.isBlockedEitherWay(me.id, target.id)) {
      throw new ApiError('FRIEND_REQUEST_BLOCKED');
    }
    const mine = await tx.relationships.get(me.id, target.id, scope);
    if (mine?.type === RelationshipType.FRIEND) return false;
    if (mine?.type === RelationshipType.PENDING_OUTGOING) return false;
    const now = clock.now();
    const base = { applicationId: scope, since: now, isSpamRequest: false };
    let changes: RelationshipChange[];
    if (mine?.type === RelationshipType.PENDING_INCOMING) {
      for (const userId of [me.id, target.id]) {
        const friends = await tx.relationships.count(userId, RelationshipType.FRIEND, scope);
        if (friends >= maxFriends) throw new ApiError('MAX_FRIENDS');
      }
      const theirs = await tx.relationships.get(target.id, me.id, scope);
      changes = [
        {
          type: RelationshipEvents.ADD,
          record: {
            ...base,
            ...ids(me, target),
            type: RelationshipType.FRIEND,
            nickname: mine.nickname,
          },
        },
        {
          type: RelationshipEvents.ADD,
          record: {
            ...base,
            ...ids(target, me),
            type: RelationshipType.FRIEND,
            nickname: theirs?.nickname ?? null,
          },
        },
      ];
    } else {
      const friends = await tx.relationships.count(me.id, RelationshipType.FRIEND, scope);
      if (friends >= maxFriends) throw new ApiError('MAX_FRIENDS');
      // Game friends are players of one game, often new accounts: the heuristic is for
      // platform-wide requests only.
      const spam =
        scope === null && (await isSpamRequest(tx, { sender: me, recipient: target, now }));
      changes = [
        {
          type: RelationshipEvents.ADD,
          record: {
            ...base,
            ...ids(me, target),
            type: RelationshipType.PENDING_OUTGOING,
            nickname: mine?.nickname ?? null,
          },
        },
        {
          type: RelationshipEvents.ADD,
          record: {
            ...base,
            ...ids(target, me),
            type: RelationshipType.PENDING_INCOMING,
            nickname: null,
            isSpamRequest: spam,
          },
        },
      ];
    }
    for (const change of changes) await tx.relationships.put(change.record);
    announce(tx, [me, target], changes);
    return true;
  };

  /** Blocks the target: every friendship or request between the two, in any scope, ends. */
  const block = async (
    tx: Repositories,
    { me, target, scope }: { me: UserRecord; target: UserRecord; scope: RelationshipScope },
  ) => {
    const changes: RelationshipChange[] = [];
    for (const row of await tx.relationships.listBetween(me.id, target.id)) {
      if (row.type === RelationshipType.BLOCKED) continue;
      await tx.relationships.delete(row.userId, row.targetId, row.applicationId);
      // The blocker's own row of this scope is replaced by the block's RELATIONSHIP_ADD.
      const replaced = row.userId === me.id && row.applicationId === scope;
      if (!replaced) changes.push({ type: RelationshipEvents.REMOVE, record: row });
    }
    const mine = await tx.relationships.get(me.id, target.id, scope);
    if (mine === null) {
      const record: RelationshipRecord = {
        ...ids(me, target),
        applicationId: scope,
        type: RelationshipType.BLOCKED,
        nickname: null,
        isSpamRequest: false,
        since: clock.now(),
      };
      await tx.relationships.put(record);
      changes.push({ type: RelationshipEvents.ADD, record });
    }
    announce(tx, [me, target], changes);
  };

  return { loadTarget, befriend, block, announce };
}
