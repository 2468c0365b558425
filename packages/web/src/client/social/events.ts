import type { APIUser } from 'discord-api-types/v10';
import type { GatewayClient } from '../../lib/gateway.js';
import type { Store } from '../../lib/store.js';
import type { ClientState } from '../state.js';
import { groupRecipientChanged } from './privateChannels.js';
import {
  relationshipAdded,
  relationshipRemoved,
  relationshipUpdated,
  type RelationshipWire,
} from './relationships.js';

type Handler = (state: ClientState, data: never) => ClientState;

/**
 * What the social part of the store follows of the gateway: relationships
 * (docs/social-friends.md#events) and group DM members (docs/social-dms.md#events). The chat's
 * reducer (state.ts) keeps the rest of the private channels: READY's, CHANNEL_CREATE/DELETE, and
 * their last message.
 */
const HANDLERS: Record<string, Handler> = {
  RELATIONSHIP_ADD: (state, data: RelationshipWire) => relationshipAdded(state, data),
  RELATIONSHIP_UPDATE: (state, data: RelationshipWire) => relationshipUpdated(state, data),
  RELATIONSHIP_REMOVE: (state, data: RelationshipWire) => relationshipRemoved(state, data),
  CHANNEL_RECIPIENT_ADD: (state, data: { channel_id: string; user: APIUser }) =>
    groupRecipientChanged(state, data, true),
  CHANNEL_RECIPIENT_REMOVE: (state, data: { channel_id: string; user: APIUser }) =>
    groupRecipientChanged(state, data, false),
};

/** Subscribes the social reducers to the gateway; returns the unsubscribe. */
export function subscribeSocial(
  gateway: Pick<GatewayClient, 'on'>,
  store: Store<ClientState>,
): () => void {
  const offs = Object.entries(HANDLERS).map(([type, reduce]) =>
    gateway.on(type, (data) => {
      store.set((state) => reduce(state, data as never));
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}
