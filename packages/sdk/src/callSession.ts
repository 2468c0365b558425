/**
 * A call's life, as the SDK drives it (VoiceArea): op 4 sent and the wait for a voice server,
 * the participants from VOICE_STATE_UPDATE, the voice connection VOICE_SERVER_UPDATE opens, and
 * its status from Joining to Disconnected. The game holds the `Call` (call.ts) it makes.
 *
 * @module
 */
import { Call } from './call.js';
import { CallAudio, type AudioCallbacks, type CallAudioHost } from './callAudio.js';
import { CallVideo } from './callVideo.js';
import { CallError, CallStatus, enumToString } from './enums.js';
import {
  noCallbacks,
  type CallCallbacks,
  type ParticipantState,
  type VoiceSettingsInit,
} from './voiceValues.js';
import type { VoiceConnection, VoiceModule } from './voiceTransport.js';

/** What the player's voice state says of them (op 4). */
export interface SelfState {
  selfMute: boolean;
  selfDeaf: boolean;
  selfVideo: boolean;
}

/** How long a call waits for VOICE_SERVER_UPDATE after op 4 before it fails with JoinTimeout. */
export const CALL_JOIN_TIMEOUT_MS = 10_000;

/** What a call asks of the client's voice (VoiceArea). */
export interface CallHost extends CallAudioHost {
  readonly secure: boolean;
  settingsInit(): VoiceSettingsInit;
  /** op 4 for a lobby's or a DM's call (channel null: leave). */
  sendVoiceState(lobbyId: string | null, self: SelfState): void;
}

export class CallSession {
  /** The game's handle on this call. */
  readonly call: Call;
  readonly channelId: string;
  readonly callbacks: CallCallbacks = noCallbacks();
  readonly participants = new Map<string, ParticipantState>();
  readonly #host: CallHost;
  readonly #audio: CallAudio;
  readonly #video: CallVideo;
  #status: CallStatus = CallStatus.Disconnected;
  #error: CallError = CallError.None;
  #errorDetail = 0;
  #selfMute: boolean;
  #selfDeaf: boolean;
  #connection: VoiceConnection | null = null;
  #joinTimer: ReturnType<typeof setTimeout> | null = null;
  #sessionId: string | null = null;
  /** The voice server's endpoint the connection dialed. */
  #endpoint: string | null = null;

  constructor(host: CallHost, channelId: string, pcm: AudioCallbacks | null) {
    this.#host = host;
    this.channelId = channelId;
    const settings = host.settingsInit();
    this.#selfMute = settings.selfMute;
    this.#selfDeaf = settings.selfDeaf;
    this.#audio = new CallAudio(host, this, { audioMode: settings.audioMode, pcm });
    this.#video = new CallVideo(host.core, this, () => {
      if (this.active) this.#host.sendVoiceState(this.channelId, this.#self);
    });
    this.call = new Call(this, this.#audio, this.#video);
  }

  get status(): CallStatus {
    return this.#status;
  }
  get error(): { error: CallError; errorDetail: number } {
    return { error: this.#error, errorDetail: this.#errorDetail };
  }
  get selfMute(): boolean {
    return this.#selfMute;
  }
  get selfDeaf(): boolean {
    return this.#selfDeaf;
  }
  get connection(): VoiceConnection | null {
    return this.#connection;
  }
  get mediaUp(): boolean {
    return this.#status === CallStatus.Connected || this.#status === CallStatus.Reconnecting;
  }
  get active(): boolean {
    return this.#status !== CallStatus.Disconnected && this.#status !== CallStatus.Disconnecting;
  }
  get sessionId(): string | null {
    return this.#sessionId;
  }

  /** What op 4 says of the player now. */
  get #self(): SelfState {
    return { selfMute: this.#selfMute, selfDeaf: this.#selfDeaf, selfVideo: this.#video.camera };
  }

  /** Mute or deafen changed: kept, sent with op 4 while the call is on, and announced. */
  applySelf(change: { selfMute?: boolean; selfDeaf?: boolean }): Promise<void> {
    const mute = change.selfMute ?? this.#selfMute;
    const deaf = change.selfDeaf ?? this.#selfDeaf;
    if (mute === this.#selfMute && deaf === this.#selfDeaf) return Promise.resolve();
    this.#selfMute = mute;
    this.#selfDeaf = deaf;
    if (mute) this.#audio.stopSpeaking();
    if (this.active) this.#host.sendVoiceState(this.channelId, this.#self);
    return Promise.resolve();
  }

  /** op 4 sent: Joining, and the wait for VOICE_SERVER_UPDATE. */
  join(): void {
    this.#setStatus(CallStatus.Joining, CallError.None, 0);
    this.#host.sendVoiceState(this.channelId, this.#self);
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
    const known = this.participants.get(userId);
    if (state === null) {
      if (known === undefined) return;
      this.participants.delete(userId);
      this.#video.forget(userId);
      this.#audio.forget(userId);
      this.#host.core.invoke(this.callbacks.participantChanged, userId, false);
      this.#connection?.participantsChanged();
      if (self && this.active && this.#status !== CallStatus.Joining) {
        // The server took the player out of the call (left the lobby, or was removed).
        this.fail(CallError.None, 0, "the server ended the player's voice state");
      }
      return;
    }
    this.participants.set(userId, state);
    if (known === undefined)
      this.#host.core.invoke(this.callbacks.participantChanged, userId, true);
    else if (
      known.selfMute !== state.selfMute ||
      known.selfDeaf !== state.selfDeaf ||
      known.selfVideo !== state.selfVideo
    ) {
      this.#host.core.invoke(this.callbacks.voiceStateChanged, userId);
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
      secure: this.#host.secure,
      serverId: this.channelId,
      channelId: this.channelId,
      userId,
      sessionId,
      token,
      logger: this.#host.logger,
      othersInCall: () => [...this.participants.keys()].some((id) => id !== userId),
      events: this.#events(() => this.#connection === connection),
    });
    this.#connection = connection;
    this.#video.attach(connection);
  }

  /** The call ended for a reason: its voice state is left and the status says why. */
  fail(error: CallError, detail: number, reason: string): void {
    if (!this.active) return;
    const words = `Call in lobby ${this.channelId} ended: ${reason} (${enumToString(CallError, error)}${detail === 0 ? '' : `, ${detail}`}).`;
    if (error === CallError.None) this.#host.logger.info(words);
    else this.#host.logger.warn(words);
    this.#teardown();
    this.#host.sendVoiceState(null, this.#self);
    this.#setStatus(CallStatus.Disconnected, error, detail);
  }

  /** endCall: Disconnecting, op 4 with no channel, the connection closed, Disconnected. */
  end(): void {
    if (!this.active) return;
    this.#setStatus(CallStatus.Disconnecting, CallError.None, 0);
    this.#audio.stopSpeaking();
    this.#teardown();
    this.#host.sendVoiceState(null, this.#self);
    this.#setStatus(CallStatus.Disconnected, CallError.None, 0);
  }

  /** What the connection reports, while it is still this call's (`current`). */
  #events(current: () => boolean): Parameters<VoiceModule['open']>[0]['events'] {
    const status = (next: CallStatus, detail = 0) => {
      if (current()) this.#setStatus(next, CallError.None, detail);
    };
    return {
      signaling: () => {
        status(CallStatus.SignalingConnected);
      },
      connected: () => {
        status(CallStatus.Connected);
      },
      reconnecting: (code) => {
        status(CallStatus.Reconnecting, code);
      },
      resumed: () => {
        status(CallStatus.Connected);
      },
      closed: (error, detail, reason) => {
        if (current()) this.fail(error, detail, reason);
      },
      clients: () => undefined,
      speaking: (user, speaking) => {
        if (current()) this.#host.core.invoke(this.callbacks.speakingStatusChanged, user, speaking);
      },
      frame: (user, frame, info) => {
        if (current()) this.#audio.onFrame(user, frame, info);
      },
      videoStreams: (user, streams) => {
        if (current()) this.#video.onStreams(user, streams);
      },
      videoFrame: (user, frame, info) => {
        if (current()) this.#video.onFrame(user, frame, info);
      },
    };
  }

  #teardown(): void {
    if (this.#joinTimer !== null) clearTimeout(this.#joinTimer);
    this.#joinTimer = null;
    this.#connection?.close();
    this.#connection = null;
    this.#video.close();
    this.#audio.close();
  }

  #setStatus(status: CallStatus, error: CallError, detail: number): void {
    if (status === this.#status && error === this.#error) return;
    this.#status = status;
    this.#error = error;
    this.#errorDetail = detail;
    this.#host.logger.verbose(
      `Call in lobby ${this.channelId}: ${enumToString(CallStatus, status)}`,
    );
    this.#host.core.invoke(this.callbacks.statusChanged, status, error, detail);
  }
}
