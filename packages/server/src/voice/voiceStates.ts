/**
 * The voice node's view of the main gateway's voice states: at Identify and Resume a voice
 * session is let in only while the user's voice state (a guild's, or a lobby call's) names the
 * channel and the gateway session its token was issued for.
 */
import type { Storage } from '../storage/index.js';

/** A user's voice state as the voice node needs it. */
export interface CurrentVoiceState {
  /** The voice channel, or the lobby id of a lobby call. */
  channelId: string;
  /** The main gateway session holding the state (voice Identify's `session_id`). */
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
}

/**
 * The user's voice state in `channelId` now: of the guild `guildId`, or of the lobby `channelId`
 * when `guildId` is null. Null when the user is not in that channel (or lobby call).
 */
export async function currentVoiceState(
  storage: Pick<Storage, 'gateway' | 'lobbies'>,
  q: { guildId: string | null; channelId: string; userId: string },
): Promise<CurrentVoiceState | null> {
  if (q.guildId !== null) {
    const state = await storage.gateway.findVoiceState(q.guildId, q.userId);
    if (state?.channelId !== q.channelId) return null;
    return pick(state);
  }
  const state = await storage.lobbies.findVoiceState(q.channelId, q.userId);
  return state === null ? null : pick({ ...state, channelId: state.lobbyId });
}

function pick(state: CurrentVoiceState): CurrentVoiceState {
  return {
    channelId: state.channelId,
    sessionId: state.sessionId,
    selfMute: state.selfMute,
    selfDeaf: state.selfDeaf,
  };
}
