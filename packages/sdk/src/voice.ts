/**
 * Voice: the types of calls, audio devices and voice settings, and every voice operation of the
 * reference SDK. Guildhall has no voice yet (it is its own issue), so each operation rejects with
 * `VoiceNotAvailableError` (`ErrorType.Disabled`) without a request; the callback setters
 * register their callback, which runs once voice exists. A game written against these names
 * keeps compiling and learns at run time, from one error type, that voice is not there.
 *
 * @module
 */
import { CallError, CallStatus, enumToString, type AudioModeType } from './enums.js';
import type { LoggingSeverity } from './enums.js';
import { VoiceNotAvailableError } from './errors.js';
import type { ClientCore } from './core.js';
import type { LogCallback } from './log.js';

/** A rejection with `VoiceNotAvailableError` for an operation (`Client.startCall`…). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- taken as the reference takes them; read once voice lands
function unavailable<T>(operation: string, ..._args: unknown[]): Promise<T> {
  return Promise.reject(new VoiceNotAvailableError(operation));
}

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

  constructor(init: { selfMute: boolean; selfDeaf: boolean }) {
    this.#selfMute = init.selfMute;
    this.#selfDeaf = init.selfDeaf;
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

/**
 * Audio a participant sent (`startCallWithAudioCallbacks`): 16-bit PCM. The reference SDK passes
 * these as six arguments with an out-parameter; here they are one object, and the callback sets
 * `shouldMute` to keep the audio from being played.
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

/** Audio the local microphone captured, before it is sent (the callback may change `data`). */
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

/**
 * `Call`: a voice call in a lobby. `startCall` makes them; until Guildhall has voice it rejects,
 * so no game holds one, and each operation here rejects with `VoiceNotAvailableError` as well.
 * Its callbacks can be registered.
 */
export class Call {
  readonly #channelId: string;
  /** The callbacks registered on this call; voice calls them once it exists. */
  readonly callbacks: CallCallbacks = {
    statusChanged: null,
    participantChanged: null,
    speakingStatusChanged: null,
    voiceStateChanged: null,
  };

  constructor(channelId: string) {
    this.#channelId = channelId;
  }

  /** `Call::StatusToString`. */
  static statusToString(status: CallStatus): string {
    return enumToString(CallStatus, status);
  }
  /** `Call::ErrorToString`. */
  static errorToString(error: CallError): string {
    return enumToString(CallError, error);
  }

  /** The lobby's channel the call is in. */
  getChannelId(): string {
    return this.#channelId;
  }
  getGuildId(): Promise<string> {
    return unavailable('Call.getGuildId');
  }
  getStatus(): Promise<CallStatus> {
    return unavailable('Call.getStatus');
  }
  getAudioMode(): Promise<AudioModeType> {
    return unavailable('Call.getAudioMode');
  }
  setAudioMode(audioMode: AudioModeType): Promise<void> {
    return unavailable('Call.setAudioMode', audioMode);
  }
  getParticipants(): Promise<string[]> {
    return unavailable('Call.getParticipants');
  }
  getVoiceStateHandle(userId: string): Promise<VoiceStateHandle | null> {
    return unavailable('Call.getVoiceStateHandle', userId);
  }
  getLocalMute(userId: string): Promise<boolean> {
    return unavailable('Call.getLocalMute', userId);
  }
  setLocalMute(userId: string, mute: boolean): Promise<void> {
    return unavailable('Call.setLocalMute', userId, mute);
  }
  getParticipantVolume(userId: string): Promise<number> {
    return unavailable('Call.getParticipantVolume', userId);
  }
  setParticipantVolume(userId: string, volume: number): Promise<void> {
    return unavailable('Call.setParticipantVolume', userId, volume);
  }
  getPTTActive(): Promise<boolean> {
    return unavailable('Call.getPTTActive');
  }
  /** Push-to-talk: true while the key is held. */
  setPTTActive(active: boolean): Promise<void> {
    return unavailable('Call.setPTTActive', active);
  }
  getPTTReleaseDelay(): Promise<number> {
    return unavailable('Call.getPTTReleaseDelay');
  }
  setPTTReleaseDelay(releaseDelayMs: number): Promise<void> {
    return unavailable('Call.setPTTReleaseDelay', releaseDelayMs);
  }
  getSelfMute(): Promise<boolean> {
    return unavailable('Call.getSelfMute');
  }
  setSelfMute(mute: boolean): Promise<void> {
    return unavailable('Call.setSelfMute', mute);
  }
  getSelfDeaf(): Promise<boolean> {
    return unavailable('Call.getSelfDeaf');
  }
  setSelfDeaf(deaf: boolean): Promise<void> {
    return unavailable('Call.setSelfDeaf', deaf);
  }
  getVADThreshold(): Promise<VADThresholdSettings> {
    return unavailable('Call.getVADThreshold');
  }
  setVADThreshold(automatic: boolean, threshold: number): Promise<void> {
    return unavailable('Call.setVADThreshold', automatic, threshold);
  }

  setStatusChangedCallback(callback: CallStatusChangedCallback | null): void {
    this.callbacks.statusChanged = callback;
  }
  setParticipantChangedCallback(callback: CallParticipantChangedCallback | null): void {
    this.callbacks.participantChanged = callback;
  }
  setSpeakingStatusChangedCallback(callback: CallSpeakingStatusChangedCallback | null): void {
    this.callbacks.speakingStatusChanged = callback;
  }
  setOnVoiceStateChangedCallback(callback: CallVoiceStateChangedCallback | null): void {
    this.callbacks.voiceStateChanged = callback;
  }
}

export interface CallCallbacks {
  statusChanged: CallStatusChangedCallback | null;
  participantChanged: CallParticipantChangedCallback | null;
  speakingStatusChanged: CallSpeakingStatusChangedCallback | null;
  voiceStateChanged: CallVoiceStateChangedCallback | null;
}

/** The callbacks a client registered for voice (read by the SDK's voice, once it exists). */
export interface VoiceCallbacks {
  deviceChange: DeviceChangeCallback | null;
  noAudioInput: NoAudioInputCallback | null;
  voiceParticipantChanged: VoiceParticipantChangedCallback | null;
  voiceSettingsUpdated: VoiceSettingsUpdatedCallback | null;
  voiceLog: { callback: LogCallback; minSeverity: LoggingSeverity }[];
}

/** The client's voice operations (the `Voice` section of `Client`). */
export class VoiceArea {
  protected readonly core: ClientCore;
  readonly callbacks: VoiceCallbacks = {
    deviceChange: null,
    noAudioInput: null,
    voiceParticipantChanged: null,
    voiceSettingsUpdated: null,
    voiceLog: [],
  };

  constructor(core: ClientCore) {
    this.core = core;
  }

  /** Every voice operation ends here: a rejection, and a Verbose log line saying which. */
  unavailable<T>(operation: string, ...args: unknown[]): Promise<T> {
    const shown = args.map((arg) => (typeof arg === 'function' ? 'callback' : JSON.stringify(arg)));
    this.core.logger.verbose(
      `${operation}(${shown.join(', ')}): voice is not available in this Guildhall yet.`,
    );
    return unavailable(operation);
  }
}
