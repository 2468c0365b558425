/**
 * How a lobby handle reads its lobby's call (`LobbyHandle.getCallInfoHandle`): the voice area,
 * which follows the lobbies' voice states, registers its reader per client here, so lobby
 * handles need not import the voice modules.
 *
 * @module
 */
import type { ClientCore } from './core.js';
import { CallInfoHandle, VoiceStateHandle, type ParticipantState } from './voiceValues.js';

type CallInfoReader = (lobbyId: string) => CallInfoHandle | null;

const readers = new WeakMap<ClientCore, CallInfoReader>();

/** The voice area of `core` answers for its lobbies' calls. */
export function provideLobbyCallInfo(core: ClientCore, read: CallInfoReader): void {
  readers.set(core, read);
}

/** The lobby's ongoing call as the client sees it, or null when nobody is in one. */
export function lobbyCallInfo(core: ClientCore, lobbyId: string): CallInfoHandle | null {
  return readers.get(core)?.(lobbyId) ?? null;
}

/** A lobby's call from the voice states the client has seen of it, null when nobody is in it. */
export function callInfoOf(
  lobbyId: string,
  members: ReadonlyMap<string, ParticipantState> | undefined,
): CallInfoHandle | null {
  if (members === undefined || members.size === 0) return null;
  return new CallInfoHandle({
    channelId: lobbyId,
    guildId: null,
    participants: [...members.keys()],
    voiceStates: new Map([...members].map(([id, state]) => [id, new VoiceStateHandle(state)])),
  });
}
