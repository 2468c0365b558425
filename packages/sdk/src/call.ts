/**
 * `Call`, the game's handle on a lobby's (or a DM's) voice call: getters read the call's state (its life in
 * callSession.ts), setters act at once, and its audio goes through callAudio.ts.
 *
 * @module
 */
import { type AudioModeType, CallError, CallStatus, enumToString } from './enums.js';
import type { CallAudio } from './callAudio.js';
import type { CallVideo, VideoStartResult } from './callVideo.js';
import {
  VoiceStateHandle,
  noMediaYet,
  type CallCallbacks,
  type CallParticipantChangedCallback,
  type CallSpeakingStatusChangedCallback,
  type CallStatusChangedCallback,
  type CallVoiceStateChangedCallback,
  type OpusFrameReceivedCallback,
  type ParticipantState,
  type VADThresholdSettings,
  type VideoFrameReceivedCallback,
  type VideoStreamsChangedCallback,
} from './voiceValues.js';
import type {
  OpusSendResult,
  VideoSendResult,
  VideoStreamState,
  VideoStreamType,
  VoiceConnection,
  VoiceConnectionStats,
} from './voiceTransport.js';

/** What a `Call` reads of its call's life (callSession.ts). */
export interface CallState {
  readonly channelId: string;
  readonly callbacks: CallCallbacks;
  readonly participants: ReadonlyMap<string, ParticipantState>;
  readonly status: CallStatus;
  readonly error: { error: CallError; errorDetail: number };
  readonly selfMute: boolean;
  readonly selfDeaf: boolean;
  readonly connection: VoiceConnection | null;
  applySelf(change: { selfMute?: boolean; selfDeaf?: boolean }): Promise<void>;
}

/**
 * `Call`: the player's voice call in a lobby, a DM or a group DM (`Client.startCall`). Its getters read the call's
 * state; its setters act at once (self-mute and deafen are sent to the server with op 4).
 */
export class Call {
  readonly #state: CallState;
  readonly #audio: CallAudio;
  readonly #video: CallVideo;

  /** Made by `Client.startCall`; a game does not construct calls. */
  constructor(state: CallState, audio: CallAudio, video: CallVideo) {
    this.#state = state;
    this.#audio = audio;
    this.#video = video;
  }

  /** The callbacks the setters below set. */
  get callbacks(): CallCallbacks {
    return this.#state.callbacks;
  }

  /** `Call::StatusToString`. */
  static statusToString(status: CallStatus): string {
    return enumToString(CallStatus, status);
  }
  /** `Call::ErrorToString`. */
  static errorToString(error: CallError): string {
    return enumToString(CallError, error);
  }

  /** The call's channel: the lobby's id, or the DM's or group DM's. */
  getChannelId(): string {
    return this.#state.channelId;
  }
  /** The voice server's `server_id` of the call: the lobby's id, or the DM's channel id. */
  getGuildId(): Promise<string> {
    return Promise.resolve(this.#state.channelId);
  }
  getStatus(): Promise<CallStatus> {
    return Promise.resolve(this.#state.status);
  }
  /** Why the call ended (`CallError.None` while it runs), and a detail (a close code). */
  getError(): { error: CallError; errorDetail: number } {
    return this.#state.error;
  }
  getAudioMode(): Promise<AudioModeType> {
    return Promise.resolve(this.#audio.audioMode);
  }
  /** VAD sends whatever is sent (PCM under the VAD threshold aside); PTT only while `setPTTActive(true)`. */
  setAudioMode(audioMode: AudioModeType): Promise<void> {
    return this.#audio.setAudioMode(audioMode);
  }
  /** The users in the call (the player too, once the server has them in it). */
  getParticipants(): Promise<string[]> {
    return Promise.resolve([...this.#state.participants.keys()]);
  }
  getVoiceStateHandle(userId: string): Promise<VoiceStateHandle | null> {
    const state = this.#state.participants.get(userId);
    return Promise.resolve(state === undefined ? null : new VoiceStateHandle(state));
  }
  /** Whether the player muted a participant for themselves (their audio is not delivered). */
  getLocalMute(userId: string): Promise<boolean> {
    return Promise.resolve(this.#audio.isLocallyMuted(userId));
  }
  setLocalMute(userId: string, mute: boolean): Promise<void> {
    return this.#audio.setLocalMute(userId, mute);
  }
  /** A participant's volume, 0–200 (100: unchanged), applied to their PCM. */
  getParticipantVolume(userId: string): Promise<number> {
    return Promise.resolve(this.#audio.volumeOf(userId));
  }
  setParticipantVolume(userId: string, volume: number): Promise<void> {
    return this.#audio.setParticipantVolume(userId, volume);
  }
  getPTTActive(): Promise<boolean> {
    return Promise.resolve(this.#audio.pttActive);
  }
  /**
   * Push-to-talk: true while the key is held. In PTT mode frames are sent while it is held and
   * for `getPTTReleaseDelay()` ms after it is released.
   */
  setPTTActive(active: boolean): Promise<void> {
    return this.#audio.setPTTActive(active);
  }
  getPTTReleaseDelay(): Promise<number> {
    return Promise.resolve(this.#audio.pttReleaseDelay);
  }
  /** Milliseconds push-to-talk stays open after release (0–2000; default 20). */
  setPTTReleaseDelay(releaseDelayMs: number): Promise<void> {
    return this.#audio.setPTTReleaseDelay(releaseDelayMs);
  }
  getSelfMute(): Promise<boolean> {
    return Promise.resolve(this.#state.selfMute);
  }
  /** Self-mute: nothing is sent, and the server (op 4 `self_mute`) tells the others. */
  setSelfMute(mute: boolean): Promise<void> {
    return this.#state.applySelf({ selfMute: mute });
  }
  getSelfDeaf(): Promise<boolean> {
    return Promise.resolve(this.#state.selfDeaf);
  }
  /** Self-deafen: received audio is no longer delivered, and the server stops relaying it (op 4 `self_deaf`). */
  setSelfDeaf(deaf: boolean): Promise<void> {
    return this.#state.applySelf({ selfDeaf: deaf });
  }
  getVADThreshold(): Promise<VADThresholdSettings> {
    return Promise.resolve(this.#audio.vad);
  }
  /**
   * The level (dBFS, −100 to 0) under which `sendPcmFrame` sends nothing in VAD mode; automatic
   * sends every frame that is not digital silence. Opus frames (`sendOpusFrame`) are not measured.
   */
  setVADThreshold(automatic: boolean, threshold: number): Promise<void> {
    return this.#audio.setVADThreshold(automatic, threshold);
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
    return this.#audio.sendOpusFrame(frame);
  }

  /**
   * Node: sends 20 ms of 16-bit PCM (48 kHz stereo interleaved: 1920 samples), encoded to Opus
   * here, after the input volume and the captured-audio callback of startCallWithAudioCallbacks.
   * In VAD mode a frame under the VAD threshold is not sent (`silent`).
   */
  sendPcmFrame(pcm: Int16Array): Promise<OpusSendResult | 'silent'> {
    return this.#audio.sendPcmFrame(pcm);
  }

  // ── Node's video (Guildhall: the reference SDK's calls carry audio only) ──────────────────

  /**
   * Node: starts sending a stream, the camera (`video`, the default) or a shared screen
   * (`screen`): the others hear of it (op 12, and for the camera the voice state's `self_video`
   * in DM calls) and its frames can be sent. `ok`; or `notConnected` (not Connected yet), or
   * `noVideoCodec` (the voice server agreed on no codec this SDK sends: it sends VP8).
   */
  startVideo(stream: VideoStreamType = 'video'): VideoStartResult {
    return this.#video.set(stream, true);
  }
  /** Node: stops sending a stream (`startVideo`'s results). */
  stopVideo(stream: VideoStreamType = 'video'): VideoStartResult {
    return this.#video.set(stream, false);
  }

  /**
   * Node: sends one encoded VP8 frame (a key frame now and then: there is no way to ask for one)
   * of a started stream, at most MAX_VIDEO_FRAME_BYTES, DAVE- then transport-encrypted, cut into
   * as many RTP packets as it needs. Pace the frames yourself. Says what became of it.
   */
  sendVideoFrame(frame: Uint8Array, stream: VideoStreamType = 'video'): VideoSendResult {
    return this.#video.send(frame, stream);
  }

  /** Node: a participant's video streams, as they last said (empty before they did). */
  getVideoStreams(userId: string): readonly VideoStreamState[] {
    return this.#video.streamsOf(userId);
  }

  /**
   * Node: whether the player receives a participant's video (op 15 asks the voice server not to
   * send it; true by default).
   */
  setVideoWanted(userId: string, wanted: boolean): void {
    this.#video.setWanted(userId, wanted);
  }

  /** Node: called with each participant's whole video frame, decrypted, as it was sent. */
  setVideoFrameReceivedCallback(callback: VideoFrameReceivedCallback | null): void {
    this.callbacks.videoFrameReceived = callback;
  }
  /** Node: called when a participant starts or stops one of its streams. */
  setVideoStreamsChangedCallback(callback: VideoStreamsChangedCallback | null): void {
    this.callbacks.videoStreamsChanged = callback;
  }

  /** Node: the call's media counters and the DAVE epoch's privacy code. */
  getStats(): VoiceConnectionStats {
    return this.#state.connection?.stats() ?? { ...noMediaYet(), privacyCode: '' };
  }
}
