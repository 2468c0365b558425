/**
 * The values of voice (docs/sdk.md, Voice): audio devices, VAD settings, voice state and call
 * info handles, the voice settings, the callbacks' types, and the PCM helpers calls share.
 *
 * @module
 */
import type { AudioModeType, CallError, CallStatus } from './enums.js';
import type {
  OpusFrameInfo,
  VideoFrameInfo,
  VideoStreamState,
  VoiceConnectionStats,
} from './voiceTransport.js';

/** An Opus packet is at most 1275 bytes (RFC 6716 §3.2.1). */
export const MAX_OPUS_FRAME_BYTES = 1275;
/** `sendPcmFrame` takes 20 ms of 48 kHz stereo: 960 samples per channel, interleaved. */
export const PCM_FRAME_SAMPLES = 1920;

/** `AudioDevice`: an input or output device (`getInputDevices`, `getCurrentOutputDevice`). */
export class AudioDevice {
  #id: string;
  #name: string;
  #isDefault: boolean;

  constructor(init: { id: string; name: string; isDefault?: boolean }) {
    this.#id = init.id;
    this.#name = init.name;
    this.#isDefault = init.isDefault ?? false;
  }

  id(): string {
    return this.#id;
  }
  setId(id: string): void {
    this.#id = id;
  }
  name(): string {
    return this.#name;
  }
  setName(name: string): void {
    this.#name = name;
  }
  isDefault(): boolean {
    return this.#isDefault;
  }
  setIsDefault(isDefault: boolean): void {
    this.#isDefault = isDefault;
  }
  /** Same device: same id, name and default flag. */
  equals(other: AudioDevice): boolean {
    return (
      this.#id === other.id() &&
      this.#name === other.name() &&
      this.#isDefault === other.isDefault()
    );
  }
}

/** `VADThresholdSettings`: voice activity detection's threshold (dBFS) or its automatic mode. */
export class VADThresholdSettings {
  #vadThreshold: number;
  #automatic: boolean;

  constructor(init: { vadThreshold?: number; automatic?: boolean } = {}) {
    this.#vadThreshold = init.vadThreshold ?? -60;
    this.#automatic = init.automatic ?? true;
  }

  vadThreshold(): number {
    return this.#vadThreshold;
  }
  setVadThreshold(vadThreshold: number): void {
    this.#vadThreshold = vadThreshold;
  }
  automatic(): boolean {
    return this.#automatic;
  }
  setAutomatic(automatic: boolean): void {
    this.#automatic = automatic;
  }
}

/** `VoiceStateHandle`: one participant's self-mute and self-deafen in a call. */
export class VoiceStateHandle {
  readonly #selfMute: boolean;
  readonly #selfDeaf: boolean;
  readonly #selfVideo: boolean;

  constructor(init: { selfMute: boolean; selfDeaf: boolean; selfVideo?: boolean }) {
    this.#selfMute = init.selfMute;
    this.#selfDeaf = init.selfDeaf;
    this.#selfVideo = init.selfVideo ?? false;
  }

  /** Node (Guildhall): whether the participant's camera is on (the voice state's `self_video`). */
  selfVideo(): boolean {
    return this.#selfVideo;
  }

  selfMute(): boolean {
    return this.#selfMute;
  }
  selfDeaf(): boolean {
    return this.#selfDeaf;
  }
}

/** `CallInfoHandle`: a lobby's ongoing call as its members see it (participants, voice states). */
export class CallInfoHandle {
  readonly #channelId: string;
  readonly #guildId: string | null;
  readonly #participants: readonly string[];
  readonly #voiceStates: ReadonlyMap<string, VoiceStateHandle>;

  constructor(init: {
    channelId: string;
    guildId?: string | null;
    participants?: readonly string[];
    voiceStates?: ReadonlyMap<string, VoiceStateHandle>;
  }) {
    this.#channelId = init.channelId;
    this.#guildId = init.guildId ?? null;
    this.#participants = init.participants ?? [];
    this.#voiceStates = init.voiceStates ?? new Map();
  }

  channelId(): string {
    return this.#channelId;
  }
  guildId(): string | null {
    return this.#guildId;
  }
  getParticipants(): string[] {
    return [...this.#participants];
  }
  getVoiceStateHandle(userId: string): VoiceStateHandle | null {
    return this.#voiceStates.get(userId) ?? null;
  }
}

/**
 * `VoiceSettings`: the local client's voice settings, read-only (`getVoiceSettings`): mute and
 * deafen, volumes, the voice mode, the push-to-talk key.
 */
export class VoiceSettings {
  readonly #init: VoiceSettingsInit;

  constructor(init: VoiceSettingsInit) {
    this.#init = { ...init };
  }

  selfMute(): boolean {
    return this.#init.selfMute;
  }
  selfDeaf(): boolean {
    return this.#init.selfDeaf;
  }
  /** 0–200, 100 being unchanged. */
  inputVolume(): number {
    return this.#init.inputVolume;
  }
  /** 0–200, 100 being unchanged. */
  outputVolume(): number {
    return this.#init.outputVolume;
  }
  audioMode(): AudioModeType {
    return this.#init.audioMode;
  }
  /** The push-to-talk key's name, null when none is set. */
  pttKey(): string | null {
    return this.#init.pttKey;
  }
}

export interface VoiceSettingsInit {
  selfMute: boolean;
  selfDeaf: boolean;
  inputVolume: number;
  outputVolume: number;
  audioMode: AudioModeType;
  pttKey: string | null;
}

export type CallStatusChangedCallback = (
  status: CallStatus,
  error: CallError,
  errorDetail: number,
) => void;
export type CallParticipantChangedCallback = (userId: string, added: boolean) => void;
export type CallSpeakingStatusChangedCallback = (userId: string, isPlayingSound: boolean) => void;
export type CallVoiceStateChangedCallback = (userId: string) => void;
/** Node: one participant's Opus frame, decrypted (transport and DAVE), as it was sent. */
export type OpusFrameReceivedCallback = (
  userId: string,
  frame: Uint8Array,
  info: OpusFrameInfo,
) => void;

/**
 * Frame bytes per video packet: with the RTP header (12), the transport's tag and nonce (20) and
 * VP8's payload descriptor (1), a packet stays under the 1,200 bytes WebRTC keeps to.
 */
export const VIDEO_CHUNK_BYTES = 1160;
/** The most packets one video frame may span: the voice server's relay drops longer frames. */
export const MAX_VIDEO_FRAME_PACKETS = 128;
/**
 * The biggest encoded frame `Call.sendVideoFrame` takes: what fits in the packets a frame may
 * span, less room for DAVE's supplemental data (tag, nonce, unencrypted ranges, size, marker).
 */
export const MAX_VIDEO_FRAME_BYTES = MAX_VIDEO_FRAME_PACKETS * VIDEO_CHUNK_BYTES - 64;

/** A call's media counters before anything was sent or received (`Call.getStats`). */
export function noMediaYet(): Omit<VoiceConnectionStats, 'privacyCode'> {
  return {
    framesSent: 0,
    framesReceived: 0,
    videoFramesSent: 0,
    videoFramesReceived: 0,
    packetsDropped: 0,
  };
}

/** Node: one participant's video frame (VP8), put together from its packets and decrypted. */
export type VideoFrameReceivedCallback = (
  userId: string,
  frame: Uint8Array,
  info: VideoFrameInfo,
) => void;
/** Node: a participant started or stopped one of its video streams (op 12). */
export type VideoStreamsChangedCallback = (
  userId: string,
  streams: readonly VideoStreamState[],
) => void;

/**
 * Audio a participant sent (`startCallWithAudioCallbacks`): 16-bit PCM, 48 kHz, stereo
 * interleaved, decoded from their Opus frames and scaled by the output and participant volumes.
 * The reference SDK passes these as six arguments with an out-parameter; here they are one object.
 * Node plays nothing, so `shouldMute` has no effect there.
 */
export interface UserAudioReceived {
  userId: string;
  data: Int16Array;
  samplesPerChannel: number;
  sampleRate: number;
  channels: number;
  shouldMute: boolean;
}
export type UserAudioReceivedCallback = (audio: UserAudioReceived) => void;

/**
 * Audio about to be sent (in Node: each `Call.sendPcmFrame`, after the input volume): the
 * callback may change `data` in place before it is encoded.
 */
export interface UserAudioCaptured {
  data: Int16Array;
  samplesPerChannel: number;
  sampleRate: number;
  channels: number;
}
export type UserAudioCapturedCallback = (audio: UserAudioCaptured) => void;
export type DeviceChangeCallback = (
  inputDevices: AudioDevice[],
  outputDevices: AudioDevice[],
) => void;
export type NoAudioInputCallback = (inputDetected: boolean) => void;
export type VoiceParticipantChangedCallback = (
  lobbyId: string,
  memberId: string,
  added: boolean,
) => void;
export type VoiceSettingsUpdatedCallback = (settings: VoiceSettings) => void;

export interface CallCallbacks {
  statusChanged: CallStatusChangedCallback | null;
  participantChanged: CallParticipantChangedCallback | null;
  speakingStatusChanged: CallSpeakingStatusChangedCallback | null;
  voiceStateChanged: CallVoiceStateChangedCallback | null;
  opusFrameReceived: OpusFrameReceivedCallback | null;
  videoFrameReceived: VideoFrameReceivedCallback | null;
  videoStreamsChanged: VideoStreamsChangedCallback | null;
}

/** A call's callbacks before the game sets any. */
export function noCallbacks(): CallCallbacks {
  return {
    statusChanged: null,
    participantChanged: null,
    speakingStatusChanged: null,
    voiceStateChanged: null,
    opusFrameReceived: null,
    videoFrameReceived: null,
    videoStreamsChanged: null,
  };
}

/** A participant's voice state, from VOICE_STATE_UPDATE. */
export interface ParticipantState {
  selfMute: boolean;
  selfDeaf: boolean;
  /** The camera is on (`self_video`; a lobby call's is always false). */
  selfVideo: boolean;
}

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value);
}

export function isVolume(volume: unknown, max: number): volume is number {
  return typeof volume === 'number' && volume >= 0 && volume <= max;
}

/** A copy scaled by a gain, clamped to 16 bits. */
export function scale(pcm: Int16Array, gain: number): Int16Array {
  if (gain === 1) return Int16Array.from(pcm);
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i += 1)
    out[i] = Math.max(-32768, Math.min(32767, Math.round((pcm[i] ?? 0) * gain)));
  return out;
}

/** Voice activity: the frame's RMS level against the threshold (automatic: anything not silent). */
export function aboveThreshold(pcm: Int16Array, vad: VADThresholdSettings): boolean {
  let sum = 0;
  for (const sample of pcm) sum += sample * sample;
  const rms = Math.sqrt(sum / pcm.length);
  if (vad.automatic()) return rms > 0;
  const dbfs = rms === 0 ? -Infinity : 20 * Math.log10(rms / 32768);
  return dbfs >= vad.vadThreshold();
}
