/**
 * The arguments of account linking (auth.ts): `AuthorizationArgs`, `DeviceAuthorizationArgs`, the
 * PKCE verifier and challenge, and the checks of the ids, scopes and external tokens the token
 * operations take, held to the server's limits (docs/oauth.md).
 *
 * @module
 */
import {
  AuthenticationCodeChallengeMethod,
  EXTERNAL_AUTH_TYPE_WIRE,
  IntegrationType,
  type AuthenticationExternalAuthType,
} from './enums.js';
import { validationError } from './errors.js';

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

export function checkApplicationId(operation: string, applicationId: string): void {
  if (typeof applicationId !== 'string' || !SNOWFLAKE.test(applicationId)) {
    throw validationError(
      `${operation}: ${JSON.stringify(applicationId)} is not an application id (a snowflake string, such as "1234567890123456789").`,
    );
  }
}

export function checkNonEmpty(operation: string, name: string, value: unknown): string {
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

export function checkExternalAuth(
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

export function randomToken(bytes = 32): string {
  return base64url(globalThis.crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function s256(verifier: string): Promise<string> {
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

/** The code grant's arguments (getToken's, in the reference's order). */
export interface CodeGrantInput {
  applicationId: string;
  code: string;
  codeVerifier: string;
  redirectUri: string;
}

/** The checked form of an `authorization_code` grant (PKCE, public client). */
export function codeGrantForm(op: string, input: CodeGrantInput): Record<string, string> {
  checkApplicationId(op, input.applicationId);
  checkNonEmpty(op, 'the code', input.code);
  if (typeof input.codeVerifier !== 'string' || !PKCE_VERIFIER.test(input.codeVerifier)) {
    throw validationError(
      `${op}: the code verifier must be the verifier() of createAuthorizationCodeVerifier() (43–128 characters).`,
    );
  }
  checkNonEmpty(op, 'the redirect URI', input.redirectUri);
  return {
    grant_type: 'authorization_code',
    client_id: input.applicationId,
    code: input.code,
    code_verifier: input.codeVerifier,
    redirect_uri: input.redirectUri,
  };
}
