/**
 * The relationship service: its routes here; the writes between two people they share (checks,
 * requests, blocks) in writes.ts.
 */
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { RelationshipType, type MessagePolicy } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { serializeUser } from '../users/index.js';
import { RelationshipEvents, type RelationshipChange } from './events.js';
import { serializeRows } from './read.js';
import {
  counterpart,
  MAX_FRIENDS,
  RELATIONSHIPS_WRITE_SCOPE,
  requireAccess,
  requireScope,
  type RelationshipScope,
} from './rules.js';
import type { PutRelationshipInput, SendRequestInput } from './schemas.js';
import { serializeConnectedGamesSettings } from './serialize.js';
import { createRelationshipWrites } from './writes.js';

/** The limits of relationships. */
export interface RelationshipOptions {
  /** The most friends a user has in one scope (30002 beyond). */
  maxFriends: number;
}

export const DEFAULT_RELATIONSHIP_OPTIONS = {
  maxFriends: MAX_FRIENDS,
} as const satisfies RelationshipOptions;

export type { RelationshipScope } from './rules.js';

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
  const { storage } = deps;
  const { loadTarget, befriend, block, announce } = createRelationshipWrites(deps, options);

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

export type RelationshipService = ReturnType<typeof createRelationshipService>;
