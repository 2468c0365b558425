/**
 * Voice: calls in lobbies (docs/sdk.md, Voice). A `Call` joins its lobby's call through the
 * gateway (op 4 with the lobby's id; the server answers VOICE_STATE_UPDATE and
 * VOICE_SERVER_UPDATE), then connects to the voice server the platform's way
 * (`Platform.loadVoice`: in Node, `platform/nodeVoice.ts`). Its status follows the reference's
 * `Call::Status`: Joining (op 4 sent) → Connecting (VOICE_SERVER_UPDATE, the voice WebSocket
 * opening) → SignalingConnected (Ready) → Connected (media can flow end-to-end encrypted) →
 * Reconnecting (resuming a dropped voice WebSocket) → Disconnecting → Disconnected, with a
 * `Call::Error` when it ended for a reason.
 *
 * Node has no audio devices: a game sends Opus frames (`Call.sendOpusFrame`) or 16-bit PCM
 * (`Call.sendPcmFrame`, encoded here) and receives each participant's decrypted Opus frames
 * (`Call.setOpusFrameReceivedCallback`) or PCM (`startCallWithAudioCallbacks`). The browser build
 * has no voice; its operations reject with `VoiceNotAvailableError` saying why.
 *
 * @module
 */
import { AudioModeType, CallError, CallStatus, enumToString, LoggingSeverity } from './enums.js';
import {
  AudioDeviceUnavailableError,
  type SdkError,
  validationError,
  VoiceNotAvailableError,
} from './errors.js';
import type { ClientCore } from './core.js';
import { Logger, type LogCallback } from './log.js';
import type {
  OpusCodec,
  OpusFrameInfo,
  OpusSendResult,
  VoiceConnection,
  VoiceConnectionStats,
  VoiceModule,
} from './voiceTransport.js';

export type { OpusFrameInfo, OpusSendResult, VoiceConnectionStats } from './voiceTransport.js';

/** An Opus packet is at most 1275 bytes (RFC 6716 §3.2.1). */
export const MAX_OPUS_FRAME_BYTES = 1275;
/** `sendPcmFrame` takes 20 ms of 48 kHz stereo: 960 samples per channel, interleaved. */
export const PCM_FRAME_SAMPLES = 1920;
/** How long a call waits for VOICE_SERVER_UPDATE after op 4 before it fails with JoinTimeout. */
export const CALL_JOIN_TIMEOUT_MS = 10_000;
/** Speaking (5) ends after this long without a frame. */
const SPEAKING_IDLE_MS = 200;
/** The gateway's op 4, Voice State Update. */
const GATEWAY_VOICE_STATE_UPDATE = 4;

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
/** Node: one participant's Opus frame, decrypted (transport and DAVE), as it was sent. */
export type OpusFrameReceivedCallback = (
  userId: string,
  frame: Uint8Array,
  info: OpusFrameInfo,
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
}

/** A participant's voice state, from VOICE_STATE_UPDATE. */
interface ParticipantState {
  selfMute: boolean;
  selfDeaf: boolean;
}

/**
 * `Call`: the player's voice call in a lobby (`Client.startCall`). Its getters read the call's
 * state; its setters act at once (self-mute and deafen are sent to the server with op 4).
 */
export class Call {
  readonly #channelId: string;
  readonly #area: VoiceArea;
  readonly callbacks: CallCallbacks = {
    statusChanged: null,
    participantChanged: null,
    speakingStatusChanged: null,
    voiceStateChanged: null,
    opusFrameReceived: null,
  };
  #status: CallStatus = CallStatus.Disconnected;
  #error: CallError = CallError.None;
  #errorDetail = 0;
  #selfMute: boolean;
  #selfDeaf: boolean;
  #audioMode: AudioModeType;
  #pttActive = false;
  /** Push-to-talk lets frames through: the key is held, or was released less than the delay ago. */
  #pttOpen = false;
  #pttReleaseDelayMs = 20;
  #pttTimer: ReturnType<typeof setTimeout> | null = null;
  #vad = new VADThresholdSettings();
  readonly #localMutes = new Set<string>();
  readonly #volumes = new Map<string, number>();
  readonly #participants = new Map<string, ParticipantState>();
  #connection: VoiceConnection | null = null;
  #joinTimer: ReturnType<typeof setTimeout> | null = null;
  #speakingTimer: ReturnType<typeof setTimeout> | null = null;
  #sessionId: string | null = null;
  /** The voice server's endpoint the connection dialed. */
  #endpoint: string | null = null;
  readonly #audio: {
    received: UserAudioReceivedCallback;
    captured: UserAudioCapturedCallback;
  } | null;
  #codec: OpusCodec | null = null;

  /** Made by `Client.startCall`; a game does not construct calls. */
  constructor(
    area: VoiceArea,
    channelId: string,
    audio: { received: UserAudioReceivedCallback; captured: UserAudioCapturedCallback } | null,
  ) {
    this.#area = area;
    this.#channelId = channelId;
    this.#audio = audio;
    const settings = area.settingsInit();
    this.#selfMute = settings.selfMute;
    this.#selfDeaf = settings.selfDeaf;
    this.#audioMode = settings.audioMode;
  }

  /** `Call::StatusToString`. */
  static statusToString(status: CallStatus): string {
    return enumToString(CallStatus, status);
  }
  /** `Call::ErrorToString`. */
  static errorToString(error: CallError): string {
    return enumToString(CallError, error);
  }

  /** The lobby's id: a lobby call's channel. */
  getChannelId(): string {
    return this.#channelId;
  }
  /** The voice server's `server_id` of the call: for a lobby call, the lobby's id. */
  getGuildId(): Promise<string> {
    return Promise.resolve(this.#channelId);
  }
  getStatus(): Promise<CallStatus> {
    return Promise.resolve(this.#status);
  }
  /** Why the call ended (`CallError.None` while it runs), and a detail (a close code). */
  getError(): { error: CallError; errorDetail: number } {
    return { error: this.#error, errorDetail: this.#errorDetail };
  }
  getAudioMode(): Promise<AudioModeType> {
    return Promise.resolve(this.#audioMode);
  }
  /** VAD sends whatever is sent (PCM under the VAD threshold aside); PTT only while `setPTTActive(true)`. */
  setAudioMode(audioMode: AudioModeType): Promise<void> {
    if (audioMode !== AudioModeType.VAD && audioMode !== AudioModeType.PTT) {
      return Promise.reject(
        validationError('Call.setAudioMode: the mode must be AudioModeType.VAD or PTT.'),
      );
    }
    this.#audioMode = audioMode;
    if (audioMode === AudioModeType.PTT && !this.#pttOpen) this.#stopSpeaking();
    this.#area.settingsChanged({ audioMode });
    return Promise.resolve();
  }
  /** The users in the call (the player too, once the server has them in it). */
  getParticipants(): Promise<string[]> {
    return Promise.resolve([...this.#participants.keys()]);
  }
  getVoiceStateHandle(userId: string): Promise<VoiceStateHandle | null> {
    const state = this.#participants.get(userId);
    return Promise.resolve(state === undefined ? null : new VoiceStateHandle(state));
  }
  /** Whether the player muted a participant for themselves (their audio is not delivered). */
  getLocalMute(userId: string): Promise<boolean> {
    return Promise.resolve(this.#localMutes.has(userId));
  }
  setLocalMute(userId: string, mute: boolean): Promise<void> {
    if (!isSnowflake(userId))
      return Promise.reject(
        validationError(`Call.setLocalMute: ${JSON.stringify(userId)} is not a user id.`),
      );
    if (mute) this.#localMutes.add(userId);
    else this.#localMutes.delete(userId);
    return Promise.resolve();
  }
  /** A participant's volume, 0–200 (100: unchanged), applied to their PCM. */
  getParticipantVolume(userId: string): Promise<number> {
    return Promise.resolve(this.#volumes.get(userId) ?? 100);
  }
  setParticipantVolume(userId: string, volume: number): Promise<void> {
    if (!isSnowflake(userId)) {
      return Promise.reject(
        validationError(`Call.setParticipantVolume: ${JSON.stringify(userId)} is not a user id.`),
      );
    }
    if (!isVolume(volume, 200)) {
      return Promise.reject(
        validationError('Call.setParticipantVolume: the volume must be a number from 0 to 200.'),
      );
    }
    this.#volumes.set(userId, volume);
    return Promise.resolve();
  }
  getPTTActive(): Promise<boolean> {
    return Promise.resolve(this.#pttActive);
  }
  /**
   * Push-to-talk: true while the key is held. In PTT mode frames are sent while it is held and
   * for `getPTTReleaseDelay()` ms after it is released.
   */
  setPTTActive(active: boolean): Promise<void> {
    this.#pttActive = active;
    if (this.#pttTimer !== null) clearTimeout(this.#pttTimer);
    this.#pttTimer = null;
    if (active) {
      this.#pttOpen = true;
    } else if (this.#pttReleaseDelayMs === 0) {
      this.#closePtt();
    } else {
      this.#pttTimer = setTimeout(() => {
        this.#pttTimer = null;
        this.#closePtt();
      }, this.#pttReleaseDelayMs);
    }
    return Promise.resolve();
  }
  getPTTReleaseDelay(): Promise<number> {
    return Promise.resolve(this.#pttReleaseDelayMs);
  }
  /** Milliseconds push-to-talk stays open after release (0–2000; default 20). */
  setPTTReleaseDelay(releaseDelayMs: number): Promise<void> {
    if (!Number.isInteger(releaseDelayMs) || releaseDelayMs < 0 || releaseDelayMs > 2000) {
      return Promise.reject(
        validationError(
          'Call.setPTTReleaseDelay: the delay must be a whole number of ms from 0 to 2000.',
        ),
      );
    }
    this.#pttReleaseDelayMs = releaseDelayMs;
    return Promise.resolve();
  }
  getSelfMute(): Promise<boolean> {
    return Promise.resolve(this.#selfMute);
  }
  /** Self-mute: nothing is sent, and the server (op 4 `self_mute`) tells the others. */
  setSelfMute(mute: boolean): Promise<void> {
    return this.applySelf({ selfMute: mute });
  }
  getSelfDeaf(): Promise<boolean> {
    return Promise.resolve(this.#selfDeaf);
  }
  /** Self-deafen: received audio is no longer delivered, and the server stops relaying it (op 4 `self_deaf`). */
  setSelfDeaf(deaf: boolean): Promise<void> {
    return this.applySelf({ selfDeaf: deaf });
  }
  getVADThreshold(): Promise<VADThresholdSettings> {
    return Promise.resolve(
      new VADThresholdSettings({
        vadThreshold: this.#vad.vadThreshold(),
        automatic: this.#vad.automatic(),
      }),
    );
  }
  /**
   * The level (dBFS, −100 to 0) under which `sendPcmFrame` sends nothing in VAD mode; automatic
   * sends every frame that is not digital silence. Opus frames (`sendOpusFrame`) are not measured.
   */
  setVADThreshold(automatic: boolean, threshold: number): Promise<void> {
    if (typeof threshold !== 'number' || !(threshold >= -100 && threshold <= 0)) {
      return Promise.reject(
        validationError(
          'Call.setVADThreshold: the threshold must be a number of dBFS from -100 to 0.',
        ),
      );
    }
    this.#vad = new VADThresholdSettings({ vadThreshold: threshold, automatic });
    return Promise.resolve();
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

  // ── Node's audio (not in the reference SDK, which captures and plays through devices) ──────

  /** Node: called with each participant's decrypted Opus frame (not when deafened or locally muted). */
  setOpusFrameReceivedCallback(callback: OpusFrameReceivedCallback | null): void {
    this.callbacks.opusFrameReceived = callback;
  }

  /**
   * Node: sends one Opus frame (20 ms, 48 kHz stereo, at most 1275 bytes) into the call, DAVE-
   * then transport-encrypted. Pace the frames yourself (one per 20 ms). Says what became of it.
   */
  sendOpusFrame(frame: Uint8Array): OpusSendResult {
    if (
      !(frame instanceof Uint8Array) ||
      frame.length === 0 ||
      frame.length > MAX_OPUS_FRAME_BYTES
    ) {
      throw validationError(
        `Call.sendOpusFrame: a frame is 1 to ${MAX_OPUS_FRAME_BYTES} bytes of Opus.`,
      );
    }
    const blocked = this.#gate();
    if (blocked !== null || this.#connection === null) return blocked ?? 'notConnected';
    const result = this.#connection.sendOpus(frame);
    if (result === 'sent') this.#armSpeakingIdle();
    return result;
  }

  /**
   * Node: sends 20 ms of 16-bit PCM (48 kHz stereo interleaved: 1920 samples), encoded to Opus
   * here, after the input volume and the captured-audio callback of startCallWithAudioCallbacks.
   * In VAD mode a frame under the VAD threshold is not sent (`silent`).
   */
  async sendPcmFrame(pcm: Int16Array): Promise<OpusSendResult | 'silent'> {
    if (!(pcm instanceof Int16Array) || pcm.length !== PCM_FRAME_SAMPLES) {
      throw validationError(
        `Call.sendPcmFrame: a frame is ${PCM_FRAME_SAMPLES} samples (20 ms of 48 kHz stereo, interleaved).`,
      );
    }
    const blocked = this.#gate();
    if (blocked !== null) return blocked;
    const data = scale(pcm, this.#area.inputVolume / 100);
    if (this.#audio !== null) {
      const captured: UserAudioCaptured = {
        data,
        samplesPerChannel: PCM_FRAME_SAMPLES / 2,
        sampleRate: 48000,
        channels: 2,
      };
      this.#area.core.invoke(this.#audio.captured, captured);
    }
    if (this.#audioMode === AudioModeType.VAD && !aboveThreshold(data, this.#vad)) return 'silent';
    const codec = await this.#opus();
    return this.sendOpusFrame(codec.encode(data));
  }

  /** Node: the call's media counters and the DAVE epoch's privacy code. */
  getStats(): VoiceConnectionStats {
    return (
      this.#connection?.stats() ?? {
        framesSent: 0,
        framesReceived: 0,
        packetsDropped: 0,
        privacyCode: '',
      }
    );
  }

  // ── The SDK's side (VoiceArea drives these) ────────────────────────────────────────────────

  /** Mute or deafen changed: kept, sent with op 4 while the call is on, and announced. */
  applySelf(change: { selfMute?: boolean; selfDeaf?: boolean }): Promise<void> {
    const mute = change.selfMute ?? this.#selfMute;
    const deaf = change.selfDeaf ?? this.#selfDeaf;
    if (mute === this.#selfMute && deaf === this.#selfDeaf) return Promise.resolve();
    this.#selfMute = mute;
    this.#selfDeaf = deaf;
    if (mute) this.#stopSpeaking();
    if (this.active) this.#area.sendVoiceState(this.#channelId, mute, deaf);
    return Promise.resolve();
  }

  get active(): boolean {
    return this.#status !== CallStatus.Disconnected && this.#status !== CallStatus.Disconnecting;
  }

  get sessionId(): string | null {
    return this.#sessionId;
  }

  /** op 4 sent: Joining, and the wait for VOICE_SERVER_UPDATE. */
  join(): void {
    this.#setStatus(CallStatus.Joining, CallError.None, 0);
    this.#area.sendVoiceState(this.#channelId, this.#selfMute, this.#selfDeaf);
    this.#joinTimer = setTimeout(() => {
      this.#joinTimer = null;
      if (this.#status !== CallStatus.Joining) return;
      this.fail(
        CallError.JoinTimeout,
        0,
        `no voice server was assigned within ${CALL_JOIN_TIMEOUT_MS / 1000} s of joining`,
      );
    }, CALL_JOIN_TIMEOUT_MS);
  }

  /** A VOICE_STATE_UPDATE of this lobby's call (or of a user leaving it). */
  onVoiceState(update: {
    userId: string;
    state: ParticipantState | null;
    sessionId: string | null;
    self: boolean;
  }): void {
    const { userId, state, sessionId, self } = update;
    if (self && state !== null && sessionId !== null) this.#sessionId = sessionId;
    const known = this.#participants.get(userId);
    if (state === null) {
      if (known === undefined) return;
      this.#participants.delete(userId);
      this.#volumes.delete(userId);
      this.#area.core.invoke(this.callbacks.participantChanged, userId, false);
      this.#connection?.participantsChanged();
      if (self && this.active && this.#status !== CallStatus.Joining) {
        // The server took the player out of the call (left the lobby, or was removed).
        this.fail(CallError.None, 0, "the server ended the player's voice state");
      }
      return;
    }
    this.#participants.set(userId, state);
    if (known === undefined)
      this.#area.core.invoke(this.callbacks.participantChanged, userId, true);
    else if (known.selfMute !== state.selfMute || known.selfDeaf !== state.selfDeaf) {
      this.#area.core.invoke(this.callbacks.voiceStateChanged, userId);
    }
  }

  /** VOICE_SERVER_UPDATE: connect (or reconnect, when the call moved to another voice server). */
  onVoiceServer(
    voice: VoiceModule,
    server: { endpoint: string; token: string; userId: string; sessionId: string },
  ): void {
    const { endpoint, token, userId, sessionId } = server;
    if (!this.active) return;
    if (
      this.#connection !== null &&
      endpoint === this.#endpoint &&
      this.#status !== CallStatus.Connecting
    ) {
      // The same voice server again (the connection is up, or resuming): nothing to change.
      return;
    }
    this.#endpoint = endpoint;
    if (this.#joinTimer !== null) clearTimeout(this.#joinTimer);
    this.#joinTimer = null;
    this.#connection?.close();
    this.#setStatus(CallStatus.Connecting, CallError.None, 0);
    const connection = voice.open({
      endpoint,
      secure: this.#area.secure,
      serverId: this.#channelId,
      channelId: this.#channelId,
      userId,
      sessionId,
      token,
      logger: this.#area.logger,
      othersInCall: () => [...this.#participants.keys()].some((id) => id !== userId),
      events: {
        signaling: () => {
          if (this.#connection === connection)
            this.#setStatus(CallStatus.SignalingConnected, CallError.None, 0);
        },
        connected: () => {
          if (this.#connection === connection)
            this.#setStatus(CallStatus.Connected, CallError.None, 0);
        },
        reconnecting: (code) => {
          if (this.#connection === connection)
            this.#setStatus(CallStatus.Reconnecting, CallError.None, code);
        },
        resumed: () => {
          if (this.#connection === connection)
            this.#setStatus(CallStatus.Connected, CallError.None, 0);
        },
        closed: (error, detail, reason) => {
          if (this.#connection === connection) this.fail(error, detail, reason);
        },
        clients: () => undefined,
        speaking: (user, speaking) => {
          if (this.#connection === connection)
            this.#area.core.invoke(this.callbacks.speakingStatusChanged, user, speaking);
        },
        frame: (user, frame, info) => {
          if (this.#connection === connection) this.#onFrame(user, frame, info);
        },
      },
    });
    this.#connection = connection;
  }

  /** The call ended for a reason: its voice state is left and the status says why. */
  fail(error: CallError, detail: number, reason: string): void {
    if (!this.active) return;
    const words = `Call in lobby ${this.#channelId} ended: ${reason} (${Call.errorToString(error)}${detail === 0 ? '' : `, ${detail}`}).`;
    if (error === CallError.None) this.#area.logger.info(words);
    else this.#area.logger.warn(words);
    this.#teardown();
    this.#area.sendVoiceState(null, this.#selfMute, this.#selfDeaf);
    this.#setStatus(CallStatus.Disconnected, error, detail);
  }

  /** endCall: Disconnecting, op 4 with no channel, the connection closed, Disconnected. */
  end(): void {
    if (!this.active) return;
    this.#setStatus(CallStatus.Disconnecting, CallError.None, 0);
    this.#stopSpeaking();
    this.#teardown();
    this.#area.sendVoiceState(null, this.#selfMute, this.#selfDeaf);
    this.#setStatus(CallStatus.Disconnected, CallError.None, 0);
  }

  #teardown(): void {
    for (const timer of [this.#joinTimer, this.#pttTimer, this.#speakingTimer])
      if (timer !== null) clearTimeout(timer);
    this.#joinTimer = null;
    this.#pttTimer = null;
    this.#speakingTimer = null;
    this.#connection?.close();
    this.#connection = null;
    this.#codec?.close();
    this.#codec = null;
  }

  #setStatus(status: CallStatus, error: CallError, detail: number): void {
    if (status === this.#status && error === this.#error) return;
    this.#status = status;
    this.#error = error;
    this.#errorDetail = detail;
    this.#area.logger.verbose(`Call in lobby ${this.#channelId}: ${Call.statusToString(status)}`);
    this.#area.core.invoke(this.callbacks.statusChanged, status, error, detail);
  }

  /** Why a frame may not be sent now, or null. */
  #gate(): OpusSendResult | null {
    if (
      this.#connection === null ||
      (this.#status !== CallStatus.Connected && this.#status !== CallStatus.Reconnecting)
    ) {
      return 'notConnected';
    }
    if (this.#selfMute) return 'muted';
    if (this.#audioMode === AudioModeType.PTT && !this.#pttOpen) return 'pttInactive';
    return null;
  }

  #closePtt(): void {
    this.#pttOpen = false;
    if (this.#audioMode === AudioModeType.PTT) this.#stopSpeaking();
  }

  #armSpeakingIdle(): void {
    if (this.#speakingTimer !== null) clearTimeout(this.#speakingTimer);
    this.#speakingTimer = setTimeout(() => {
      this.#speakingTimer = null;
      this.#connection?.setSpeaking(false);
    }, SPEAKING_IDLE_MS);
  }

  #stopSpeaking(): void {
    if (this.#speakingTimer !== null) clearTimeout(this.#speakingTimer);
    this.#speakingTimer = null;
    this.#connection?.setSpeaking(false);
  }

  async #opus(): Promise<OpusCodec> {
    if (this.#codec === null)
      this.#codec = (await this.#area.voiceModule('Call.sendPcmFrame')).createOpusCodec();
    return this.#codec;
  }

  #onFrame(userId: string, frame: Uint8Array, info: OpusFrameInfo): void {
    if (this.#selfDeaf || this.#localMutes.has(userId)) return;
    this.#area.core.invoke(this.callbacks.opusFrameReceived, userId, frame, info);
    if (this.#audio === null) return;
    const audio = this.#audio;
    void this.#opus().then(
      (codec) => {
        let data: Int16Array;
        try {
          data = codec.decode(frame);
        } catch {
          this.#area.logger.verbose(`A frame of ${userId} is not Opus; not delivered.`);
          return;
        }
        const gain = ((this.#volumes.get(userId) ?? 100) / 100) * (this.#area.outputVolume / 100);
        const received: UserAudioReceived = {
          userId,
          data: gain === 1 ? data : scale(data, gain),
          samplesPerChannel: data.length / 2,
          sampleRate: 48000,
          channels: 2,
          shouldMute: false,
        };
        this.#area.core.invoke(audio.received, received);
      },
      (error: unknown) => {
        this.#area.logger.warn(`The Opus decoder could not load: ${String(error)}`);
      },
    );
  }
}

/** The client's voice operations (the `Voice` section of `Client`). */
export class VoiceArea {
  readonly core: ClientCore;
  /** Voice's own log (addVoiceLogCallback); every line also reaches the client's log. */
  readonly logger = new Logger();
  readonly callbacks: {
    deviceChange: DeviceChangeCallback | null;
    noAudioInput: NoAudioInputCallback | null;
    voiceParticipantChanged: VoiceParticipantChangedCallback | null;
    voiceSettingsUpdated: VoiceSettingsUpdatedCallback | null;
  } = {
    deviceChange: null,
    noAudioInput: null,
    voiceParticipantChanged: null,
    voiceSettingsUpdated: null,
  };
  readonly #calls = new Map<string, Call>();
  /** Who is in each lobby's call (lobbies the player is in), from VOICE_STATE_UPDATE. */
  readonly #lobbyVoice = new Map<string, Map<string, ParticipantState>>();
  #settings: VoiceSettingsInit = {
    selfMute: false,
    selfDeaf: false,
    inputVolume: 100,
    outputVolume: 100,
    audioMode: AudioModeType.VAD,
    pttKey: null,
  };
  #module: Promise<VoiceModule> | null = null;

  constructor(core: ClientCore) {
    this.core = core;
    this.logger.add((line, severity) => {
      core.logger.log(severity, line);
    }, LoggingSeverity.Verbose);
    core.on('VOICE_STATE_UPDATE', (data) => {
      this.#onVoiceState(data);
    });
    core.on('VOICE_SERVER_UPDATE', (data) => {
      this.#onVoiceServer(data);
    });
    core.on('READY', () => {
      // A new gateway session: the server forgot the old session's voice states.
      for (const call of this.#calls.values())
        call.fail(CallError.SignalingUnexpectedClose, 0, 'the gateway session was replaced');
      this.#lobbyVoice.clear();
    });
  }

  get secure(): boolean {
    return this.core.http.apiBase.startsWith('https:');
  }
  get inputVolume(): number {
    return this.#settings.inputVolume;
  }
  get outputVolume(): number {
    return this.#settings.outputVolume;
  }
  settingsInit(): VoiceSettingsInit {
    return { ...this.#settings };
  }

  /** The voice module, or a rejection saying why this build has none. */
  voiceModule(operation: string): Promise<VoiceModule> {
    const reason = this.core.platform.voiceUnavailable;
    if (reason !== null) return Promise.reject(new VoiceNotAvailableError(operation, reason));
    this.#module ??= this.core.platform.loadVoice();
    return this.#module;
  }

  /** Rejects with VoiceNotAvailableError when the build has no voice (the browser). */
  requireVoice(operation: string): void {
    const reason = this.core.platform.voiceUnavailable;
    if (reason !== null) throw new VoiceNotAvailableError(operation, reason);
  }

  async startCall(
    operation: string,
    lobbyId: string,
    audio: { received: UserAudioReceivedCallback; captured: UserAudioCapturedCallback } | null,
  ): Promise<Call> {
    this.requireVoice(operation);
    if (!isSnowflake(lobbyId))
      throw validationError(`${operation}: ${JSON.stringify(lobbyId)} is not a lobby id.`);
    if (
      audio !== null &&
      (typeof audio.received !== 'function' || typeof audio.captured !== 'function')
    ) {
      throw validationError(`${operation}: both audio callbacks are required.`);
    }
    this.core.requireReady(operation);
    if (!this.core.state.lobbies.has(lobbyId)) {
      throw validationError(
        `${operation}: the player is not a member of lobby ${lobbyId}; join it first (createOrJoinLobby).`,
      );
    }
    const existing = this.#calls.get(lobbyId);
    if (existing?.active === true) return existing;
    for (const [other, call] of this.#calls) {
      if (call.active) {
        throw validationError(
          `${operation}: the player is already in the call of lobby ${other}; endCall("${other}") first.`,
        );
      }
    }
    await this.voiceModule(operation);
    this.core.requireReady(operation);
    const call = new Call(this, lobbyId, audio);
    this.#calls.set(lobbyId, call);
    // The participants already known (from other members' voice states) are the call's from the start.
    for (const [userId, state] of this.#lobbyVoice.get(lobbyId) ?? [])
      call.onVoiceState({ userId, state, sessionId: null, self: false });
    call.join();
    return call;
  }

  endCall(lobbyId: string): void {
    const call = this.#calls.get(lobbyId);
    if (call === undefined) return;
    call.end();
    this.#calls.delete(lobbyId);
  }

  endCalls(): void {
    for (const lobbyId of [...this.#calls.keys()]) this.endCall(lobbyId);
  }

  getCall(lobbyId: string): Call | null {
    return this.#calls.get(lobbyId) ?? null;
  }

  getCalls(): Call[] {
    return [...this.#calls.values()];
  }

  /** op 4 for a lobby call (channel null: leave). */
  sendVoiceState(lobbyId: string | null, selfMute: boolean, selfDeaf: boolean): void {
    const sent = this.core.gateway.send(GATEWAY_VOICE_STATE_UPDATE, {
      guild_id: null,
      channel_id: lobbyId,
      self_mute: selfMute,
      self_deaf: selfDeaf,
      self_video: false,
    });
    if (!sent) this.logger.warn('The voice state could not be sent: the gateway is not connected.');
  }

  getVoiceSettings(): VoiceSettings {
    return new VoiceSettings(this.#settings);
  }

  /** Changes settings and tells the game (setVoiceSettingsUpdatedCallback) when anything changed. */
  settingsChanged(change: Partial<VoiceSettingsInit>): void {
    const next = { ...this.#settings, ...change };
    const changed = (Object.keys(next) as (keyof VoiceSettingsInit)[]).some(
      (k) => next[k] !== this.#settings[k],
    );
    if (!changed) return;
    this.#settings = next;
    this.core.invoke(this.callbacks.voiceSettingsUpdated, new VoiceSettings(next));
  }

  async setSelfMuteAll(mute: boolean): Promise<void> {
    this.settingsChanged({ selfMute: mute });
    for (const call of this.#calls.values()) await call.applySelf({ selfMute: mute });
  }

  async setSelfDeafAll(deaf: boolean): Promise<void> {
    this.settingsChanged({ selfDeaf: deaf });
    for (const call of this.#calls.values()) await call.applySelf({ selfDeaf: deaf });
  }

  setVolume(operation: string, which: 'inputVolume' | 'outputVolume', volume: number): void {
    const max = which === 'inputVolume' ? 100 : 200;
    if (!isVolume(volume, max))
      throw validationError(`${operation}: the volume must be a number from 0 to ${max}.`);
    this.settingsChanged({ [which]: volume });
  }

  /** An audio device operation: Node has none. */
  noDevice(operation: string, what: string): SdkError {
    const reason = this.core.platform.voiceUnavailable;
    if (reason !== null) return new VoiceNotAvailableError(operation, reason);
    this.logger.verbose(`${operation}: Node has no audio devices.`);
    return new AudioDeviceUnavailableError(operation, what);
  }

  addVoiceLogCallback(callback: LogCallback, minSeverity: LoggingSeverity): void {
    this.logger.add(callback, minSeverity);
  }

  #onVoiceState(data: unknown): void {
    if (typeof data !== 'object' || data === null) return;
    const d = data as Record<string, unknown>;
    if (d['guild_id'] !== null && d['guild_id'] !== undefined) return; // a guild's voice channel
    const userId = d['user_id'];
    const channelId = d['channel_id'];
    if (!isSnowflake(userId) || (channelId !== null && !isSnowflake(channelId))) return;
    const state: ParticipantState = {
      selfMute: d['self_mute'] === true,
      selfDeaf: d['self_deaf'] === true,
    };
    const sessionId = typeof d['session_id'] === 'string' ? d['session_id'] : null;
    const self = userId === this.core.state.currentUser?.id;
    // A user is in at most one lobby's call: out of every other.
    for (const [lobbyId, members] of this.#lobbyVoice) {
      if (lobbyId === channelId || !members.delete(userId)) continue;
      this.#calls.get(lobbyId)?.onVoiceState({ userId, state: null, sessionId: null, self });
      this.core.invoke(this.callbacks.voiceParticipantChanged, lobbyId, userId, false);
      if (members.size === 0) this.#lobbyVoice.delete(lobbyId);
    }
    if (channelId === null) {
      for (const call of this.#calls.values()) {
        call.onVoiceState({ userId, state: null, sessionId: null, self });
      }
      return;
    }
    if (!this.core.state.lobbies.has(channelId) && !this.#calls.has(channelId)) return;
    let members = this.#lobbyVoice.get(channelId);
    if (members === undefined) {
      members = new Map();
      this.#lobbyVoice.set(channelId, members);
    }
    const added = !members.has(userId);
    members.set(userId, state);
    this.#calls.get(channelId)?.onVoiceState({ userId, state, sessionId, self });
    if (added) this.core.invoke(this.callbacks.voiceParticipantChanged, channelId, userId, true);
  }

  #onVoiceServer(data: unknown): void {
    if (typeof data !== 'object' || data === null) return;
    const d = data as Record<string, unknown>;
    const { token, endpoint } = d;
    const channelId = d['channel_id'];
    if (d['guild_id'] !== null || !isSnowflake(channelId)) return;
    const call = this.#calls.get(channelId);
    if (call?.active !== true) return;
    if (
      typeof token !== 'string' ||
      token === '' ||
      typeof endpoint !== 'string' ||
      !/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(endpoint)
    ) {
      call.fail(
        CallError.SignalingConnectionFailed,
        0,
        'VOICE_SERVER_UPDATE carries no usable token or endpoint',
      );
      return;
    }
    this.logger.secret(token);
    const userId = this.core.state.currentUser?.id;
    const sessionId = call.sessionId ?? this.core.gateway.sessionId;
    if (userId === undefined || sessionId === null) {
      call.fail(CallError.SignalingConnectionFailed, 0, 'the gateway session is not known');
      return;
    }
    void this.voiceModule('startCall').then(
      (voice) => {
        call.onVoiceServer(voice, { endpoint, token, userId, sessionId });
      },
      (error: unknown) => {
        call.fail(CallError.VoiceConnectionFailed, 0, `voice could not load (${String(error)})`);
      },
    );
  }
}

function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value);
}

function isVolume(volume: unknown, max: number): volume is number {
  return typeof volume === 'number' && volume >= 0 && volume <= max;
}

/** A copy scaled by a gain, clamped to 16 bits. */
function scale(pcm: Int16Array, gain: number): Int16Array {
  if (gain === 1) return Int16Array.from(pcm);
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i += 1)
    out[i] = Math.max(-32768, Math.min(32767, Math.round((pcm[i] ?? 0) * gain)));
  return out;
}

/** Voice activity: the frame's RMS level against the threshold (automatic: anything not silent). */
function aboveThreshold(pcm: Int16Array, vad: VADThresholdSettings): boolean {
  let sum = 0;
  for (const sample of pcm) sum += sample * sample;
  const rms = Math.sqrt(sum / pcm.length);
  if (vad.automatic()) return rms > 0;
  const dbfs = rms === 0 ? -Infinity : 20 * Math.log10(rms / 32768);
  return dbfs >= vad.vadThreshold();
}
