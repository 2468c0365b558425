import type { MemberRecord } from '../storage/index.js';

/** A voice state on the wire (VOICE_STATE_UPDATE, GUILD_CREATE `voice_states`). */
export function voiceStateWire(
  state: {
    guildId: string;
    channelId: string | null;
    userId: string;
    sessionId: string;
    selfMute: boolean;
    selfDeaf: boolean;
  },
  memberWire: unknown,
  member: Pick<MemberRecord, 'deaf' | 'mute'> | null,
) {
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
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

export type VoiceStateWire = ReturnType<typeof voiceStateWire>;
