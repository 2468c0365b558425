import { MessageTypes } from '@guildhall/protocol';
import type {
  ChannelRecord,
  LobbyMemberRecord,
  LobbyMessageRecord,
  LobbyMetadata,
  LobbyRecord,
  OverwriteRecord,
  UserRecord,
} from '../../storage/index.js';
import { serializeChannel } from '../channels/index.js';
import { serializeUser } from '../users/index.js';

/** A lobby member on the wire (LobbyMemberResponse). */
export function serializeLobbyMember(member: LobbyMemberRecord) {
  return {
    id: member.userId,
    metadata: member.metadata,
    flags: member.flags,
    ...(member.additionalName === null ? {} : { additional_name: member.additionalName }),
  };
}
export type LobbyMemberWire = ReturnType<typeof serializeLobbyMember>;

/** What a lobby is shown with beside its row. */
export interface LobbyView {
  lobby: LobbyRecord;
  members: LobbyMemberRecord[];
  linkedChannel: { channel: ChannelRecord; overwrites: readonly OverwriteRecord[] } | null;
}

/**
 * A lobby on the wire (LobbyResponse). The override URL is the application's configuration: it is
 * shown to the app's bot, never to members (Bearer answers, gateway dispatches).
 */
export function serializeLobby(view: LobbyView, options: { forApplication: boolean }) {
  const { lobby } = view;
  return {
    id: lobby.id,
    application_id: lobby.applicationId,
    metadata: lobby.metadata,
    members: view.members.map(serializeLobbyMember),
    ...(view.linkedChannel === null
      ? {}
      : {
          linked_channel: serializeChannel(
            view.linkedChannel.channel,
            view.linkedChannel.overwrites,
          ),
        }),
    flags: lobby.flags,
    ...(options.forApplication
      ? { override_event_webhooks_url: lobby.overrideEventWebhooksUrl }
      : {}),
  };
}
export type LobbyWire = ReturnType<typeof serializeLobby>;

/**
 * A lobby message on the wire (LobbyMessageResponse; also the LOBBY_MESSAGE_* webhook data).
 * `moderation` is the viewing application's own moderation metadata: only its answers carry it,
 * never a gateway payload or a webhook.
 */
export function serializeLobbyMessage(
  message: LobbyMessageRecord,
  author: UserRecord,
  moderation?: LobbyMetadata,
) {
  return {
    id: message.id,
    type: MessageTypes.DEFAULT,
    content: message.content,
    lobby_id: message.lobbyId,
    channel_id: message.lobbyId,
    author: serializeUser(author),
    ...(message.additionalName === null
      ? {}
      : { lobby_member: { additional_name: message.additionalName } }),
    ...(message.metadata === null ? {} : { metadata: message.metadata }),
    ...(moderation === undefined ? {} : { moderation_metadata: moderation }),
    flags: message.flags,
    application_id: message.applicationId,
  };
}
export type LobbyMessageWire = ReturnType<typeof serializeLobbyMessage>;

const isoOf = (ms: number) => new Date(ms).toISOString();

/**
 * A LOBBY_MESSAGE_UPDATE's data (gateway and webhook event): the message with its
 * `timestamp` (sent) and `edited_timestamp`.
 */
export function serializeEditedLobbyMessage(message: LobbyMessageRecord, author: UserRecord) {
  return {
    ...serializeLobbyMessage(message, author),
    timestamp: isoOf(message.createdAt),
    edited_timestamp: message.editedAt === null ? null : isoOf(message.editedAt),
  };
}
export type EditedLobbyMessageWire = ReturnType<typeof serializeEditedLobbyMessage>;
