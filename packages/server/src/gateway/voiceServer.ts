/**
 * @module gateway/voiceServer: what every kind of call (a guild's voice channel, a lobby's, a
 * private channel's) shares on the main gateway: where a joining session is sent
 * (VOICE_SERVER_UPDATE) and when it needs to be sent there again.
 */
import type { VoiceTokens } from '../domain/voiceGrant.js';
import type { Dispatch } from '../events/dispatcher.js';
import type { VoiceStateRecord } from '../storage/index.js';

/** Where the gateway sends a session that joins a call, and what it lets it in with. */
export interface VoiceServers {
  tokens: VoiceTokens;
  /**
   * The `host:port` of the voice node holding the call `callKey` (a voice channel's id, or a
   * lobby's), or the node picked for it now.
   */
  endpointFor(callKey: string): Promise<string>;
  /** The most members one lobby call may hold (a voice node's limit); a join past it is ignored. */
  maxMembers?: number;
}

/**
 * Whether the session needs (again) a voice server: it joined or moved, took the state over from
 * another session of its user, or repeated its state unchanged, which is how a client whose voice
 * connection dropped asks to rejoin. A mute or deafen in the same channel needs none.
 */
export function needsServer(
  previous: Pick<
    VoiceStateRecord,
    'channelId' | 'sessionId' | 'selfMute' | 'selfDeaf' | 'selfVideo'
  > | null,
  next: Pick<VoiceStateRecord, 'channelId' | 'sessionId' | 'selfMute' | 'selfDeaf' | 'selfVideo'>,
): boolean {
  if (previous === null) return true;
  if (previous.channelId !== next.channelId || previous.sessionId !== next.sessionId) return true;
  return (
    previous.selfMute === next.selfMute &&
    previous.selfDeaf === next.selfDeaf &&
    previous.selfVideo === next.selfVideo
  );
}

/**
 * VOICE_SERVER_UPDATE's payload: the voice token and endpoint of a guild's voice channel, or of a
 * private call (a lobby's, a DM's), which has no guild and names its channel instead.
 */
export interface VoiceServerWire {
  token: string;
  guild_id: string | null;
  /** A private call's channel (the lobby's or DM's id); absent for a guild's. */
  channel_id?: string;
  endpoint: string;
}

declare module '../domain/dispatch.js' {
  interface DispatchPayloads {
    VOICE_SERVER_UPDATE: VoiceServerWire;
  }
}

/** VOICE_SERVER_UPDATE for one session, to follow its voice state on the same subject. */
export const serverUpdate = (
  grant: {
    userId: string;
    sessionId: string;
    serverId: string;
    guildId: string | null;
    channelId: string;
  },
  wire: { endpoint: string; nowMs: number; tokens: VoiceTokens },
): Pick<Dispatch<'VOICE_SERVER_UPDATE'>, 'type' | 'sessionId' | 'data'> => ({
  type: 'VOICE_SERVER_UPDATE',
  sessionId: grant.sessionId,
  data: {
    token: wire.tokens.issue(grant, wire.nowMs),
    guild_id: grant.guildId,
    ...(grant.guildId === null ? { channel_id: grant.channelId } : {}),
    endpoint: wire.endpoint,
  },
});
