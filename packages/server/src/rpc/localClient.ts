/**
 * @module rpc/localClient: what the RPC commands use of the person's client beside the API: the
 * voice states its gateway session sees, op 4 for the person's own voice state, the channel it
 * follows for who speaks (op 1001), and the voice
 * settings (the Social SDK's, which the daemon's gateway client is: rpc/presenceLink.ts).
 */
import type { AudioModeType, VoiceSettings } from '@guildhall/social-sdk';
import type { SpeakingFollow } from './speakingFollow.js';
import type { VoiceStates } from './voiceStates.js';

/** A change of the SDK's voice settings. */
export interface VoiceSettingsChange {
  selfMute?: boolean;
  selfDeaf?: boolean;
  inputVolume?: number;
  outputVolume?: number;
  audioMode?: AudioModeType;
  pttKey?: string | null;
}

/** Op 4's payload. */
export interface VoiceStateRequest {
  guild_id: string;
  channel_id: string | null;
  self_mute: boolean;
  self_deaf: boolean;
}

export interface LocalClient {
  voice: VoiceStates;
  /** Sends op 4; false when the gateway session is not connected. */
  sendVoiceState(state: VoiceStateRequest): boolean;
  voiceSettings(): VoiceSettings;
  changeVoiceSettings(change: VoiceSettingsChange): void;
  /** A user's activities as the person's client sees them (friends' presences). */
  activitiesOf(userId: string): Record<string, unknown>[];
  /** The gateway session's id (the voice state the daemon itself holds carries it). */
  sessionId(): string | null;
  /** The voice channel the gateway session follows for SPEAKING events (speakingFollow.ts). */
  speaking: SpeakingFollow;
}
