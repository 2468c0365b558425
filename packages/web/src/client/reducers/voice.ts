import { omit, type ClientState } from '../clientState.js';
import { parseStartTime, parseVoiceState } from '../voice/voiceState.js';
import type { Slice } from './dispatch.js';

/** Voice: who is in which guild voice channel, and the channels' statuses and start times. */
export const voiceSlice: Slice = {
  VOICE_STATE_UPDATE: (state, voiceState) => {
    // A lobby call's state (guild_id null) has no place in the client: it has no lobby view.
    const parsed = parseVoiceState(voiceState);
    if (parsed?.guildId == null) return state;
    const { guildId, userId, entry } = parsed;
    const guildVoice = state.voiceStates[guildId] ?? {};
    return {
      ...state,
      voiceStates: {
        ...state.voiceStates,
        [guildId]:
          entry.channel_id === null ? omit(guildVoice, userId) : { ...guildVoice, [userId]: entry },
      },
    };
  },
  VOICE_CHANNEL_STATUS_UPDATE: (state, { id, status }) => ({
    ...state,
    voiceStatuses: { ...state.voiceStatuses, [id]: status ?? null },
  }),
  CHANNEL_INFO: (state, info) => {
    const voiceStatuses = { ...state.voiceStatuses };
    const voiceStartTimes: ClientState['voiceStartTimes'] = { ...state.voiceStartTimes };
    for (const c of info.channels) {
      if (c.status !== undefined) voiceStatuses[c.id] = c.status;
      if (c.voice_start_time !== undefined) {
        voiceStartTimes[c.id] = parseStartTime(c.voice_start_time);
      }
    }
    return { ...state, voiceStatuses, voiceStartTimes };
  },
  VOICE_CHANNEL_START_TIME_UPDATE: (state, { id, voice_start_time: startTime }) => ({
    ...state,
    voiceStartTimes: { ...state.voiceStartTimes, [id]: parseStartTime(startTime) },
  }),
};
