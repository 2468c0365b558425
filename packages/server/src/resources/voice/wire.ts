import type { APIVoiceState } from 'discord-api-types/v10';
import type { MemberRecord } from '../../storage/index.js';
import type { WireShape } from '../wireShape.js';

/** A voice state on the wire (VOICE_STATE_UPDATE, GUILD_CREATE `voice_states`, the REST routes). */
export function voiceStateWire(
  state: {
    guildId: string;
    channelId: string | null;
    userId: string;
    sessionId: string;
    selfMute: boolean;
    selfDeaf: boolean;
    selfVideo?: boolean;
    /** A stage listener (migration 0034); false outside stage channels. */
    suppress?: boolean;
    /** A raised hand in a stage channel, epoch ms. */
    requestToSpeakAt?: number | null;
  },
  memberWire: unknown,
  member: Pick<MemberRecord, 'deaf' | 'mute'> | null,
) {
  const raised = state.requestToSpeakAt ?? null;
  return {
    guild_id: state.guildId,
    channel_id: state.channelId,
    user_id: state.userId,
    ...(memberWire === null ? {} : { member: memberWire }),
    session_id: state.sessionId,
    deaf: member?.deaf ?? false,
    mute: member?.mute ?? false,
    self_deaf: state.selfDeaf,
    self_mute: state.selfMute,
    self_video: state.selfVideo ?? false,
    self_stream: false,
    suppress: state.suppress ?? false,
    request_to_speak_timestamp: raised === null ? null : new Date(raised).toISOString(),
  } satisfies Omit<WireShape<APIVoiceState>, 'member'> & { member?: unknown };
}

export type VoiceStateWire = ReturnType<typeof voiceStateWire>;

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    /**
     * When a guild voice channel's call began, in unix seconds; null once the channel emptied
     * (gateway/voiceCommand.ts, as op 4 moves a user).
     */
    VOICE_CHANNEL_START_TIME_UPDATE: {
      id: string;
      guild_id: string;
      voice_start_time: number | null;
    };
  }
}
