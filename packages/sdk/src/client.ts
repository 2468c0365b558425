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
  type AuthenticationExternalAuthType,
  type AuthorizationTokenType,
} from './enums.js';
import { validationError } from './errors.js';
import { Gateway } from './gateway.js';
import { Http } from './http.js';
import { Logger, type LogCallback } from './log.js';
import { resolvePlatform, type Platform } from './platform.js';
import { SocialState } from './state.js';
import { ClientCore } from './core.js';
import { SDK_VERSION } from './version.js';
import {
  AuthArea,
  type AuthorizationArgs,
  type AuthorizationCodeVerifier,
  type AuthorizeRequestCallback,
  type AuthorizeResult,
  type DeviceAuthorizationArgs,
  type TokenExchange,
} from './auth.js';
import { UsersArea } from './users.js';
import { RelationshipsArea } from './relationships.js';
import { PresenceArea } from './presence.js';
import { MessagesArea } from './messages.js';
import { LobbiesArea } from './lobbies.js';
import { GuildsArea } from './guilds.js';
import { LaunchArea } from './launch.js';
import { VoiceArea } from './voice.js';
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
    this.auth = new AuthArea(core, options.redirectUri ?? null);
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

  /** `"openid sdk.social_layer"`: friends, presence, DMs, lobbies, voice. */
  getDefaultCommunicationScopes(): string {
    return this.auth.getDefaultCommunicationScopes();
  }

  /** `"openid sdk.social_layer_presence"`: friends and presence only. */
  getDefaultPresenceScopes(): string {
    return this.auth.getDefaultPresenceScopes();
  }

  /** A PKCE verifier and its S256 challenge (WebCrypto): the challenge goes in AuthorizationArgs. */
  createAuthorizationCodeVerifier(): Promise<AuthorizationCodeVerifier> {
    return this.auth.createAuthorizationCodeVerifier();
  }

  /**
   * Asks the person to authorize the game in their browser (Node: a loopback listener and
   * `platform.openUrl`; browser: a popup and the callback page's `completeAuthorize()`).
   * Resolves with the code and the redirect URI to pass to `getToken`.
   */
  authorize(args: AuthorizationArgs): Promise<AuthorizeResult> {
    return this.auth.authorize(args);
  }

  /** Ends a pending `authorize()` (it rejects with ErrorType.Aborted). */
  abortAuthorize(): void {
    this.auth.abortAuthorize();
  }

  /** Exchanges an authorize code for tokens (public client, PKCE) at POST /oauth2/token. */
  getToken(
    applicationId: string,
    code: string,
    codeVerifier: string,
    redirectUri: string,
  ): Promise<TokenExchange> {
    return this.auth.getToken({ applicationId, code, codeVerifier, redirectUri });
  }

  /** `getToken` that also merges the player's provisional account into the authorizing one. */
  getTokenFromProvisionalMerge(
    applicationId: string,
    code: string,
    codeVerifier: string,
    redirectUri: string,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<TokenExchange> {
    return this.auth.getTokenFromProvisionalMerge(
      { applicationId, code, codeVerifier, redirectUri },
      externalAuthType,
      externalAuthToken,
    );
  }

  /** The device flow (RFC 8628), for apps that enabled it: the person approves on another device. */
  getTokenFromDevice(args: DeviceAuthorizationArgs): Promise<TokenExchange> {
    return this.auth.getTokenFromDevice(args);
  }

  /** The device flow, merging the player's provisional account into the approving one. */
  getTokenFromDeviceProvisionalMerge(
    args: DeviceAuthorizationArgs,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<TokenExchange> {
    return this.auth.getTokenFromDeviceProvisionalMerge(args, externalAuthType, externalAuthToken);
  }

  /** Ends a pending `getTokenFromDevice()` (it rejects with ErrorType.Aborted). */
  abortGetTokenFromDevice(): void {
    this.auth.abortGetTokenFromDevice();
  }

  /** New tokens from a refresh token; the old refresh token stops working. */
  refreshToken(applicationId: string, refreshToken: string): Promise<TokenExchange> {
    return this.auth.refreshToken(applicationId, refreshToken);
  }

  /** Revokes the token's whole authorization (unlinking); connected clients are disconnected. */
  revokeToken(applicationId: string, token: string): Promise<void> {
    return this.auth.revokeToken(applicationId, token);
  }

  /** A provisional account's token from an external identity (POST /partner-sdk/token). */
  getProvisionalToken(
    applicationId: string,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<TokenExchange> {
    return this.auth.getProvisionalToken(applicationId, externalAuthType, externalAuthToken);
  }

  /** Unlinks the external identity from its full account into a new provisional account. */
  unmergeIntoProvisionalAccount(
    applicationId: string,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<void> {
    return this.auth.unmergeIntoProvisionalAccount(
      applicationId,
      externalAuthType,
      externalAuthToken,
    );
  }

  /** A child application's token from the parent's (publisher-level linking). */
  exchangeChildToken(
    parentApplicationToken: string,
    childApplicationId: string,
  ): Promise<TokenExchange> {
    return this.auth.exchangeChildToken(parentApplicationToken, childApplicationId);
  }

  /**
   * Registers the callback of authorize requests started inside the platform client (the person
   * asks from the web client; the connected client receives AUTHORIZE_REQUEST): call authorize().
   */
  registerAuthorizeRequestCallback(callback: AuthorizeRequestCallback): void {
    this.auth.registerAuthorizeRequestCallback(callback);
  }

  removeAuthorizeRequestCallback(): void {
    this.auth.removeAuthorizeRequestCallback();
  }

  /** Whether the client holds a token (given with `updateToken`). */
  isAuthenticated(): boolean {
    return this.auth.isAuthenticated();
  }

  // ── Users (users.ts) ──────────────────────────────────────────────────────────────────────

  // ── Relationships (relationships.ts) ──────────────────────────────────────────────────────

  // ── Presence and activities (presence.ts) ─────────────────────────────────────────────────

  // ── Messages (messages.ts) ────────────────────────────────────────────────────────────────

  // ── Lobbies (lobbies.ts) ──────────────────────────────────────────────────────────────────

  // ── Guilds (guilds.ts) ────────────────────────────────────────────────────────────────────

  // ── Launch and platform links (launch.ts) ─────────────────────────────────────────────────

  /**
   * Registers the command that starts the game for its `platform-<applicationId>:` links (Node
   * on Linux: an XDG desktop entry); false where the platform cannot, with a log line.
   */
  registerLaunchCommand(applicationId: string, command: string): Promise<boolean> {
    return this.launch.registerLaunchCommand(applicationId, command);
  }

  /** Registers a store application (a Steam app id) as the game's launcher. */
  registerLaunchStoreApplication(
    applicationId: string,
    storeApplicationId: string,
  ): Promise<boolean> {
    return this.launch.registerLaunchStoreApplication(applicationId, storeApplicationId);
  }

  /** Opens the web client's connected games settings (`platform.openUrl`). */
  openConnectedGamesSettingsInPlatform(): Promise<void> {
    return this.launch.openConnectedGamesSettingsInPlatform();
  }

  // ── Voice (voice.ts) ──────────────────────────────────────────────────────────────────────
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
