import type { RelationshipRecord, UserRecord } from '../../storage/index.js';
import { serializeUser, type UserWire } from '../users/index.js';

/**
 * A relationship on the wire, as its owner sees it (docs/social-friends.md#the-relationship-object).
 * Game-scoped relationships also carry `application_id`; platform-wide ones never do.
 */
export interface RelationshipWire {
  /** The other user's id. */
  id: string;
  type: number;
  user: UserWire;
  nickname: string | null;
  is_spam_request: boolean;
  /** ISO 8601: when the relationship reached its type. */
  since: string;
  application_id?: string;
}

export function serializeRelationship(
  record: RelationshipRecord,
  target: UserRecord,
): RelationshipWire {
  return {
    id: record.targetId,
    type: record.type,
    user: serializeUser(target),
    nickname: record.nickname,
    is_spam_request: record.isSpamRequest,
    since: new Date(record.since).toISOString(),
    ...(record.applicationId === null ? {} : { application_id: record.applicationId }),
  };
}

/** The connected-games settings object (GET/PATCH /users/@me/settings/connected-games). */
export function serializeConnectedGamesSettings(policy: string) {
  return { allow_messages_from: policy };
}
