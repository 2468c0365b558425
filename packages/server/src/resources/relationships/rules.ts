import { DAY_MS } from '../../domain/time.js';
import {
  RelationshipType,
  type Repositories,
  type StoredRelationshipType,
  type UserRecord,
} from '../../storage/index.js';

/** null: platform-wide (Discord friends); an id: that application's game relationships. */
export type RelationshipScope = string | null;

/**
 * The OAuth2 scope a Bearer token needs to change relationships and the connected-games setting
 * (reading them is `relationships` of domain/tokenAccess.ts, `requireAccess`).
 */
export const RELATIONSHIPS_WRITE_SCOPE = 'relationships.write';
/** The most friends a user has in one scope (error 30002). */
export const MAX_FRIENDS = 1000;
/**
 * A friend request is flagged `is_spam_request` when its sender's account is younger than this
 * and shares no guild with the recipient (docs/social-friends.md#spam-requests).
 */
export const SPAM_ACCOUNT_AGE_MS = 7 * DAY_MS;

/** A Bearer token needs the scope; a session may do anything to its own user. */
export { requireAccess, requireScope } from '../access/index.js';

/** The row the other side holds while `type` is this side's: a friendship or request is a pair. */
export function counterpart(type: StoredRelationshipType): StoredRelationshipType | null {
  switch (type) {
    case RelationshipType.FRIEND:
      return RelationshipType.FRIEND;
    case RelationshipType.PENDING_OUTGOING:
      return RelationshipType.PENDING_INCOMING;
    case RelationshipType.PENDING_INCOMING:
      return RelationshipType.PENDING_OUTGOING;
    case RelationshipType.BLOCKED:
    case RelationshipType.IMPLICIT:
      return null;
  }
}

/** Whether a new request from `sender` looks like spam to `recipient` (the documented heuristic). */
export async function isSpamRequest(
  tx: Repositories,
  { sender, recipient, now }: { sender: UserRecord; recipient: UserRecord; now: number },
): Promise<boolean> {
  if (now - sender.createdAt >= SPAM_ACCOUNT_AGE_MS) return false;
  const guilds = await tx.guilds.listForUser(sender.id);
  if (guilds.length === 0) return true;
  const shared = await tx.members.findForUser(
    recipient.id,
    guilds.map((g) => g.id),
  );
  return shared.length === 0;
}

/**
 * Whether a user uses an application, for game-scoped relationships: an external identity of it
 * (a provisional account, or one merged into a full account), or a live authorization of it.
 */
export async function usesApplication(
  tx: Repositories,
  userId: string,
  applicationId: string,
): Promise<boolean> {
  const identities = await tx.provisional.listIdentitiesOfUser(userId);
  if (identities.some((i) => i.applicationId === applicationId)) return true;
  const authorization = await tx.oauth.findAuthorization(userId, applicationId);
  return authorization !== null && authorization.revokedAt === null;
}
