/**
 * Account linking and tokens: authorize (PKCE), getToken, refresh and revoke, provisional
 * accounts (get, merge, unmerge), child tokens, the device flow, authorize requests.
 *
 * Every token operation calls the server as a public client (no secret): the application must be
 * a public client (`public_client: true`, docs/oauth.md), or the token endpoint answers
 * `invalid_client`. A game with a backend keeps its secret there and does these exchanges itself.
 *
 * @module
 */
import {
  AuthenticationCodeChallengeMethod,
  AuthorizationTokenType,
  ErrorType,
  EXTERNAL_AUTH_TYPE_WIRE,
  IntegrationType,
  type AuthenticationExternalAuthType,
} from './enums.js';
import { SdkError, validationError } from './errors.js';
import type { ClientCore } from './core.js';

/** `Client::GetDefaultCommunicationScopes`: friends, presence, DMs, lobbies, voice. */
export const DEFAULT_COMMUNICATION_SCOPES = 'openid sdk.social_layer';
/** `Client::GetDefaultPresenceScopes`: friends, presence and rich presence only. */
export const DEFAULT_PRESENCE_SCOPES = 'openid sdk.social_layer_presence';

/** The server's limits (docs/oauth.md): state and nonce lengths, the external token's size. */
const MAX_STATE_LENGTH = 1024;
const MAX_NONCE_LENGTH = 512;
const MAX_SCOPES_LENGTH = 2048;
const MAX_EXTERNAL_TOKEN_LENGTH = 10_240;
/** RFC 6749 §3.3 scope-token characters. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
/** RFC 7636 §4.1: 43–128 unreserved characters. */
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge: base64url of a SHA-256, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 3986 §3.1 scheme. */
const URI_SCHEME = /^[a-z][a-z0-9+.-]{0,63}$/;
const SNOWFLAKE = /^\d{1,20}$/;
/** The device grant's own `grant_type` (RFC 8628). */
const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628 §3.5: each `slow_down` adds five seconds to the interval. */
const SLOW_DOWN_STEP_MS = 5000;

function checkApplicationId(operation: string, applicationId: string): void {
  if (typeof applicationId !== 'string' || !SNOWFLAKE.test(applicationId)) {
    throw validationError(
      `${operation}: ${JSON.stringify(applicationId)} is not an application id (a snowflake string, such as "1234567890123456789").`,
    );
  }
}

function checkNonEmpty(operation: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw validationError(`${operation}: ${name} is empty.`);
  }
  return value;
}

function checkScopes(operation: string, scopes: unknown): string {
  const value = checkNonEmpty(operation, 'scopes', scopes).trim();
  if (value.length > MAX_SCOPES_LENGTH) {
    throw validationError(`${operation}: scopes are longer than ${MAX_SCOPES_LENGTH} characters.`);
  }
  for (const scope of value.split(/ +/)) {
    if (!SCOPE_TOKEN.test(scope)) {
      throw validationError(
        `${operation}: "${scope}" is not a scope; separate scopes with spaces, as getDefaultCommunicationScopes() does.`,
      );
    }
  }
  return value;
}

function checkExternalAuth(
  operation: string,
  externalAuthType: AuthenticationExternalAuthType,
  externalAuthToken: string,
): string {
  const wire = (EXTERNAL_AUTH_TYPE_WIRE as Partial<Record<number, string>>)[externalAuthType];
  if (wire === undefined) {
    throw validationError(
      `${operation}: ${String(externalAuthType)} is not an AuthenticationExternalAuthType.`,
    );
  }
  checkNonEmpty(operation, 'the external auth token', externalAuthToken);
  if (externalAuthToken.length > MAX_EXTERNAL_TOKEN_LENGTH) {
    throw validationError(
      `${operation}: the external auth token is longer than ${MAX_EXTERNAL_TOKEN_LENGTH} characters.`,
    );
  }
  return wire;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomToken(bytes = 32): string {
  return base64url(globalThis.crypto.getRandomValues(new Uint8Array(bytes)));
}

async function s256(verifier: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(verifier),
  );
  return base64url(new Uint8Array(digest));
}

/** `AuthorizationCodeChallenge`: the PKCE challenge sent with `authorize()`. */
export class AuthorizationCodeChallenge {
  #method: AuthenticationCodeChallengeMethod = AuthenticationCodeChallengeMethod.S256;
  #challenge = '';

  method(): AuthenticationCodeChallengeMethod {
    return this.#method;
  }

  /** S256 is the only method (the server refuses `plain`). */
  setMethod(method: AuthenticationCodeChallengeMethod): void {
    if ((method as number) !== AuthenticationCodeChallengeMethod.S256) {
      throw validationError(
        'AuthorizationCodeChallenge.setMethod: only AuthenticationCodeChallengeMethod.S256 is supported.',
      );
    }
    this.#method = method;
  }

  challenge(): string {
    return this.#challenge;
  }

  /** The base64url SHA-256 of the verifier (43 characters); createAuthorizationCodeVerifier makes one. */
  setChallenge(challenge: string): void {
    if (typeof challenge !== 'string' || !S256_CHALLENGE.test(challenge)) {
      throw validationError(
        'AuthorizationCodeChallenge.setChallenge: an S256 challenge is 43 base64url characters; use createAuthorizationCodeVerifier().',
      );
    }
    this.#challenge = challenge;
  }
}

/** `AuthorizationCodeVerifier`: a PKCE verifier and its challenge (createAuthorizationCodeVerifier). */
export class AuthorizationCodeVerifier {
  readonly #verifier: string;
  readonly #challenge: AuthorizationCodeChallenge;

  /** Made by `Client.createAuthorizationCodeVerifier()`. */
  constructor(verifier: string, challenge: AuthorizationCodeChallenge) {
    this.#verifier = verifier;
    this.#challenge = challenge;
  }

  /** The challenge to put in `AuthorizationArgs.setCodeChallenge`. */
  challenge(): AuthorizationCodeChallenge {
    return this.#challenge;
  }

  /** The secret to give `getToken`; never send it anywhere else. */
  verifier(): string {
    return this.#verifier;
  }
}

/** `AuthorizationArgs`: what `authorize()` asks the person for. `scopes` is required. */
export class AuthorizationArgs {
  #clientId: string | null = null;
  #scopes = '';
  #state: string | null = null;
  #nonce: string | null = null;
  #codeChallenge: AuthorizationCodeChallenge | null = null;
  #integrationType: IntegrationType | null = null;
  #customSchemeParam: string | null = null;

  /** The application; null: the client's (`setApplicationId`). */
  clientId(): string | null {
    return this.#clientId;
  }
  setClientId(clientId: string | null): void {
    if (clientId !== null) checkApplicationId('AuthorizationArgs.setClientId', clientId);
    this.#clientId = clientId;
  }

  scopes(): string {
    return this.#scopes;
  }
  /** Space-separated scopes, such as getDefaultCommunicationScopes(). */
  setScopes(scopes: string): void {
    this.#scopes = checkScopes('AuthorizationArgs.setScopes', scopes);
  }

  /** The OAuth2 state; null (recommended): the SDK makes a random one. */
  state(): string | null {
    return this.#state;
  }
  setState(state: string | null): void {
    if (state !== null) {
      checkNonEmpty('AuthorizationArgs.setState', 'state', state);
      if (state.length > MAX_STATE_LENGTH) {
        throw validationError(
          `AuthorizationArgs.setState: state is longer than ${MAX_STATE_LENGTH} characters.`,
        );
      }
    }
    this.#state = state;
  }

  /** The OpenID Connect nonce, returned in the ID token. */
  nonce(): string | null {
    return this.#nonce;
  }
  setNonce(nonce: string | null): void {
    if (nonce !== null) {
      checkNonEmpty('AuthorizationArgs.setNonce', 'nonce', nonce);
      if (nonce.length > MAX_NONCE_LENGTH) {
        throw validationError(
          `AuthorizationArgs.setNonce: nonce is longer than ${MAX_NONCE_LENGTH} characters.`,
        );
      }
    }
    this.#nonce = nonce;
  }

  /** The PKCE challenge; needed for `getToken` (createAuthorizationCodeVerifier().challenge()). */
  codeChallenge(): AuthorizationCodeChallenge | null {
    return this.#codeChallenge;
  }
  setCodeChallenge(codeChallenge: AuthorizationCodeChallenge | null): void {
    if (codeChallenge !== null) {
      if (!(codeChallenge instanceof AuthorizationCodeChallenge)) {
        throw validationError(
          'AuthorizationArgs.setCodeChallenge: pass createAuthorizationCodeVerifier().challenge().',
        );
      }
      if (codeChallenge.challenge() === '') {
        throw validationError(
          'AuthorizationArgs.setCodeChallenge: the challenge is empty; use createAuthorizationCodeVerifier().challenge().',
        );
      }
    }
    this.#codeChallenge = codeChallenge;
  }

  /** The install context (GuildInstall or UserInstall); null: none named. */
  integrationType(): IntegrationType | null {
    return this.#integrationType;
  }
  setIntegrationType(integrationType: IntegrationType | null): void {
    const value = integrationType as number | null;
    if (
      value !== null &&
      value !== IntegrationType.GuildInstall &&
      value !== IntegrationType.UserInstall
    ) {
      throw validationError(
        'AuthorizationArgs.setIntegrationType: use IntegrationType.GuildInstall or IntegrationType.UserInstall.',
      );
    }
    this.#integrationType = integrationType;
  }

  /**
   * A mobile app's URI scheme: the redirect becomes `<scheme>:/authorize/callback`. Node and
   * browsers receive the redirect on a loopback listener or a page instead, so `authorize()`
   * refuses it there.
   */
  customSchemeParam(): string | null {
    return this.#customSchemeParam;
  }
  setCustomSchemeParam(customSchemeParam: string | null): void {
    if (customSchemeParam !== null && !URI_SCHEME.test(customSchemeParam)) {
      throw validationError(
        'AuthorizationArgs.setCustomSchemeParam: a URI scheme is a lowercase letter followed by letters, digits, "+", "." or "-" (at most 64).',
      );
    }
    this.#customSchemeParam = customSchemeParam;
  }
}

/** `DeviceAuthorizationArgs`: what `getTokenFromDevice()` asks for. `scopes` is required. */
export class DeviceAuthorizationArgs {
  #clientId: string | null = null;
  #scopes = '';

  clientId(): string | null {
    return this.#clientId;
  }
  setClientId(clientId: string | null): void {
    if (clientId !== null) checkApplicationId('DeviceAuthorizationArgs.setClientId', clientId);
    this.#clientId = clientId;
  }
  scopes(): string {
    return this.#scopes;
  }
  setScopes(scopes: string): void {
    this.#scopes = checkScopes('DeviceAuthorizationArgs.setScopes', scopes);
  }
}

/** What `authorize()` resolves with: the code and the redirect URI `getToken` must repeat. */
export interface AuthorizeResult {
  readonly code: string;
  readonly redirectUri: string;
}

/** What the token operations resolve with (the reference's token exchange callback). */
export interface TokenExchange {
  readonly accessToken: string;
  /** Empty when the grant gives none (child tokens, provisional tokens other than OIDC). */
  readonly refreshToken: string;
  readonly tokenType: AuthorizationTokenType;
  /** Seconds the access token lives. */
  readonly expiresIn: number;
  /** The granted scopes, space-separated (expanded from the meta-scopes). */
  readonly scopes: string;
  /** The OpenID ID token, when `openid` was granted. */
  readonly idToken: string | null;
}

/** The code grant's arguments (getToken's, in the reference's order). */
interface CodeGrantInput {
  applicationId: string;
  code: string;
  codeVerifier: string;
  redirectUri: string;
}

/** `Client::RegisterAuthorizeRequestCallback`'s callback. */
export type AuthorizeRequestCallback = () => void;

interface WireTokenResponse {
  access_token: string;
  token_type?: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
}

interface WireDeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

function abortedError(operation: string): SdkError {
  return new SdkError(`${operation} was aborted.`, { type: ErrorType.Aborted });
}

/** Waits `ms`, or rejects as soon as the signal aborts. */
function wait(ms: number, signal: AbortSignal, operation: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortedError(operation));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(operation));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class AuthArea {
  protected readonly core: ClientCore;
  /** The redirect URI of ClientOptions.redirectUri, or null for the platform's default. */
  readonly #redirectUri: string | null;
  #authorizing: AbortController | null = null;
  #deviceFlow: AbortController | null = null;
  #authorizeRequest: AuthorizeRequestCallback | null = null;

  constructor(core: ClientCore, redirectUri: string | null = null) {
    this.core = core;
    this.#redirectUri = redirectUri;
    // The person asked, from the web client, to link their account in this game (the server
    // sends it to this application's SDK sessions of theirs only; every session gets it anew).
    core.on('AUTHORIZE_REQUEST', (data) => {
      const applicationId = (data as { application_id?: unknown } | null)?.application_id;
      if (
        this.core.state.applicationId !== null &&
        applicationId !== this.core.state.applicationId
      ) {
        return;
      }
      this.core.logger.info('Authorize request: the person asked to link their account.');
      this.core.invoke(this.#authorizeRequest);
    });
  }

  getDefaultCommunicationScopes(): string {
    return DEFAULT_COMMUNICATION_SCOPES;
  }

  getDefaultPresenceScopes(): string {
    return DEFAULT_PRESENCE_SCOPES;
  }

  /** A new PKCE verifier (32 random bytes) and its S256 challenge, made with WebCrypto. */
  async createAuthorizationCodeVerifier(): Promise<AuthorizationCodeVerifier> {
    const verifier = randomToken();
    this.core.logger.secret(verifier);
    const challenge = new AuthorizationCodeChallenge();
    challenge.setChallenge(await s256(verifier));
    return new AuthorizationCodeVerifier(verifier, challenge);
  }

  /**
   * Runs the person's part of OAuth2 in their browser: the authorize page, then the redirect
   * back (a loopback listener in Node, a popup and `completeAuthorize()` in a browser).
   */
  async authorize(args: AuthorizationArgs): Promise<AuthorizeResult> {
    const op = 'authorize';
    if (!(args instanceof AuthorizationArgs)) {
      throw validationError(`${op}: pass an AuthorizationArgs.`);
    }
    if (args.scopes() === '') {
      throw validationError(
        `${op}: AuthorizationArgs has no scopes; call setScopes(client.getDefaultCommunicationScopes()).`,
      );
    }
    if (args.customSchemeParam() !== null) {
      throw validationError(
        `${op}: customSchemeParam is for mobile apps; on ${this.core.platform.name} the redirect comes back to ${this.core.platform.name === 'node' ? 'a loopback listener' : 'your callback page'}. Leave it unset.`,
      );
    }
    if (this.#authorizing !== null) {
      throw validationError(
        `${op}: an authorization is already under way; abortAuthorize() ends it.`,
      );
    }
    const clientId = args.clientId() ?? this.core.requireApplicationId(op);
    const state = args.state() ?? randomToken(16);
    const controller = new AbortController();
    this.#authorizing = controller;
    const query = (redirectUri: string) => {
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        scope: args.scopes(),
        state,
        redirect_uri: redirectUri,
      });
      const challenge = args.codeChallenge();
      if (challenge !== null) {
        params.set('code_challenge', challenge.challenge());
        params.set('code_challenge_method', 'S256');
      }
      const nonce = args.nonce();
      if (nonce !== null) params.set('nonce', nonce);
      const integrationType = args.integrationType();
      if (integrationType !== null) params.set('integration_type', String(integrationType));
      return `${this.core.webBase}/oauth2/authorize?${params.toString()}`;
    };
    try {
      const result = await this.core.platform.authorizeRedirect({
        authorizeUrl: query,
        state,
        redirectUri: this.#redirectUri,
        open: (url) => this.core.platform.openUrl(url, this.core.logger),
        signal: controller.signal,
        logger: this.core.logger,
      });
      this.core.logger.secret(result.code);
      this.core.logger.info('Authorized: exchange the code with getToken().');
      return result;
    } finally {
      if (this.#authorizing === controller) this.#authorizing = null;
    }
  }

  /** Ends a pending `authorize()`: it rejects with ErrorType.Aborted. */
  abortAuthorize(): void {
    const pending = this.#authorizing;
    this.#authorizing = null;
    pending?.abort();
  }

  /** Exchanges `authorize()`'s code (PKCE, public client) for tokens. */
  getToken(input: CodeGrantInput): Promise<TokenExchange> {
    return this.#codeGrant('getToken', input);
  }

  /**
   * Like `getToken`, and merges the player's provisional account (its external identity) into
   * the account that authorized, in the same request.
   */
  async getTokenFromProvisionalMerge(
    input: CodeGrantInput,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<TokenExchange> {
    const op = 'getTokenFromProvisionalMerge';
    return await this.#codeGrant(op, input, {
      external_auth_type: checkExternalAuth(op, externalAuthType, externalAuthToken),
      external_auth_token: externalAuthToken,
    });
  }

  async #codeGrant(
    op: string,
    input: CodeGrantInput,
    extra: Record<string, string> = {},
  ): Promise<TokenExchange> {
    checkApplicationId(op, input.applicationId);
    checkNonEmpty(op, 'the code', input.code);
    if (typeof input.codeVerifier !== 'string' || !PKCE_VERIFIER.test(input.codeVerifier)) {
      throw validationError(
        `${op}: the code verifier must be the verifier() of createAuthorizationCodeVerifier() (43–128 characters).`,
      );
    }
    checkNonEmpty(op, 'the redirect URI', input.redirectUri);
    return this.#token(op, {
      grant_type: 'authorization_code',
      client_id: input.applicationId,
      code: input.code,
      code_verifier: input.codeVerifier,
      redirect_uri: input.redirectUri,
      ...extra,
    });
  }

  /** A new access token (and refresh token: the old one stops working) from a refresh token. */
  async refreshToken(applicationId: string, refreshToken: string): Promise<TokenExchange> {
    const op = 'refreshToken';
    checkApplicationId(op, applicationId);
    checkNonEmpty(op, 'the refresh token', refreshToken);
    return await this.#token(op, {
      grant_type: 'refresh_token',
      client_id: applicationId,
      refresh_token: refreshToken,
    });
  }

  /**
   * Revokes a token (access or refresh) and with it the whole authorization: every token of it
   * stops working, connected clients are disconnected (close 4004), a later refresh fails.
   */
  async revokeToken(applicationId: string, token: string): Promise<void> {
    const op = 'revokeToken';
    checkApplicationId(op, applicationId);
    checkNonEmpty(op, 'the token', token);
    this.core.logger.secret(token);
    await this.core.http.request('POST', '/oauth2/token/revoke', {
      auth: 'none',
      form: { client_id: applicationId, token },
    });
    this.core.logger.info('Token revoked: the authorization has ended.');
  }

  /**
   * A provisional account's token from an external identity (public client form of
   * `POST /partner-sdk/token`). OIDC and DiscordBotIssuedAccessToken are verified by this server;
   * the console and store providers are refused (530000).
   */
  async getProvisionalToken(
    applicationId: string,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<TokenExchange> {
    const op = 'getProvisionalToken';
    checkApplicationId(op, applicationId);
    const wire = checkExternalAuth(op, externalAuthType, externalAuthToken);
    this.core.logger.secret(externalAuthToken);
    const body = await this.core.http.request<WireTokenResponse>('POST', '/partner-sdk/token', {
      auth: 'none',
      json: {
        client_id: applicationId,
        external_auth_type: wire,
        external_auth_token: externalAuthToken,
      },
    });
    return this.#exchange(body);
  }

  /**
   * Moves the external identity out of the full account it was merged into, back to a new
   * provisional account; the full account's authorization of the app ends.
   */
  async unmergeIntoProvisionalAccount(
    applicationId: string,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<void> {
    const op = 'unmergeIntoProvisionalAccount';
    checkApplicationId(op, applicationId);
    const wire = checkExternalAuth(op, externalAuthType, externalAuthToken);
    this.core.logger.secret(externalAuthToken);
    await this.core.http.request('POST', '/partner-sdk/provisional-accounts/unmerge', {
      auth: 'none',
      json: {
        client_id: applicationId,
        external_auth_type: wire,
        external_auth_token: externalAuthToken,
      },
    });
    this.core.logger.info('Unmerged: the identity is a provisional account again.');
  }

  /**
   * A child application's token for the same person (publisher-level linking, approved by an
   * operator), from the parent's access token; no refresh token, the parent's expiry.
   */
  async exchangeChildToken(
    parentApplicationToken: string,
    childApplicationId: string,
  ): Promise<TokenExchange> {
    const op = 'exchangeChildToken';
    checkNonEmpty(op, 'the parent application token', parentApplicationToken);
    checkApplicationId(op, childApplicationId);
    this.core.logger.secret(parentApplicationToken);
    const body = await this.core.http.request<WireTokenResponse>(
      'POST',
      '/partner-sdk/child-token',
      {
        auth: 'none',
        json: {
          parent_access_token: parentApplicationToken,
          child_application_id: childApplicationId,
        },
      },
    );
    return this.#exchange(body);
  }

  /**
   * The device flow (RFC 8628), for an app whose owner enabled it (`device_flow_enabled`): the
   * activation page is opened (platform.openUrl) and its code logged; the SDK polls until the
   * person approves or denies, the code expires, or `abortGetTokenFromDevice()`.
   */
  getTokenFromDevice(args: DeviceAuthorizationArgs): Promise<TokenExchange> {
    return this.#deviceGrant('getTokenFromDevice', args);
  }

  /** `getTokenFromDevice`, merging the player's provisional account into the approving one. */
  async getTokenFromDeviceProvisionalMerge(
    args: DeviceAuthorizationArgs,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<TokenExchange> {
    const op = 'getTokenFromDeviceProvisionalMerge';
    const wire = checkExternalAuth(op, externalAuthType, externalAuthToken);
    this.core.logger.secret(externalAuthToken);
    return await this.#deviceGrant(op, args, {
      external_auth_type: wire,
      external_auth_token: externalAuthToken,
    });
  }

  /** Ends a pending `getTokenFromDevice()`: it rejects with ErrorType.Aborted. */
  abortGetTokenFromDevice(): void {
    const pending = this.#deviceFlow;
    this.#deviceFlow = null;
    pending?.abort();
  }

  async #deviceGrant(
    op: string,
    args: DeviceAuthorizationArgs,
    extra: Record<string, string> = {},
  ): Promise<TokenExchange> {
    if (!(args instanceof DeviceAuthorizationArgs)) {
      throw validationError(`${op}: pass a DeviceAuthorizationArgs.`);
    }
    if (args.scopes() === '') {
      throw validationError(`${op}: DeviceAuthorizationArgs has no scopes; call setScopes().`);
    }
    if (this.#deviceFlow !== null) {
      throw validationError(
        `${op}: a device authorization is already under way; abortGetTokenFromDevice() ends it.`,
      );
    }
    const clientId = args.clientId() ?? this.core.requireApplicationId(op);
    const controller = new AbortController();
    this.#deviceFlow = controller;
    try {
      const device = await this.#oauth<WireDeviceAuthorization>(op, '/oauth2/device/authorize', {
        client_id: clientId,
        scope: args.scopes(),
      });
      this.core.logger.secret(device.device_code);
      this.core.logger.info(
        `To link your account, open ${device.verification_uri} and enter the code ${device.user_code}.`,
      );
      await this.core.platform.openUrl(
        device.verification_uri_complete ?? device.verification_uri,
        this.core.logger,
      );
      let intervalMs = (device.interval ?? 5) * 1000;
      const deadline = Date.now() + device.expires_in * 1000;
      for (;;) {
        await wait(intervalMs, controller.signal, op);
        if (Date.now() > deadline) {
          throw new SdkError(
            `${op}: the device code expired before it was approved; start again.`,
            {
              type: ErrorType.AuthorizationFailed,
              oauthError: 'expired_token',
            },
          );
        }
        try {
          return await this.#token(op, {
            grant_type: DEVICE_CODE_GRANT,
            client_id: clientId,
            device_code: device.device_code,
            ...extra,
          });
        } catch (error) {
          if (controller.signal.aborted) throw abortedError(op);
          if (!(error instanceof SdkError)) throw error;
          if (error.oauthError === 'authorization_pending') continue;
          if (error.oauthError === 'slow_down') {
            intervalMs += SLOW_DOWN_STEP_MS;
            continue;
          }
          throw error;
        }
      }
    } finally {
      if (this.#deviceFlow === controller) this.#deviceFlow = null;
    }
  }

  /**
   * Registers the callback of an authorize request that starts inside the platform client (the
   * Connected Game flow: the person, in the web client, calls
   * `POST /users/@me/applications/{id}/authorize-request`; the gateway brings AUTHORIZE_REQUEST to
   * the game's connected SDK sessions of that person): call `authorize()` from it.
   */
  registerAuthorizeRequestCallback(callback: AuthorizeRequestCallback): void {
    if (typeof callback !== 'function') {
      throw validationError('registerAuthorizeRequestCallback: pass a function.');
    }
    this.#authorizeRequest = callback;
  }

  removeAuthorizeRequestCallback(): void {
    if (this.#authorizeRequest !== null)
      this.core.logger.verbose('Authorize request callback removed.');
    this.#authorizeRequest = null;
  }

  /** Whether the client holds a token (`updateToken`). */
  isAuthenticated(): boolean {
    return this.core.token !== null;
  }

  async #token(op: string, form: Record<string, string>): Promise<TokenExchange> {
    return this.#exchange(await this.#oauth<WireTokenResponse>(op, '/oauth2/token', form));
  }

  /** A form POST to an OAuth2 endpoint as a public client; its refusals say what to do. */
  async #oauth<T>(op: string, path: string, form: Record<string, string>): Promise<T> {
    try {
      return await this.core.http.request<T>('POST', path, { auth: 'none', form });
    } catch (error) {
      if (error instanceof SdkError && error.oauthError === 'invalid_client') {
        throw new SdkError(
          `${op}: the server refused the application as a public client (invalid_client). Turn on public_client for the app (PATCH /applications/{id}), or run this exchange on your backend with the client secret.`,
          {
            type: ErrorType.AuthorizationFailed,
            status: error.status,
            oauthError: 'invalid_client',
            cause: error,
          },
        );
      }
      if (error instanceof SdkError && error.oauthError === 'invalid_grant') {
        throw new SdkError(
          `${error.message}. The grant is no longer valid (used, expired, revoked or unlinked): authorize again.`,
          {
            type: ErrorType.AuthorizationFailed,
            status: error.status,
            oauthError: 'invalid_grant',
            cause: error,
          },
        );
      }
      throw error;
    }
  }

  #exchange(body: WireTokenResponse): TokenExchange {
    this.core.logger.secret(body.access_token);
    this.core.logger.secret(body.refresh_token);
    this.core.logger.secret(body.id_token);
    return Object.freeze({
      accessToken: body.access_token,
      refreshToken: body.refresh_token ?? '',
      tokenType: AuthorizationTokenType.Bearer,
      expiresIn: body.expires_in ?? 0,
      scopes: body.scope ?? '',
      idToken: body.id_token ?? null,
    });
  }
}
