/**
 * The legal disclosure the reference SDK injects (`MessageHandle::DisclosureType`): the first
 * time the player sends a message in game that will also show in the platform's client, the SDK
 * adds a local message to that conversation explaining so, which `disclosureType()` marks as
 * `MessageDataVisibleOnDiscord` so a game may reword, translate or hide it. A DM shows in the
 * client when either side is a full account; a lobby's messages when the lobby is linked to a
 * channel. The message is the client's own: the server never stores or sends it.
 *
 * @module
 */
import type { ClientCore } from './core.js';
import { isProvisionalUser } from './users.js';
import type { WireMessage } from './wire.js';

/** `DisclosureTypes`, as the reference header numbers it. */
export const DisclosureTypes = {
  MessageDataVisibleOnDiscord: 3,
} as const;
export type DisclosureTypes = (typeof DisclosureTypes)[keyof typeof DisclosureTypes];

/** The reference SDK's basic English explanation, for a game to replace. */
export const DISCLOSURE_CONTENT =
  'Messages you send here are also visible in Discord, where the other people in this chat can read them.';

const PLATFORM_EPOCH_MS = 1_420_070_400_000n;
/** The clients that injected their disclosure already (once per client). */
const disclosed = new WeakSet<ClientCore>();
let increment = 0n;

/** A local id that sorts as a message made now would. */
function localId(nowMs: number): string {
  increment = (increment + 1n) & 0xfffn;
  return String(((BigInt(nowMs) - PLATFORM_EPOCH_MS) << 22n) | increment);
}

/** Whether a message the player sent will show in the platform's client. */
function visibleOnPlatform(core: ClientCore, message: WireMessage, recipientId?: string): boolean {
  if (message.lobby_id !== undefined) {
    const lobby = core.state.lobbies.get(message.lobby_id);
    return lobby?.linked_channel !== undefined && lobby.linked_channel !== null;
  }
  const channel = core.state.channels.get(message.channel_id);
  const recipient = recipientId === undefined ? undefined : core.state.users.get(recipientId);
  const people = [
    message.author,
    ...(channel?.recipients ?? []),
    ...(recipient ? [recipient] : []),
  ];
  return people.some((user) => !isProvisionalUser(user));
}

/**
 * After the player's own message is sent: injects the disclosure into its conversation (as a
 * MESSAGE_CREATE or LOBBY_MESSAGE_CREATE of the client's own, so the cache and the
 * messageCreated callback see it) the first time one will show in the platform's client.
 */
export function discloseOnce(core: ClientCore, sent: WireMessage, recipientId?: string): void {
  if (disclosed.has(core) || !visibleOnPlatform(core, sent, recipientId)) return;
  disclosed.add(core);
  const nowMs = Math.max(Date.now(), Date.parse(sent.timestamp ?? '') || 0);
  const disclosure: WireMessage = {
    id: localId(nowMs),
    channel_id: sent.channel_id,
    content: DISCLOSURE_CONTENT,
    author: sent.author,
    timestamp: new Date(nowMs).toISOString(),
    disclosure_type: DisclosureTypes.MessageDataVisibleOnDiscord,
    ...(sent.lobby_id === undefined ? {} : { lobby_id: sent.lobby_id }),
  };
  core.dispatch(
    sent.lobby_id === undefined ? 'MESSAGE_CREATE' : 'LOBBY_MESSAGE_CREATE',
    disclosure,
  );
}
