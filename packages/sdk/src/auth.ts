/**
 * Account linking and tokens: authorize (PKCE), getToken, refresh and revoke, provisional
 * accounts (get, merge, unmerge), child tokens, the device flow, authorize requests.
 *
 * Every token operation calls the server as a public client (no secret): the application must be
 * a public client (`public_client: true`, docs/oauth.md), or the token endpoint answers
 * `invalid_client`. A game with a backend keeps its secret there and does these exchanges itself.
 *
 * Here: `AuthArea`, the client's auth operations; their arguments and checks are authArgs.ts, the
 * browser and device flows authFlows.ts, the token endpoint's requests authTokens.ts.
 *
 * @module
 */
import type { AuthenticationExternalAuthType } from './enums.js';
import { validationError } from './errors.js';
import type { ClientCore } from './core.js';
import {
  AuthorizationCodeChallenge,
  AuthorizationCodeVerifier,
  type AuthorizationArgs,
  type DeviceAuthorizationArgs,
  checkApplicationId,
  checkExternalAuth,
  checkNonEmpty,
  codeGrantForm,
  type CodeGrantInput,
  randomToken,
  s256,
} from './authArgs.js';
import { AuthorizeFlow, DeviceFlow, type AuthorizeResult } from './authFlows.js';
import {
  exchangeOf,
  tokenGrant,
  type TokenExchange,
  type WireTokenResponse,
} from './authTokens.js';

export {
  AuthorizationArgs,
  AuthorizationCodeChallenge,
  AuthorizationCodeVerifier,
  DeviceAuthorizationArgs,
} from './authArgs.js';
export type { AuthorizeResult } from './authFlows.js';
export type { TokenExchange } from './authTokens.js';

/** `Client::GetDefaultCommunicationScopes`: friends, presence, DMs, lobbies, voice. */
export const DEFAULT_COMMUNICATION_SCOPES = 'openid sdk.social_layer';
/** `Client::GetDefaultPresenceScopes`: friends, presence and rich presence only. */
export const DEFAULT_PRESENCE_SCOPES = 'openid sdk.social_layer_presence';

/** `Client::RegisterAuthorizeRequestCallback`'s callback. */
export type AuthorizeRequestCallback = () => void;

export class AuthArea {
  protected readonly core: ClientCore;
  readonly #authorize: AuthorizeFlow;
  readonly #device: DeviceFlow;
  #authorizeRequest: AuthorizeRequestCallback | null = null;

  constructor(core: ClientCore, redirectUri: string | null = null) {
    this.core = core;
    this.#authorize = new AuthorizeFlow(core, redirectUri);
    this.#device = new DeviceFlow(core);
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
    return this.#authorize.run(args);
  }

  /** Ends a pending `authorize()`: it rejects with ErrorType.Aborted. */
  abortAuthorize(): void {
    this.#authorize.abort();
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
    return tokenGrant(this.core, op, { ...codeGrantForm(op, input), ...extra });
  }

  /** A new access token (and refresh token: the old one stops working) from a refresh token. */
  async refreshToken(applicationId: string, refreshToken: string): Promise<TokenExchange> {
    const op = 'refreshToken';
    checkApplicationId(op, applicationId);
    checkNonEmpty(op, 'the refresh token', refreshToken);
    return await tokenGrant(this.core, op, {
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
    return exchangeOf(this.core, body);
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
    return exchangeOf(this.core, body);
  }

  /**
   * The device flow (RFC 8628), for an app whose owner enabled it (`device_flow_enabled`): the
   * activation page is opened (platform.openUrl) and its code logged; the SDK polls until the
   * person approves or denies, the code expires, or `abortGetTokenFromDevice()`.
   */
  getTokenFromDevice(args: DeviceAuthorizationArgs): Promise<TokenExchange> {
    return this.#device.run('getTokenFromDevice', args);
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
    return await this.#device.run(op, args, {
      external_auth_type: wire,
      external_auth_token: externalAuthToken,
    });
  }

  /** Ends a pending `getTokenFromDevice()`: it rejects with ErrorType.Aborted. */
  abortGetTokenFromDevice(): void {
    this.#device.abort();
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
}
