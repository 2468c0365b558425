import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import {
  RelationshipType,
  type MessagePolicy,
  type RelationshipRecord,
  type Repositories,
  type UserRecord,
} from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { announceRelationships, RelationshipEvents, type RelationshipChange } from './events.js';
import {
  counterpart,
  isSpamRequest,
  MAX_FRIENDS,
  RELATIONSHIPS_WRITE_SCOPE,
  requireAccess,
  requireScope,
  usesApplication,
} from './rules.js';
import type { PutRelationshipInput, SendRequestInput } from './schemas.js';
import { serializeRows } from './read.js';
import { serializeConnectedGamesSettings } from './serialize.js';
import { serializeUser } from '../users/index.js';

/** The limits of relationships. */
export interface RelationshipOptions {
  /** The most friends a user has in one scope (30002 beyond). */
  maxFriends: number;
}

export const DEFAULT_RELATIONSHIP_OPTIONS = {
  maxFriends: MAX_FRIENDS,
} as const satisfies RelationshipOptions;

/** null: platform-wide (Discord friends); an id: that application's game relationships. */
export type RelationshipScope = string | null;

/** The accepted spellings of "no discriminator" in a request by username. */
const NO_DISCRIMINATOR: ReadonlySet<string> = new Set(['0', '0000']);

/**
 * Friends, friend requests and blocks (docs/social-friends.md), platform-wide and game-scoped,
 * and the connected-games "who can message me" setting.
 */
export function createRelationshipService(
  deps: Pick<ServiceDeps, 'storage' | 'clock'>,
  options: RelationshipOptions = DEFAULT_RELATIONSHIP_OPTIONS,
) {
  const { storage, clock } = deps;
  const { maxFriends } = options;

  /** The scope a game route acts in: a Bearer token's application, or the session's choice. */
  const gameScope = async (principal: Principal, applicationId: string | undefined) => {
    if (principal.kind === 'bearer') {
      if (applicationId !== undefined && applicationId !== principal.applicationId) {
        throw new ApiError('MISSING_ACCESS');
      }
      if (principal.applicationId === null) throw new ApiError('MISSING_ACCESS');
      return principal.applicationId;
    }
    if (applicationId === undefined) {
      throw invalidField(['application_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    if ((await storage.applications.findById(applicationId)) === null) {
      throw new ApiError('UNKNOWN_APPLICATION');
    }
    return applicationId;
  };

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

  return {
    /** GET: the caller's relationships in a scope, oldest first. */
    async list(principal: Principal, scope: RelationshipScope) {
      requireAccess(principal, 'relationships');
      const rows = await storage.relationships.listForUser(principal.user.id, scope);
      return serializeRows(storage, rows);
    },

    /** PUT: no type (or 1) sends or accepts a friend request; 2 blocks. */
    async put(
      principal: Principal,
      input: { targetId: string; body: PutRelationshipInput; scope: RelationshipScope },
    ) {
      requireScope(principal, RELATIONSHIPS_WRITE_SCOPE);
      await storage.transaction(async (tx) => {
        const me = principal.user;
        const target = await loadTarget(tx, {
          me,
          targetId: input.targetId,
          scope: input.scope,
          reach: true,
        });
        if (input.body.type === RelationshipType.BLOCKED) {
          await block(tx, { me, target, scope: input.scope });
        } else {
          await befriend(tx, { me, target, scope: input.scope });
        }
      });
    },

    /** POST: a friend request by username; 80004 when no such person exists. */
    async sendByUsername(
      principal: Principal,
      input: { body: SendRequestInput; scope: RelationshipScope },
    ) {
      requireScope(principal, RELATIONSHIPS_WRITE_SCOPE);
      const { username, discriminator } = input.body;
      const tag = discriminator == null ? '0' : String(discriminator);
      await storage.transaction(async (tx) => {
        const me = principal.user;
        const found = await tx.users.findByUsername(username);
        if (
          found === null ||
          found.bot ||
          !(NO_DISCRIMINATOR.has(tag) || found.discriminator === tag)
        ) {
          throw new ApiError('NO_USERS_WITH_TAG');
        }
        const target = await loadTarget(tx, {
          me,
          targetId: found.id,
          scope: input.scope,
          reach: true,
        });
        if (
          (await tx.relationships.get(me.id, target.id, input.scope))?.type ===
          RelationshipType.FRIEND
        ) {
          throw new ApiError('ALREADY_FRIENDS');
        }
        await befriend(tx, { me, target, scope: input.scope });
      });
    },

    /** PATCH: a friend's private nickname; 80006 unless they are friends. */
    async setNickname(
      principal: Principal,
      input: { targetId: string; nickname: string | null; scope: RelationshipScope },
    ) {
      requireScope(principal, RELATIONSHIPS_WRITE_SCOPE);
      await storage.transaction(async (tx) => {
        const me = principal.user;
        const target = await loadTarget(tx, {
          me,
          targetId: input.targetId,
          scope: input.scope,
          reach: false,
        });
        const mine = await tx.relationships.get(me.id, target.id, input.scope);
        if (mine?.type !== RelationshipType.FRIEND) throw new ApiError('NEED_TO_BE_FRIENDS');
        const nickname = input.nickname === '' ? null : input.nickname;
        if (mine.nickname === nickname) return;
        const record = { ...mine, nickname };
        await tx.relationships.put(record);
        announce(tx, [target], [{ type: RelationshipEvents.UPDATE, record }]);
      });
    },

    /**
     * DELETE: removes a friend, cancels an outgoing request, declines an incoming one, or
     * unblocks; the other side's half of a friendship or request goes too.
     */
    async remove(principal: Principal, input: { targetId: string; scope: RelationshipScope }) {
      requireScope(principal, RELATIONSHIPS_WRITE_SCOPE);
      await storage.transaction(async (tx) => {
        const me = principal.user;
        const target = await loadTarget(tx, {
          me,
          targetId: input.targetId,
          scope: input.scope,
          reach: false,
        });
        const mine = await tx.relationships.get(me.id, target.id, input.scope);
        if (mine === null) return;
        await tx.relationships.delete(me.id, target.id, input.scope);
        const changes: RelationshipChange[] = [{ type: RelationshipEvents.REMOVE, record: mine }];
        const paired = counterpart(mine.type);
        const theirs = await tx.relationships.get(target.id, me.id, input.scope);
        if (paired !== null && theirs?.type === paired) {
          await tx.relationships.delete(target.id, me.id, input.scope);
          changes.push({ type: RelationshipEvents.REMOVE, record: theirs });
        }
        announce(tx, [me, target], changes);
      });
    },

    /**
     * GET /users/{user.id}/relationships: the platform-wide friends the caller and the user both
     * have, as user objects; none while either blocks the other.
     */
    async mutualFriends(principal: Principal, userId: string) {
      requireAccess(principal, 'relationships');
      const me = principal.user.id;
      const other = await storage.users.findById(userId);
      if (other === null) throw new ApiError('UNKNOWN_USER');
      if (other.id === me || (await storage.relationships.isBlockedEitherWay(me, other.id))) {
        return [];
      }
      const theirs = new Set(await storage.relationships.friendIds(other.id));
      const mutual = (await storage.relationships.friendIds(me)).filter((id) => theirs.has(id));
      const users = await storage.users.findByIds(mutual);
      return users.map(serializeUser);
    },

    gameScope,

    /** GET /users/@me/settings/connected-games. */
    async connectedGamesSettings(principal: Principal) {
      requireAccess(principal, 'relationships');
      return serializeConnectedGamesSettings(
        await storage.relationships.messagePolicy(principal.user.id),
      );
    },

    /** PATCH /users/@me/settings/connected-games. */
    async setConnectedGamesSettings(principal: Principal, policy: MessagePolicy) {
      requireScope(principal, RELATIONSHIPS_WRITE_SCOPE);
      await storage.transaction((tx) =>
        tx.relationships.setMessagePolicy(principal.user.id, policy),
      );
      return serializeConnectedGamesSettings(policy);
    },
  };
}

function ids(owner: UserRecord, target: UserRecord) {
  return { userId: owner.id, targetId: target.id };
}

export type RelationshipService = ReturnType<typeof createRelationshipService>;
