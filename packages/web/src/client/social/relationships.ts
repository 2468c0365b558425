import type { APIUser } from 'discord-api-types/v10';
import type { ClientState } from '../state.js';

/** One relationship as the store keeps it (docs/social-friends.md#the-relationship-object). */
export type Relationship = ClientState['relationships'][string];

/** The platform's relationship types (discord-api-types has no enum for them). */
export const RelationshipType = {
  Friend: 1,
  Blocked: 2,
  PendingIncoming: 3,
  PendingOutgoing: 4,
} as const;

/** A relationship as the gateway sends it; game-scoped ones carry `application_id`. */
export interface RelationshipWire {
  id: string;
  type: number;
  user: APIUser;
  nickname?: string | null;
  application_id?: string;
}

/**
 * Whether a dispatched relationship is a platform-wide one: a person's session also receives its
 * game friends' events (with `application_id`), which the friends list does not show.
 */
function platformWide(wire: RelationshipWire): boolean {
  return wire.application_id === undefined;
}

function toRelationship(wire: RelationshipWire): Relationship {
  return { id: wire.id, type: wire.type, user: wire.user, nickname: wire.nickname ?? null };
}

/** RELATIONSHIP_ADD: a new row, or a new type (a request accepted, a block). */
export function relationshipAdded(state: ClientState, wire: RelationshipWire): ClientState {
  if (!platformWide(wire)) return state;
  return {
    ...state,
    relationships: { ...state.relationships, [wire.id]: toRelationship(wire) },
    users: { ...state.users, [wire.user.id]: wire.user },
  };
}

/** RELATIONSHIP_UPDATE: the nickname (or the user object) of a row the store already has. */
export function relationshipUpdated(state: ClientState, wire: RelationshipWire): ClientState {
  if (!platformWide(wire)) return state;
  const current = state.relationships[wire.id];
  const next: Relationship = {
    ...(current ?? toRelationship(wire)),
    type: wire.type,
    user: wire.user,
    nickname: wire.nickname ?? null,
  };
  return { ...state, relationships: { ...state.relationships, [wire.id]: next } };
}

/**
 * RELATIONSHIP_REMOVE: the row is gone (removed, cancelled, declined, unblocked). A late remove of
 * an older row must not drop a newer one: the type must match when the event names one.
 */
export function relationshipRemoved(
  state: ClientState,
  wire: Pick<RelationshipWire, 'id' | 'application_id'> & { type?: number },
): ClientState {
  if (wire.application_id !== undefined) return state;
  const current = state.relationships[wire.id];
  if (current === undefined) return state;
  if (wire.type !== undefined && wire.type !== current.type) return state;
  const relationships = Object.fromEntries(
    Object.entries(state.relationships).filter(([id]) => id !== wire.id),
  );
  return { ...state, relationships };
}

/** What a friends list row shows as the person's name: the nickname, then the display name. */
export function displayName(user: APIUser, nickname: string | null = null): string {
  return nickname ?? user.global_name ?? user.username;
}
