/**
 * Voice states as the web client keeps them: read from GUILD_CREATE's `voice_states` and from
 * VOICE_STATE_UPDATE, checked field by field (a malformed one is dropped, never shown half-read).
 * The web client shows calls but does not join them (docs/web.md#voice).
 *
 * @module
 */

/** One person's place in a guild voice or stage channel, and the flags the channel list shows. */
export interface VoiceStateEntry {
  channel_id: string | null;
  self_mute: boolean;
  self_deaf: boolean;
  /** Their camera is on. */
  self_video: boolean;
  /** Muted or deafened by a moderator (the member's `mute`/`deaf`). */
  mute: boolean;
  deaf: boolean;
  /** A stage listener (true) rather than a speaker. */
  suppress: boolean;
}

/** A voice state read from the wire: whose, in which guild (null: a lobby call), and where. */
export interface ParsedVoiceState {
  guildId: string | null;
  userId: string;
  entry: VoiceStateEntry;
}

const SNOWFLAKE = /^\d{1,20}$/;

function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && SNOWFLAKE.test(value);
}

/**
 * A voice state from a dispatch (or GUILD_CREATE's list, where `guild_id` is left out), or null
 * when its ids are not snowflakes. Missing flags are false, as the platform leaves them out of
 * partial states.
 */
export function parseVoiceState(raw: unknown): ParsedVoiceState | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const d = raw as Record<string, unknown>;
  const userId = d['user_id'];
  const channelId = d['channel_id'] ?? null;
  const guildId = d['guild_id'] ?? null;
  if (!isSnowflake(userId)) return null;
  if (channelId !== null && !isSnowflake(channelId)) return null;
  if (guildId !== null && !isSnowflake(guildId)) return null;
  return {
    guildId,
    userId,
    entry: {
      channel_id: channelId,
      self_mute: d['self_mute'] === true,
      self_deaf: d['self_deaf'] === true,
      self_video: d['self_video'] === true,
      mute: d['mute'] === true,
      deaf: d['deaf'] === true,
      suppress: d['suppress'] === true,
    },
  };
}

/** A channel's voice session start (unix seconds) from a dispatch field, or null. */
export function parseStartTime(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** Someone connected to a channel, as its list shows them. */
export interface Connected {
  userId: string;
  name: string;
  state: VoiceStateEntry;
}

/**
 * Who is connected to `channelId`, in the order the list shows them: a stage's speakers before
 * its audience, then by name (ties by id, so the order never flickers between renders).
 */
export function connectedTo(
  voice: Readonly<Record<string, VoiceStateEntry>>,
  channelId: string,
  nameOf: (userId: string) => string,
): Connected[] {
  return Object.entries(voice)
    .filter(([, state]) => state.channel_id === channelId)
    .map(([userId, state]) => ({ userId, state, name: nameOf(userId) }))
    .sort(
      (a, b) =>
        Number(a.state.suppress) - Number(b.state.suppress) ||
        a.name.localeCompare(b.name) ||
        (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0),
    );
}

/**
 * How long a call has been going, as a call timer shows it: `m:ss` under an hour, `h:mm:ss`
 * after. A start in the future (clocks apart) counts as now.
 */
export function callDuration(startSeconds: number, nowMs: number): string {
  const total = Math.max(0, Math.floor(nowMs / 1000) - startSeconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, '0');
  if (hours === 0) return `${String(minutes)}:${ss}`;
  return `${String(hours)}:${String(minutes).padStart(2, '0')}:${ss}`;
}

/** The same duration as an ISO 8601 duration, for `<time dateTime>`. */
export function isoDuration(startSeconds: number, nowMs: number): string {
  const total = Math.max(0, Math.floor(nowMs / 1000) - startSeconds);
  return `PT${String(total)}S`;
}
