/**
 * The voice node's view of the main gateway's voice states: at Identify and Resume a voice
 * session is let in only while the user's voice state (a guild's, a private channel's call or a
 * lobby call's) names the channel and the gateway session its token was issued for.
 */
import type { Storage } from '../storage/index.js';

/** A user's voice state as the voice node needs it. */
export interface CurrentVoiceState {
  /** The voice channel, the private channel of a DM call, or the lobby id of a lobby call. */
  channelId: string;
  /** The main gateway session holding the state (voice Identify's `session_id`). */
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
  /** Muted by the platform: a server mute, or a stage's audience (suppressed). */
  muted: boolean;
  /** Hears nothing: deafened by itself or by the server. */
  deafened: boolean;
}

/**
 * The user's voice state in `channelId` now: of the guild `guildId`, or when `guildId` is null
 * of the private channel's call `channelId` or of the lobby `channelId`. Null when the user is not
 * in that channel (or call).
 */
export async function currentVoiceState(
  storage: Pick<Storage, 'gateway' | 'lobbies' | 'members' | 'calls'>,
  q: { guildId: string | null; channelId: string; userId: string },
): Promise<CurrentVoiceState | null> {
  if (q.guildId !== null) {
    const state = await storage.gateway.findVoiceState(q.guildId, q.userId);
    if (state?.channelId !== q.channelId) return null;
    const member = await storage.members.find(q.guildId, q.userId);
    return pick(state, {
      muted: state.suppress || member?.mute === true,
      deafened: state.selfDeaf || member?.deaf === true,
    });
  }
  const dm = await storage.calls.findVoiceState(q.userId);
  if (dm?.channelId === q.channelId) {
    return pick(dm, { muted: false, deafened: dm.selfDeaf });
  }
  const state = await storage.lobbies.findVoiceState(q.channelId, q.userId);
  return state === null
    ? null
    : pick({ ...state, channelId: state.lobbyId }, { muted: false, deafened: state.selfDeaf });
}

function pick(
  state: Omit<CurrentVoiceState, 'muted' | 'deafened'>,
  platform: Pick<CurrentVoiceState, 'muted' | 'deafened'>,
): CurrentVoiceState {
  return {
    channelId: state.channelId,
    sessionId: state.sessionId,
    selfMute: state.selfMute,
    selfDeaf: state.selfDeaf,
    ...platform,
  };
}
