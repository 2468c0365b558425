import { api } from '../../lib/api.js';
import type { Store } from '../../lib/store.js';
import type { ClientState } from '../state.js';
import {
  privateChannelClosed,
  privateChannelOpened,
  type PrivateChannel,
} from './privateChannels.js';
import { RelationshipType, type Relationship, type RelationshipWire } from './relationships.js';

const RELATIONSHIPS = '/users/@me/relationships';

/**
 * The relationships as the server has them (GET /users/@me/relationships), replacing the store's:
 * after an action the page shows its result even when the gateway is between connections (the
 * events arrive too and change nothing more).
 */
export async function reloadRelationships(store: Store<ClientState>): Promise<void> {
  const list = await api<RelationshipWire[]>('GET', RELATIONSHIPS);
  const relationships: Record<string, Relationship> = {};
  for (const wire of list) {
    if (wire.application_id !== undefined) continue;
    relationships[wire.id] = {
      id: wire.id,
      type: wire.type,
      user: wire.user,
      nickname: wire.nickname ?? null,
    };
  }
  store.set((state) => ({ ...state, relationships }));
}

/** A friend request by username (POST): 80004 when nobody has that name. */
export async function sendFriendRequest(username: string): Promise<void> {
  await api('POST', RELATIONSHIPS, { body: { username } });
}

/** Accepts an incoming request, or asks someone by id (PUT without a type). */
export async function addFriend(userId: string): Promise<void> {
  await api('PUT', `${RELATIONSHIPS}/${userId}`, { body: {} });
}

export async function blockUser(userId: string): Promise<void> {
  await api('PUT', `${RELATIONSHIPS}/${userId}`, { body: { type: RelationshipType.Blocked } });
}

/** Removes a friend, cancels or ignores a request, or unblocks: whatever row there is. */
export async function removeRelationship(userId: string): Promise<void> {
  await api('DELETE', `${RELATIONSHIPS}/${userId}`);
}

/** A friend's private nickname; null (or empty) clears it. */
export async function setFriendNickname(userId: string, nickname: string | null): Promise<void> {
  await api('PATCH', `${RELATIONSHIPS}/${userId}`, {
    body: { nickname: nickname === '' ? null : nickname },
  });
}

/** Opens (or finds) the DM with a user and lists it; resolves with its id. */
export async function openDm(store: Store<ClientState>, userId: string): Promise<string> {
  const channel = await api<PrivateChannel>('POST', '/users/@me/channels', {
    body: { recipient_id: userId },
  });
  store.set((state) => privateChannelOpened(state, channel));
  return channel.id;
}

/** A group DM of the caller and these users; resolves with its id. */
export async function openGroupDm(store: Store<ClientState>, userIds: string[]): Promise<string> {
  const channel = await api<PrivateChannel>('POST', '/users/@me/channels', {
    body: { recipients: userIds },
  });
  store.set((state) => privateChannelOpened(state, channel));
  return channel.id;
}

/**
 * Closes a DM (it comes back with the next message; nothing is deleted) or leaves a group DM
 * (DELETE /channels/{id}, docs/social-dms.md).
 */
export async function closePrivateChannel(
  store: Store<ClientState>,
  channelId: string,
): Promise<void> {
  await api('DELETE', `/channels/${channelId}`);
  store.set((state) => privateChannelClosed(state, channelId));
}
