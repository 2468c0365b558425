/**
 * The gateway dispatches of lobbies. Each is addressed to users (the lobby's members; a removed
 * member gets its own removal, the members of a deleted lobby its deletion): no guild carries
 * them. Payloads never hold an application's moderation metadata nor its override URL.
 */
import type { Dispatch } from '../../events/dispatcher.js';
import type { LobbyMemberRecord } from '../../storage/index.js';
import {
  serializeLobby,
  serializeLobbyMember,
  type LobbyMessageWire,
  type LobbyView,
} from './serialize.js';

const toUsers = (
  type: string,
  userIds: readonly string[],
  data: Record<string, unknown>,
): Dispatch => ({ type, guildId: null, userIds: [...new Set(userIds)], data });

const memberIds = (view: LobbyView) => view.members.map((m) => m.userId);

export const lobbyDispatches = {
  /** LOBBY_CREATE to the lobby's first members (and to each later joiner). */
  create(view: LobbyView, userIds: readonly string[] = memberIds(view)): Dispatch {
    return toUsers('LOBBY_CREATE', userIds, serializeLobby(view, { forApplication: false }));
  },
  update(view: LobbyView): Dispatch {
    return toUsers(
      'LOBBY_UPDATE',
      memberIds(view),
      serializeLobby(view, { forApplication: false }),
    );
  },
  /** LOBBY_DELETE to those who were members. */
  delete(lobbyId: string, userIds: readonly string[]): Dispatch {
    return toUsers('LOBBY_DELETE', userIds, { id: lobbyId, reason: 'lobby_deleted' });
  },
  memberAdd(view: LobbyView, member: LobbyMemberRecord): Dispatch {
    return toUsers('LOBBY_MEMBER_ADD', memberIds(view), {
      lobby_id: view.lobby.id,
      member: serializeLobbyMember(member),
    });
  },
  memberUpdate(view: LobbyView, member: LobbyMemberRecord): Dispatch {
    return toUsers('LOBBY_MEMBER_UPDATE', memberIds(view), {
      lobby_id: view.lobby.id,
      member: serializeLobbyMember(member),
    });
  },
  /** LOBBY_MEMBER_REMOVE to the remaining members and the one removed. */
  memberRemove(view: LobbyView, member: LobbyMemberRecord): Dispatch {
    return toUsers('LOBBY_MEMBER_REMOVE', [...memberIds(view), member.userId], {
      lobby_id: view.lobby.id,
      member: serializeLobbyMember(member),
    });
  },
  messageCreate(view: LobbyView, message: LobbyMessageWire): Dispatch {
    return toUsers('LOBBY_MESSAGE_CREATE', memberIds(view), message);
  },
  messageUpdate(view: LobbyView, message: LobbyMessageWire): Dispatch {
    return toUsers('LOBBY_MESSAGE_UPDATE', memberIds(view), message);
  },
  messageDelete(view: LobbyView, messageId: string): Dispatch {
    return toUsers('LOBBY_MESSAGE_DELETE', memberIds(view), {
      id: messageId,
      lobby_id: view.lobby.id,
    });
  },
};
