/**
 * `Client`: the Social SDK's one object. Its operations carry the reference SDK's names in
 * camelCase (docs/sdk.md has the table), return promises instead of taking result callbacks, and
 * reject with `SdkError`. Events arrive through the `set…Callback` methods, one callback each.
 *
 * Each feature area lives in its own module and is reached through a section below.
 *
 * @module
 */
import {
  ClientError,
  ClientStatus,
  LoggingSeverity,
  type AuthorizationTokenType,
} from './enums.js';
import { validationError, VoiceNotAvailableError } from './errors.js';
import { Gateway } from './gateway.js';
import { Http } from './http.js';
import { Logger, type LogCallback } from './log.js';
import { resolvePlatform, type Platform } from './platform.js';
import { SocialState } from './state.js';
import { ClientCore } from './core.js';
import { SDK_VERSION } from './version.js';
import { AuthArea } from './auth.js';
import { UsersArea } from './users.js';
import { RelationshipsArea } from './relationships.js';
import { PresenceArea } from './presence.js';
import { MessagesArea } from './messages.js';
import { LobbiesArea } from './lobbies.js';
import { GuildsArea } from './guilds.js';
import { LaunchArea } from './launch.js';
import {
  VoiceArea,
  type AudioDevice,
  type Call,
  type DeviceChangeCallback,
  type NoAudioInputCallback,
  type UserAudioCapturedCallback,
  type UserAudioReceivedCallback,
  type VoiceParticipantChangedCallback,
  type VoiceSettings,
  type VoiceSettingsUpdatedCallback,
} from './voice.js';
import type { WireReady } from './wire.js';

export interface ClientOptions {
  /** The API base with its version. Default: `http://127.0.0.1:8080/api/v10` (`npm start`). */
  apiBase?: string;
  /** The web client's base, for deep links and invites. Default: the API's origin. */
  webBase?: string;
  /**
   * The redirect URI of `authorize()`. Default: in a browser, `callback.html` beside the page;
   * in Node, `http://127.0.0.1:<free port>/callback` (register `http://127.0.0.1/callback`).
   */
  redirectUri?: string;
  /** Replaces parts of the platform: the WebSocket, how URLs are opened, launch registration. */
  platform?: Partial<Platform>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

export type StatusChangedCallback = (
  status: ClientStatus,
  error: ClientError,
  errorDetail: number,
) => void;

export const DEFAULT_API_BASE = 'http://127.0.0.1:8080/api/v10';

export class Client {
  /** The reference SDK's `Client::GetVersionMajor/Minor/Patch`, as one string. */
  static readonly version = SDK_VERSION;

  protected readonly core: ClientCore;
  // The feature areas (one module each), reached through the sections below.
  protected readonly auth: AuthArea;
  protected readonly users: UsersArea;
  protected readonly relationships: RelationshipsArea;
  protected readonly presence: PresenceArea;
  protected readonly messages: MessagesArea;
  protected readonly lobbies: LobbiesArea;
  protected readonly guilds: GuildsArea;
  protected readonly launch: LaunchArea;
  protected readonly voice: VoiceArea;
  readonly #options: ClientOptions;
  #statusChanged: StatusChangedCallback | null = null;

  constructor(options: ClientOptions = {}) {
    this.#options = options;
    const apiBase = (options.apiBase ?? DEFAULT_API_BASE).replace(/\/+$/, '');
    const logger = new Logger();
    const platform = resolvePlatform(options.platform);
    const state = new SocialState();
    let core: ClientCore | null = null;
    const http = new Http({
      apiBase,
      logger,
      authorization: () => core?.authorization() ?? null,
      onRateLimitWait: (waiting) => {
        core?.gateway.setHttpWait(waiting);
      },
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    const gateway = new Gateway({
      http,
      logger,
      WebSocket: platform.WebSocket,
      token: () => core?.authorization() ?? null,
      onStatus: (status, error, detail) => {
        this.#onStatus(status, error, detail);
      },
      onDispatch: (type, data) => {
        core?.dispatch(type, data);
      },
      properties: { os: platform.name, browser: 'guildhall-social-sdk', device: SDK_VERSION },
    });
    core = new ClientCore({
      http,
      gateway,
      logger,
      state,
      platform,
      webBase: (options.webBase ?? new URL(apiBase).origin).replace(/\/+$/, ''),
    });
    this.core = core;
    this.auth = new AuthArea(core);
    this.users = new UsersArea(core);
    this.relationships = new RelationshipsArea(core);
    this.presence = new PresenceArea(core);
    this.messages = new MessagesArea(core);
    this.lobbies = new LobbiesArea(core);
    this.guilds = new GuildsArea(core);
    this.launch = new LaunchArea(core);
    this.voice = new VoiceArea(core);
    core.on('READY', (data) => {
      const ready = data as WireReady;
      state.clear();
      state.currentUser = ready.user;
      state.applicationId = ready.application?.id ?? null;
      state.cacheUser(ready.user);
    });
    core.on('USER_UPDATE', (data) => {
      const user = data as WireReady['user'];
      state.cacheUser(user);
      if (state.currentUser?.id === user.id) state.currentUser = { ...state.currentUser, ...user };
    });
  }

  /** The options the client was made with (redirect URI…), for the SDK's own modules. */
  protected get options(): ClientOptions {
    return this.#options;
  }

  // ── Connection and status ─────────────────────────────────────────────────────────────────

  /** Opens the gateway session with the token of `updateToken`; the status reaches Ready. */
  connect(): void {
    this.core.gateway.connect();
  }

  /** Closes the gateway session. */
  disconnect(): void {
    this.core.gateway.disconnect();
  }

  getStatus(): ClientStatus {
    return this.core.gateway.status;
  }

  /** Called on every status change, with why (`ClientError`) and a detail (a close code). */
  setStatusChangedCallback(callback: StatusChangedCallback | null): void {
    this.#statusChanged = callback;
  }

  /** The default application of the operations that take one (`Client::SetApplicationId`). */
  setApplicationId(applicationId: string): void {
    if (!/^\d{1,20}$/.test(applicationId)) {
      throw validationError(`setApplicationId: "${applicationId}" is not an application id.`);
    }
    this.core.applicationId = applicationId;
  }

  getApplicationId(): string | null {
    return this.core.applicationId ?? this.core.state.applicationId;
  }

  /**
   * Supplies the token the client uses (after getToken, a provisional login, or a refresh).
   * A connected client keeps its session and uses the new token from its next (re)connect.
   */
  updateToken(tokenType: AuthorizationTokenType, token: string): Promise<void> {
    if (typeof token !== 'string' || token.trim() === '') {
      return Promise.reject(validationError('updateToken: the token is empty.'));
    }
    this.core.token = { type: tokenType, value: token };
    this.core.logger.secret(token);
    this.core.logger.info('Token updated.');
    return Promise.resolve();
  }

  /** Sets the timeout of each HTTP request, in ms (default 30000). */
  setHttpRequestTimeout(httpTimeoutInMilliseconds: number): void {
    if (!Number.isInteger(httpTimeoutInMilliseconds) || httpTimeoutInMilliseconds <= 0) {
      throw validationError(
        'setHttpRequestTimeout: the timeout must be a positive whole number of ms.',
      );
    }
    this.core.http.timeoutMs = httpTimeoutInMilliseconds;
  }

  /** Adds a consumer of the SDK's log lines at `minSeverity` and above. Tokens never appear. */
  addLogCallback(callback: LogCallback, minSeverity: LoggingSeverity = LoggingSeverity.Info): void {
    this.core.logger.add(callback, minSeverity);
  }

  #onStatus(status: ClientStatus, error: ClientError, detail: number): void {
    this.core.logger.info(
      `Status: ${statusName(status)}${error === ClientError.None ? '' : ` (${errorName(error)}, ${detail})`}`,
    );
    this.core.invoke(this.#statusChanged, status, error, detail);
  }

  // ── Auth (auth.ts) ────────────────────────────────────────────────────────────────────────

  // ── Users (users.ts) ──────────────────────────────────────────────────────────────────────

  // ── Relationships (relationships.ts) ──────────────────────────────────────────────────────

  // ── Presence and activities (presence.ts) ─────────────────────────────────────────────────

  // ── Messages (messages.ts) ────────────────────────────────────────────────────────────────

  // ── Lobbies (lobbies.ts) ──────────────────────────────────────────────────────────────────

  // ── Guilds (guilds.ts) ────────────────────────────────────────────────────────────────────

  // ── Launch and platform links (launch.ts) ─────────────────────────────────────────────────

  // ── Voice (voice.ts) ──────────────────────────────────────────────────────────────────────

  // Guildhall has no voice yet (its own issue): each operation below rejects with
  // VoiceNotAvailableError (ErrorType.Disabled) and makes no request; the callbacks register.

  /** `Client::GetDefaultAudioDeviceId`. */
  static getDefaultAudioDeviceId(): Promise<string> {
    return Promise.reject(new VoiceNotAvailableError('getDefaultAudioDeviceId'));
  }

  /** The local voice settings (mute, deafen, volumes, voice mode, push-to-talk key). */
  getVoiceSettings(): Promise<VoiceSettings> {
    return this.voice.unavailable('getVoiceSettings');
  }

  /** Called with the new VoiceSettings whenever they change. */
  setVoiceSettingsUpdatedCallback(callback: VoiceSettingsUpdatedCallback | null): void {
    this.voice.callbacks.voiceSettingsUpdated = callback;
  }

  /** Joins (or starts) the voice call of a lobby. */
  startCall(lobbyId: string): Promise<Call> {
    return this.voice.unavailable('startCall', lobbyId);
  }

  /** startCall, with the raw audio received from each participant and captured locally. */
  startCallWithAudioCallbacks(
    lobbyId: string,
    receivedCb: UserAudioReceivedCallback,
    capturedCb: UserAudioCapturedCallback,
  ): Promise<Call> {
    return this.voice.unavailable('startCallWithAudioCallbacks', lobbyId, receivedCb, capturedCb);
  }

  endCall(channelId: string): Promise<void> {
    return this.voice.unavailable('endCall', channelId);
  }

  endCalls(): Promise<void> {
    return this.voice.unavailable('endCalls');
  }

  getCall(channelId: string): Promise<Call | null> {
    return this.voice.unavailable('getCall', channelId);
  }

  getCalls(): Promise<Call[]> {
    return this.voice.unavailable('getCalls');
  }

  getCurrentInputDevice(): Promise<AudioDevice> {
    return this.voice.unavailable('getCurrentInputDevice');
  }

  getCurrentOutputDevice(): Promise<AudioDevice> {
    return this.voice.unavailable('getCurrentOutputDevice');
  }

  getInputDevices(): Promise<AudioDevice[]> {
    return this.voice.unavailable('getInputDevices');
  }

  getOutputDevices(): Promise<AudioDevice[]> {
    return this.voice.unavailable('getOutputDevices');
  }

  setInputDevice(deviceId: string): Promise<void> {
    return this.voice.unavailable('setInputDevice', deviceId);
  }

  setOutputDevice(deviceId: string): Promise<void> {
    return this.voice.unavailable('setOutputDevice', deviceId);
  }

  /** Called with the input and output devices whenever the set of devices changes. */
  setDeviceChangeCallback(callback: DeviceChangeCallback | null): void {
    this.voice.callbacks.deviceChange = callback;
  }

  /** Input volume, 0–100. */
  getInputVolume(): Promise<number> {
    return this.voice.unavailable('getInputVolume');
  }

  setInputVolume(volume: number): Promise<void> {
    return this.voice.unavailable('setInputVolume', volume);
  }

  /** Output volume, 0–200. */
  getOutputVolume(): Promise<number> {
    return this.voice.unavailable('getOutputVolume');
  }

  setOutputVolume(volume: number): Promise<void> {
    return this.voice.unavailable('setOutputVolume', volume);
  }

  getSelfMuteAll(): Promise<boolean> {
    return this.voice.unavailable('getSelfMuteAll');
  }

  setSelfMuteAll(mute: boolean): Promise<void> {
    return this.voice.unavailable('setSelfMuteAll', mute);
  }

  getSelfDeafAll(): Promise<boolean> {
    return this.voice.unavailable('getSelfDeafAll');
  }

  setSelfDeafAll(deaf: boolean): Promise<void> {
    return this.voice.unavailable('setSelfDeafAll', deaf);
  }

  /** true: the game manages audio routing and the audio session, not the SDK. */
  setEngineManagedAudioSession(isEngineManaged: boolean): Promise<void> {
    return this.voice.unavailable('setEngineManagedAudioSession', isEngineManaged);
  }

  /**
   * @deprecated On mobile routing is automatic unless setEngineManagedAudioSession(true) is
   * used.
   */
  setSpeakerMode(speakerMode: boolean): Promise<boolean> {
    return this.voice.unavailable('setSpeakerMode', speakerMode);
  }

  /** Shows the OS's audio route picker (mobile). */
  showAudioRoutePicker(): Promise<boolean> {
    return this.voice.unavailable('showAudioRoutePicker');
  }

  setAutomaticGainControl(on: boolean): Promise<void> {
    return this.voice.unavailable('setAutomaticGainControl', on);
  }

  setEchoCancellation(on: boolean): Promise<void> {
    return this.voice.unavailable('setEchoCancellation', on);
  }

  setNoiseSuppression(on: boolean): Promise<void> {
    return this.voice.unavailable('setNoiseSuppression', on);
  }

  setOpusHardwareCoding(encode: boolean, decode: boolean): Promise<void> {
    return this.voice.unavailable('setOpusHardwareCoding', encode, decode);
  }

  /** The level (dBFS) under which the input counts as silent for setNoAudioInputCallback. */
  setNoAudioInputThreshold(dBFSThreshold: number): Promise<void> {
    return this.voice.unavailable('setNoAudioInputThreshold', dBFSThreshold);
  }

  /** Called when the microphone starts or stops picking anything up. */
  setNoAudioInputCallback(callback: NoAudioInputCallback | null): void {
    this.voice.callbacks.noAudioInput = callback;
  }

  /** Called when someone joins or leaves a lobby's call. */
  setVoiceParticipantChangedCallback(callback: VoiceParticipantChangedCallback | null): void {
    this.voice.callbacks.voiceParticipantChanged = callback;
  }

  /** Diagnostics: an echo-cancellation dump. */
  setAecDump(on: boolean): Promise<void> {
    return this.voice.unavailable('setAecDump', on);
  }

  /** Diagnostics: where voice writes its log files, from a severity up. */
  setVoiceLogDir(path: string, minSeverity: LoggingSeverity): Promise<void> {
    return this.voice.unavailable('setVoiceLogDir', path, minSeverity);
  }

  /** Adds a consumer of voice's log lines (there are none until voice exists). */
  addVoiceLogCallback(
    callback: LogCallback,
    minSeverity: LoggingSeverity = LoggingSeverity.Info,
  ): void {
    this.voice.callbacks.voiceLog.push({ callback, minSeverity });
  }
}

const STATUS_NAMES = Object.keys(ClientStatus);
const ERROR_NAMES = Object.keys(ClientError);

/** `Client::StatusToString`. */
export function statusName(status: ClientStatus): string {
  return (
    STATUS_NAMES.find((name) => ClientStatus[name as keyof typeof ClientStatus] === status) ??
    'Unknown'
  );
}

/** `Client::ErrorToString`. */
export function errorName(error: ClientError): string {
  return (
    ERROR_NAMES.find((name) => ClientError[name as keyof typeof ClientError] === error) ?? 'Unknown'
  );
}
