/**
 * The gateway dispatches of lobbies. Each is addressed to users (the lobby's members; a removed
 * member gets its own removal, the members of a deleted lobby its deletion): no guild carries
 * them. Payloads never hold an application's moderation metadata nor its override URL.
 */
import type { DispatchData } from '../../domain/dispatch.js';
import type { Dispatch } from '../../events/dispatcher.js';
import type { LobbyMemberRecord, LobbyRecord, LobbyVoiceStateRecord } from '../../storage/index.js';
import type { TypedDispatch } from '../dispatches.js';
import {
  serializeLobby,
  serializeLobbyMember,
  type EditedLobbyMessageWire,
  type LobbyMemberWire,
  type LobbyMessageWire,
  type LobbyView,
  type LobbyWire,
} from './serialize.js';

/** A lobby member's change: the member and its lobby. */
interface LobbyMemberChange {
  lobby_id: string;
  member: LobbyMemberWire;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    LOBBY_CREATE: LobbyWire;
    LOBBY_UPDATE: LobbyWire;
    LOBBY_DELETE: { id: string; reason: 'lobby_deleted' };
    LOBBY_MEMBER_ADD: LobbyMemberChange;
    LOBBY_MEMBER_UPDATE: LobbyMemberChange;
    LOBBY_MEMBER_REMOVE: LobbyMemberChange;
    LOBBY_MESSAGE_CREATE: LobbyMessageWire;
    LOBBY_MESSAGE_UPDATE: EditedLobbyMessageWire;
    LOBBY_MESSAGE_DELETE: { id: string; lobby_id: string };
  }
}

/** The dispatches a lobby's members receive. */
type LobbyDispatchName =
  | 'LOBBY_CREATE'
  | 'LOBBY_UPDATE'
  | 'LOBBY_DELETE'
  | 'LOBBY_MEMBER_ADD'
  | 'LOBBY_MEMBER_UPDATE'
  | 'LOBBY_MEMBER_REMOVE'
  | 'LOBBY_MESSAGE_CREATE'
  | 'LOBBY_MESSAGE_UPDATE'
  | 'LOBBY_MESSAGE_DELETE'
  | 'VOICE_STATE_UPDATE';

/** A lobby's dispatch, scoped to the lobby's application (its game's SDK sessions). */
const toUsers = <TType extends LobbyDispatchName>(
  type: TType,
  to: { lobby: { applicationId: string }; userIds: readonly string[] },
  data: DispatchData<TType>,
): TypedDispatch<TType, DispatchData<TType>> => ({
  type,
  guildId: null,
  userIds: [...new Set(to.userIds)],
  applicationId: to.lobby.applicationId,
  data,
});

/**
 * A lobby call's voice state on the wire (VOICE_STATE_UPDATE): a guild voice state's fields with
 * `guild_id: null` and the lobby id as `channel_id` (null once the user left the call).
 */
export function lobbyVoiceStateWire(
  state: Pick<LobbyVoiceStateRecord, 'userId' | 'sessionId' | 'selfMute' | 'selfDeaf'>,
  channelId: string | null,
) {
  return {
    guild_id: null,
    channel_id: channelId,
    user_id: state.userId,
    session_id: state.sessionId,
    deaf: false,
    mute: false,
    self_deaf: state.selfDeaf,
    self_mute: state.selfMute,
    self_video: false,
    self_stream: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

/** A lobby call's voice state on the wire. */
export type LobbyVoiceStateWire = ReturnType<typeof lobbyVoiceStateWire>;

const memberIds = (view: LobbyView) => view.members.map((m) => m.userId);
/** The lobby's current members, as the addressees of its dispatch. */
const membersOf = (view: LobbyView) => ({ lobby: view.lobby, userIds: memberIds(view) });

export const lobbyDispatches = {
  /** LOBBY_CREATE to the lobby's first members (and to each later joiner). */
  create(view: LobbyView, userIds: readonly string[] = memberIds(view)): Dispatch {
    return toUsers(
      'LOBBY_CREATE',
      { lobby: view.lobby, userIds },
      serializeLobby(view, { forApplication: false }),
    );
  },
  update(view: LobbyView): Dispatch {
    return toUsers(
      'LOBBY_UPDATE',
      membersOf(view),
      serializeLobby(view, { forApplication: false }),
    );
  },
  /** LOBBY_DELETE to those who were members. */
  delete(lobby: LobbyRecord, userIds: readonly string[]): Dispatch {
    return toUsers('LOBBY_DELETE', { lobby, userIds }, { id: lobby.id, reason: 'lobby_deleted' });
  },
  memberAdd(view: LobbyView, member: LobbyMemberRecord): Dispatch {
    return toUsers('LOBBY_MEMBER_ADD', membersOf(view), {
      lobby_id: view.lobby.id,
      member: serializeLobbyMember(member),
    });
  },
  memberUpdate(view: LobbyView, member: LobbyMemberRecord): Dispatch {
    return toUsers('LOBBY_MEMBER_UPDATE', membersOf(view), {
      lobby_id: view.lobby.id,
      member: serializeLobbyMember(member),
    });
  },
  /** LOBBY_MEMBER_REMOVE to the remaining members and the one removed. */
  memberRemove(view: LobbyView, member: LobbyMemberRecord): Dispatch {
    return toUsers(
      'LOBBY_MEMBER_REMOVE',
      { lobby: view.lobby, userIds: [...memberIds(view), member.userId] },
      {
        lobby_id: view.lobby.id,
        member: serializeLobbyMember(member),
      },
    );
  },
  /**
   * VOICE_STATE_UPDATE of a lobby call to `userIds` (the lobby's members, and one who just
   * left it): the state in the call, or `left` for the end of it.
   */
  voiceState(
    lobby: Pick<LobbyRecord, 'id' | 'applicationId'>,
    to: { userIds: readonly string[]; state: LobbyVoiceStateRecord; left?: boolean },
  ): Dispatch {
    return {
      ...toUsers(
        'VOICE_STATE_UPDATE',
        { lobby, userIds: to.userIds },
        lobbyVoiceStateWire(to.state, to.left === true ? null : lobby.id),
      ),
      // The voice node holding the call watches the call's subject, not each member's.
      voiceCall: lobby.id,
    };
  },
  messageCreate(view: LobbyView, message: LobbyMessageWire): Dispatch {
    return toUsers('LOBBY_MESSAGE_CREATE', membersOf(view), message);
  },
  messageUpdate(view: LobbyView, message: EditedLobbyMessageWire): Dispatch {
    return toUsers('LOBBY_MESSAGE_UPDATE', membersOf(view), message);
  },
  messageDelete(view: LobbyView, messageId: string): Dispatch {
    return toUsers('LOBBY_MESSAGE_DELETE', membersOf(view), {
      id: messageId,
      lobby_id: view.lobby.id,
    });
  },
};
