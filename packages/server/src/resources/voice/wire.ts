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
