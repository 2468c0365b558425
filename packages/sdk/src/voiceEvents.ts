/**
 * The gateway's voice dispatches as a lobby call reads them: VOICE_STATE_UPDATE and
 * VOICE_SERVER_UPDATE of lobbies (a guild's voice channel is not the SDK's), checked.
 *
 * @module
 */
import { isSnowflake, type ParticipantState } from './voiceValues.js';

/** A VOICE_STATE_UPDATE of a lobby call: who, in which lobby (null: left), muted or deafened. */
export interface LobbyVoiceState {
  userId: string;
  channelId: string | null;
  state: ParticipantState;
  sessionId: string | null;
}

/** The lobby voice state a dispatch carries, or null (a guild's, or malformed). */
export function lobbyVoiceState(data: unknown): LobbyVoiceState | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d['guild_id'] !== null && d['guild_id'] !== undefined) return null; // a guild's voice channel
  const userId = d['user_id'];
  const channelId = d['channel_id'];
  if (!isSnowflake(userId) || (channelId !== null && !isSnowflake(channelId))) return null;
  return {
    userId,
    channelId,
    state: {
      selfMute: d['self_mute'] === true,
      selfDeaf: d['self_deaf'] === true,
      selfVideo: d['self_video'] === true,
    },
    sessionId: typeof d['session_id'] === 'string' ? d['session_id'] : null,
  };
}

/** A lobby's VOICE_SERVER_UPDATE: its token and endpoint, or that it carries none usable. */
export type LobbyVoiceServer =
  | { channelId: string; usable: true; token: string; endpoint: string }
  | { channelId: string; usable: false };

/** The lobby voice server a dispatch names, or null (a guild's, or no lobby). */
export function lobbyVoiceServer(data: unknown): LobbyVoiceServer | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  const { token, endpoint } = d;
  const channelId = d['channel_id'];
  if (d['guild_id'] !== null || !isSnowflake(channelId)) return null;
  if (
    typeof token !== 'string' ||
    token === '' ||
    typeof endpoint !== 'string' ||
    !/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(endpoint)
  ) {
    return { channelId, usable: false };
  }
  return { channelId, usable: true, token, endpoint };
}
