/**
 * The token endpoint of account linking (auth.ts): form POSTs to the OAuth2 endpoints as a public
 * client, their refusals turned into errors that say what to do, and the answer as a
 * `TokenExchange` whose secrets the log masks.
 *
 * @module
 */
import { AuthorizationTokenType, ErrorType } from './enums.js';
import { SdkError } from './errors.js';
import type { ClientCore } from './core.js';

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

export interface WireTokenResponse {
  access_token: string;
  token_type?: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
}

/** A grant at `POST /oauth2/token`, as a `TokenExchange`. */
export async function tokenGrant(
  core: ClientCore,
  op: string,
  form: Record<string, string>,
): Promise<TokenExchange> {
  return exchangeOf(
    core,
    await oauthPost<WireTokenResponse>(core, op, { path: '/oauth2/token', form }),
  );
}

/** A form POST to an OAuth2 endpoint as a public client; its refusals say what to do. */
export async function oauthPost<T>(
  core: ClientCore,
  op: string,
  { path, form }: { path: string; form: Record<string, string> },
): Promise<T> {
  try {
    return await core.http.request<T>('POST', path, { auth: 'none', form });
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

/** The answer of a token route as the SDK hands it out; the log masks its tokens. */
export function exchangeOf(core: ClientCore, body: WireTokenResponse): TokenExchange {
  core.logger.secret(body.access_token);
  core.logger.secret(body.refresh_token);
  core.logger.secret(body.id_token);
  return Object.freeze({
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? '',
    tokenType: AuthorizationTokenType.Bearer,
    expiresIn: body.expires_in ?? 0,
    scopes: body.scope ?? '',
    idToken: body.id_token ?? null,
  });
}
