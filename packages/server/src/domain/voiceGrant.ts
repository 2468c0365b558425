/**
 * @module domain/voiceGrant: what a voice token grants, and the issuer's shape: below both the
 * main gateway, which issues tokens (gateway/voiceCommand.ts), and voice/, which makes and checks
 * them (voice/token.ts).
 */

/** What a voice token lets its holder do: join `channelId` of `serverId` as this user's session. */
export interface VoiceGrant {
  userId: string;
  /** The main gateway session that sent op 4 (voice Identify's `session_id`). */
  sessionId: string;
  /** The guild id, or the lobby id of a lobby call (voice Identify's `server_id`). */
  serverId: string;
  guildId: string | null;
  /** The voice channel, or the lobby id of a lobby call. */
  channelId: string;
  expiresAtMs: number;
}

/** Issues and checks voice tokens. */
export interface VoiceTokens {
  /** A token for `grant`, valid until `nowMs` + the lifetime. @throws TypeError on a malformed id. */
  issue(grant: Omit<VoiceGrant, 'expiresAtMs'>, nowMs: number): string;
  /**
   * The grant of a genuine token not yet expired at `nowMs`, else null (tampered, expired, not a
   * token). A voice node resuming a session it identified checks with the time of that Identify.
   */
  verify(token: string, nowMs: number): VoiceGrant | null;
}
