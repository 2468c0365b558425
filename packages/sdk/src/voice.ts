/**
 * Voice: calls in lobbies and in the player's DMs and group DMs (docs/sdk.md, Voice). A `Call`
 * joins its call through the gateway (op 4 with the lobby's or the channel's id; the server
 * answers VOICE_STATE_UPDATE and
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
 * Here: `VoiceArea`, the client's voice operations; a call's life is callSession.ts, the game's
 * handle on it call.ts, its audio callAudio.ts, the values and callback types voiceValues.ts, who
 * is in each call voiceRoster.ts.
 *
 * @module
 */

import { AudioModeType, CallError, LoggingSeverity } from './enums.js';
import {
  AudioDeviceUnavailableError,
  type SdkError,
  validationError,
  VoiceNotAvailableError,
} from './errors.js';
import type { Call } from './call.js';
import type { AudioCallbacks } from './callAudio.js';
import { CallSession } from './callSession.js';
import type { ClientCore } from './core.js';
import { Logger, type LogCallback } from './log.js';
import { callInfoOf, provideLobbyCallInfo } from './lobbyCalls.js';
import {
  VoiceSettings,
  isSnowflake,
  isVolume,
  type DeviceChangeCallback,
  type NoAudioInputCallback,
  type VoiceParticipantChangedCallback,
  type VoiceSettingsInit,
  type VoiceSettingsUpdatedCallback,
} from './voiceValues.js';
import type { VoiceModule } from './voiceTransport.js';
import { lobbyVoiceServer } from './voiceEvents.js';
import { VoiceRoster } from './voiceRoster.js';

export { Call } from './call.js';
export { CALL_JOIN_TIMEOUT_MS } from './callSession.js';
export {
  AudioDevice,
  CallInfoHandle,
  MAX_OPUS_FRAME_BYTES,
  PCM_FRAME_SAMPLES,
  VADThresholdSettings,
  VoiceSettings,
  VoiceStateHandle,
  type CallCallbacks,
  type CallParticipantChangedCallback,
  type CallSpeakingStatusChangedCallback,
  type CallStatusChangedCallback,
  type CallVoiceStateChangedCallback,
  type DeviceChangeCallback,
  type NoAudioInputCallback,
  type OpusFrameReceivedCallback,
  MAX_VIDEO_FRAME_BYTES,
  type VideoFrameReceivedCallback,
  type VideoStreamsChangedCallback,
  type UserAudioCaptured,
  type UserAudioCapturedCallback,
  type UserAudioReceived,
  type UserAudioReceivedCallback,
  type VoiceParticipantChangedCallback,
  type VoiceSettingsInit,
  type VoiceSettingsUpdatedCallback,
} from './voiceValues.js';
export type {
  OpusFrameInfo,
  OpusSendResult,
  VideoFrameInfo,
  VideoSendResult,
  VideoStreamState,
  VideoStreamType,
  VoiceConnectionStats,
} from './voiceTransport.js';

/** The gateway's op 4, Voice State Update. */
const GATEWAY_VOICE_STATE_UPDATE = 4;

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
  readonly #calls = new Map<string, CallSession>();
  /** Who is in each call (of lobbies the player is in, and of its DMs), from VOICE_STATE_UPDATE. */
  readonly #roster: VoiceRoster;
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
    this.#roster = new VoiceRoster(core, this.#calls, (channelId, userId, joined) => {
      core.invoke(this.callbacks.voiceParticipantChanged, channelId, userId, joined);
    });
    provideLobbyCallInfo(core, (lobbyId) => callInfoOf(lobbyId, this.#roster.members(lobbyId)));
    core.on('VOICE_SERVER_UPDATE', (data) => {
      this.#onVoiceServer(data);
    });
    core.on('READY', () => {
      // A new gateway session: the server forgot the old session's voice states.
      for (const call of this.#calls.values())
        call.fail(CallError.SignalingUnexpectedClose, 0, 'the gateway session was replaced');
      this.#roster.clear();
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

  /**
   * Joins the call of a lobby the player is in, or of one of the player's DMs or group DMs
   * (starting it rings the other recipients).
   */
  async startCall(operation: string, lobbyId: string, audio: AudioCallbacks | null): Promise<Call> {
    this.requireVoice(operation);
    if (!isSnowflake(lobbyId))
      throw validationError(
        `${operation}: ${JSON.stringify(lobbyId)} is not a lobby or channel id.`,
      );
    if (
      audio !== null &&
      (typeof audio.received !== 'function' || typeof audio.captured !== 'function')
    ) {
      throw validationError(`${operation}: both audio callbacks are required.`);
    }
    this.core.requireReady(operation);
    if (!this.core.state.lobbies.has(lobbyId) && !this.#roster.isPrivateChannel(lobbyId)) {
      throw validationError(
        `${operation}: ${lobbyId} is neither a lobby the player is a member of (createOrJoinLobby) nor one of the player's DMs or group DMs.`,
      );
    }
    const existing = this.#calls.get(lobbyId);
    if (existing?.active === true) return existing.call;
    for (const [other, call] of this.#calls) {
      if (call.active) {
        throw validationError(
          `${operation}: the player is already in the call of lobby ${other}; endCall("${other}") first.`,
        );
      }
    }
    await this.voiceModule(operation);
    this.core.requireReady(operation);
    const call = new CallSession(this, lobbyId, audio);
    this.#calls.set(lobbyId, call);
    // The participants already known (from other members' voice states) are the call's from the start.
    for (const [userId, state] of this.#roster.members(lobbyId) ?? [])
      call.onVoiceState({ userId, state, sessionId: null, self: false });
    call.join();
    return call.call;
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
    return this.#calls.get(lobbyId)?.call ?? null;
  }

  getCalls(): Call[] {
    return [...this.#calls.values()].map((session) => session.call);
  }

  /** op 4 for a lobby's or a DM's call (channel null: leave). */
  sendVoiceState(
    lobbyId: string | null,
    self: { selfMute: boolean; selfDeaf: boolean; selfVideo: boolean },
  ): void {
    const sent = this.core.gateway.send(GATEWAY_VOICE_STATE_UPDATE, {
      guild_id: null,
      channel_id: lobbyId,
      self_mute: self.selfMute,
      self_deaf: self.selfDeaf,
      self_video: lobbyId !== null && self.selfVideo,
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

  #onVoiceServer(data: unknown): void {
    const server = lobbyVoiceServer(data);
    if (server === null) return;
    const call = this.#calls.get(server.channelId);
    if (call?.active !== true) return;
    if (!server.usable) {
      call.fail(
        CallError.SignalingConnectionFailed,
        0,
        'VOICE_SERVER_UPDATE carries no usable token or endpoint',
      );
      return;
    }
    const { token, endpoint } = server;
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
