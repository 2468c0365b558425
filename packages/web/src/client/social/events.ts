import type { APIUser } from 'discord-api-types/v10';
import { Op, type GatewayClient } from '../../lib/gateway.js';
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

/** What a person's client says of itself once connected (op 3): online, no activity. */
export const ONLINE_PRESENCE = { status: 'online', since: null, activities: [], afk: false };

/**
 * Subscribes the social reducers to the gateway, and announces the person online after each READY
 * (the server takes no presence from IDENTIFY: until op 3, friends and guilds see them offline);
 * returns the unsubscribe.
 */
export function subscribeSocial(
  gateway: Pick<GatewayClient, 'on' | 'send'>,
  store: Store<ClientState>,
): () => void {
  const offs = Object.entries(HANDLERS).map(([type, reduce]) =>
    gateway.on(type, (data) => {
      store.set((state) => reduce(state, data as never));
    }),
  );
  offs.push(
    gateway.on('READY', () => {
      gateway.send(Op.PresenceUpdate, ONLINE_PRESENCE);
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}
