/**
 * Friends, friend requests and blocks, platform-wide and game-scoped, and who may message a user
 * from connected games (docs/social-friends.md).
 */

/** The relationship types of the wire (`type`, and `game_relationship_type`). */
export const RelationshipType = {
  NONE: 0,
  FRIEND: 1,
  BLOCKED: 2,
  PENDING_INCOMING: 3,
  PENDING_OUTGOING: 4,
  IMPLICIT: 5,
} as const;
export type RelationshipTypeValue = (typeof RelationshipType)[keyof typeof RelationshipType];
/** The types a stored row holds (NONE is the absence of a row). */
export type StoredRelationshipType = Exclude<RelationshipTypeValue, 0>;

/**
 * One side of a relationship: what `userId` sees of `targetId`. A friendship and a pending
 * request are two rows (one per side); a block is the blocker's row only.
 */
export interface RelationshipRecord {
  userId: string;
  targetId: string;
  /** null: platform-wide (a Discord friend); else the application of a game-scoped relationship. */
  applicationId: string | null;
  type: StoredRelationshipType;
  /** The user's private nickname for the target. */
  nickname: string | null;
  /** An incoming request the spam heuristic flagged (docs/social-friends.md#spam-requests). */
  isSpamRequest: boolean;
  /** When the relationship reached its type, epoch ms. */
  since: number;
}

/** Who may send a user direct messages from connected games. */
export const MESSAGE_POLICIES = ['everyone', 'friends', 'nobody'] as const;
export type MessagePolicy = (typeof MESSAGE_POLICIES)[number];
/** A user who never chose: friends only (docs/social-friends.md#who-can-message-me). */
export const DEFAULT_MESSAGE_POLICY: MessagePolicy = 'friends';

export interface RelationshipRepository {
  /**
   * Inside a transaction, holds both users' rows until commit (PostgreSQL; SQLite transactions
   * are already serialized), so changes between one pair happen one after another and read what
   * the previous one wrote.
   */
  lockPair(a: string, b: string): Promise<void>;
  /** The row of `userId` about `targetId` in a scope (null/omitted: platform-wide), or null. */
  get(
    userId: string,
    targetId: string,
    applicationId?: string | null,
  ): Promise<RelationshipRecord | null>;
  /**
   * A user's rows in one scope (null/omitted: platform-wide; an id: that application's game
   * relationships only), oldest first.
   */
  listForUser(userId: string, applicationId?: string | null): Promise<RelationshipRecord[]>;
  /** A user's rows in every scope (platform-wide and every application's), oldest first. */
  listEveryScope(userId: string): Promise<RelationshipRecord[]>;
  /** The rows between two users, both directions, every scope. */
  listBetween(a: string, b: string): Promise<RelationshipRecord[]>;
  /** Inserts, or replaces the row of the same (user, target, scope). */
  put(record: RelationshipRecord): Promise<void>;
  /** Deletes one row; false when there was none. */
  delete(userId: string, targetId: string, applicationId?: string | null): Promise<boolean>;
  /** How many rows of a type a user has in a scope (null/omitted: platform-wide). */
  count(
    userId: string,
    type: StoredRelationshipType,
    applicationId?: string | null,
  ): Promise<number>;
  /** Whether either user blocks the other, in any scope. */
  isBlockedEitherWay(a: string, b: string): Promise<boolean>;
  /**
   * Whether `a` and `b` are friends: platform-wide friends, or (given an application) game
   * friends in that application. Platform-wide friends count in every application.
   */
  areFriends(a: string, b: string, applicationId?: string | null): Promise<boolean>;
  /**
   * The ids of a user's friends: platform-wide ones, plus (given an application) that
   * application's game friends; no duplicates, ascending.
   */
  friendIds(userId: string, applicationId?: string | null): Promise<string[]>;
  /** The ids of the users who block `userId` in any scope, no duplicates, ascending. */
  blockerIds(userId: string): Promise<string[]>;
  /**
   * Of `candidateIds` (a bounded list: a channel's recipients), those who block `userId` in any
   * scope, no duplicates, ascending.
   */
  blockersAmong(userId: string, candidateIds: readonly string[]): Promise<string[]>;
  /** The ids of a user's friends in every scope (presence fan-out), no duplicates, ascending. */
  allFriendIds(userId: string): Promise<string[]>;
  /**
   * Moves every row of `fromUserId` (its own and the others' about it, every scope) to
   * `toUserId` (a provisional account's merge). Where `toUserId` already has a row of the same
   * (target, scope), or the other side has one about `toUserId`, that row stays and the moved one
   * is dropped; rows between the two users are dropped. Returns how many rows moved.
   */
  moveUser(fromUserId: string, toUserId: string): Promise<number>;
  /**
   * Moves the rows of one application's scope (both sides) from `fromUserId` to `toUserId` (an
   * unmerge, to the new provisional account), with the same rule for rows already there.
   */
  moveScope(fromUserId: string, toUserId: string, applicationId: string): Promise<number>;

  /** The user's "who can message me" setting; {@link DEFAULT_MESSAGE_POLICY} when never set. */
  messagePolicy(userId: string): Promise<MessagePolicy>;
  setMessagePolicy(userId: string, policy: MessagePolicy): Promise<void>;
}
