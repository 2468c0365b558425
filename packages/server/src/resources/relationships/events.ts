import { afterCommit } from '../../events/afterCommit.js';
import type { Dispatch } from '../../events/dispatcher.js';
import type { RelationshipRecord, Repositories, UserRecord } from '../../storage/index.js';
import { serializeRelationship, type RelationshipWire } from './serialize.js';

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    RELATIONSHIP_ADD: RelationshipWire;
    RELATIONSHIP_UPDATE: RelationshipWire;
    RELATIONSHIP_REMOVE: RelationshipWire;
  }
}

/** The gateway dispatches of relationships, each to the one user whose row changed. */
export const RelationshipEvents = {
  ADD: 'RELATIONSHIP_ADD',
  UPDATE: 'RELATIONSHIP_UPDATE',
  REMOVE: 'RELATIONSHIP_REMOVE',
} as const;
export type RelationshipEventType = (typeof RelationshipEvents)[keyof typeof RelationshipEvents];

/**
 * RELATIONSHIP_ADD (a new row or a new type), RELATIONSHIP_UPDATE (nickname or spam flag) or
 * RELATIONSHIP_REMOVE (the row as it was), to the row's owner only: the relationship object as
 * that user sees it (docs/social-friends.md#events).
 */
export function buildRelationshipDispatch(
  type: RelationshipEventType,
  record: RelationshipRecord,
  target: UserRecord,
): Dispatch<RelationshipEventType> {
  return {
    type,
    guildId: null,
    userIds: [record.userId],
    // A game relationship is its game's: other games' SDK sessions do not see it.
    ...(record.applicationId === null ? {} : { applicationId: record.applicationId }),
    data: serializeRelationship(record, target),
  };
}

/** One row's change, announced to its owner. */
export interface RelationshipChange {
  type: RelationshipEventType;
  record: RelationshipRecord;
}

/**
 * Announces relationship changes once the transaction commits. `users` holds every user the
 * records name as target.
 */
export function announceRelationships(
  tx: Repositories,
  users: ReadonlyMap<string, UserRecord>,
  changes: readonly RelationshipChange[],
): void {
  const dispatches: Dispatch[] = [];
  for (const { type, record } of changes) {
    const target = users.get(record.targetId);
    if (target !== undefined) dispatches.push(buildRelationshipDispatch(type, record, target));
  }
  if (dispatches.length > 0) afterCommit(tx, dispatches);
}
