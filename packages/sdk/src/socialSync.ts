/**
 * The SDK's shared social state (`core.state`'s users, relationships and presences), kept from
 * READY and the dispatches after it for the users, relationships and presence areas, with the
 * listeners each area registers (`socialSync`).
 *
 * @module
 */
import type { ClientCore } from './core.js';
import { RelationshipType } from './enums.js';
import type { WirePresence, WireReady, WireRelationship, WireUser } from './wire.js';

/** What the SDK's shared state sync tells the areas, per client. */
interface SyncListeners {
  /** A user's data (name, avatar) or presence (status, activities) changed. */
  userChanged: ((userId: string) => void)[];
  /** Something that may move a friend between groups happened (`userId` caused it). */
  graphChanged: ((userId: string) => void)[];
  /** A user's presence changed (after the state holds it). */
  presenceChanged: ((userId: string) => void)[];
  /** READY was applied (relationships and presences are in the state). */
  ready: (() => void)[];
}

const syncs = new WeakMap<ClientCore, SyncListeners>();

/**
 * The SDK's one keeper of users, relationships and presences in `core.state`, shared by the
 * users, relationships and presence areas (SDK-internal: games use `Client`).
 *
 * @internal
 */
export function socialSync(core: ClientCore): SyncListeners {
  const known = syncs.get(core);
  if (known !== undefined) return known;
  const listeners: SyncListeners = {
    userChanged: [],
    graphChanged: [],
    presenceChanged: [],
    ready: [],
  };
  syncs.set(core, listeners);
  const { state } = core;
  const emit = (list: ((userId: string) => void)[], userId: string) => {
    for (const listener of list) listener(userId);
  };

  // The client's READY handler, added before the areas are made, has cleared the state.
  core.on('READY', (data) => {
    const ready = data as WireReady;
    for (const relationship of ready.relationships ?? []) {
      state.cacheUser(relationship.user);
      const pair = state.relationships.get(relationship.id) ?? { discord: null, game: null };
      pair[scopeOf(relationship)] = relationship;
      state.relationships.set(relationship.id, pair);
    }
    for (const presence of ready.presences ?? []) {
      state.presences.set(presence.user.id, presence);
    }
    for (const listener of listeners.ready) listener();
  });

  core.on('USER_UPDATE', (data) => {
    const user = data as WireUser;
    const before = userSignature(state.users.get(user.id));
    state.cacheUser(user);
    if (userSignature(state.users.get(user.id)) !== before) {
      emit(listeners.userChanged, user.id);
      emit(listeners.graphChanged, user.id);
    }
  });

  const onRelationship = (data: unknown, removed: boolean) => {
    const relationship = data as WireRelationship;
    const applicationId = core.state.applicationId;
    // A game relationship of another game is not this client's (the gateway scopes them).
    if (
      relationship.application_id !== undefined &&
      applicationId !== null &&
      relationship.application_id !== applicationId
    ) {
      return;
    }
    const userBefore = userSignature(state.users.get(relationship.id));
    state.cacheUser(relationship.user);
    const pair = state.relationships.get(relationship.id) ?? { discord: null, game: null };
    pair[scopeOf(relationship)] = removed ? null : relationship;
    if (pair.discord === null && pair.game === null) state.relationships.delete(relationship.id);
    else state.relationships.set(relationship.id, pair);
    // An ended friendship sends no PRESENCE_UPDATE: the presence is dropped here.
    if (!isFriend(pair) && state.presences.delete(relationship.id)) {
      emit(listeners.presenceChanged, relationship.id);
    }
    if (userSignature(state.users.get(relationship.id)) !== userBefore) {
      emit(listeners.userChanged, relationship.id);
    }
    emit(listeners.graphChanged, relationship.id);
  };
  core.on('RELATIONSHIP_ADD', (data) => {
    onRelationship(data, false);
  });
  core.on('RELATIONSHIP_UPDATE', (data) => {
    onRelationship(data, false);
  });
  core.on('RELATIONSHIP_REMOVE', (data) => {
    onRelationship(data, true);
  });

  core.on('PRESENCE_UPDATE', (data) => {
    const presence = data as WirePresence & { guild_id?: string };
    // Guild presences never reach an SDK session; a person's token could see some: not friends'.
    if (presence.guild_id !== undefined) return;
    const userId = presence.user.id;
    const before = presenceSignature(state.presences.get(userId));
    const userBefore = userSignature(state.users.get(userId));
    if (presence.user.username !== undefined) state.cacheUser(presence.user as WireUser);
    if (presence.status === 'offline') state.presences.delete(userId);
    else state.presences.set(userId, presence);
    const presenceMoved = presenceSignature(state.presences.get(userId)) !== before;
    if (presenceMoved) emit(listeners.presenceChanged, userId);
    if (presenceMoved || userSignature(state.users.get(userId)) !== userBefore) {
      emit(listeners.userChanged, userId);
    }
    emit(listeners.graphChanged, userId);
  });
  return listeners;
}

/** The scope of a wire relationship: a game one carries its application's id. */
function scopeOf(relationship: WireRelationship): 'discord' | 'game' {
  return relationship.application_id === undefined ? 'discord' : 'game';
}

function userSignature(user: WireUser | undefined): string {
  if (user === undefined) return '';
  return JSON.stringify([user.username, user.global_name ?? null, user.avatar ?? null]);
}

function presenceSignature(presence: WirePresence | undefined): string {
  if (presence === undefined) return 'offline';
  return JSON.stringify([presence.status, presence.activities]);
}

/** @internal */
export function isFriend(pair: {
  discord: WireRelationship | null;
  game: WireRelationship | null;
}) {
  return (
    pair.discord?.type === RelationshipType.Friend || pair.game?.type === RelationshipType.Friend
  );
}
