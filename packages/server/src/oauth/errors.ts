/** The error codes of RFC 6749 §5.2, RFC 8628 §3.5 and RFC 7009 the OAuth2 routes answer with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'server_error';

/** How much of a caller's unknown value an error description repeats. */
export const MAX_ECHOED_LENGTH = 100;

const STATUS: Partial<Record<OAuthErrorCode, 400 | 401 | 403>> = {
  invalid_client: 401,
  invalid_token: 401,
  insufficient_scope: 403,
  access_denied: 403,
};

/** An OAuth2 protocol error: answered as `{error, error_description}` (RFC 6749 §5.2). */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  readonly error: OAuthErrorCode;
  readonly status: 400 | 401 | 403;
  /** For invalid_client: the client tried HTTP Basic, so the 401 names that scheme. */
  readonly basicChallenge: boolean;

  constructor(
    error: OAuthErrorCode,
    description: string,
    options: { status?: 400 | 401 | 403; basicChallenge?: boolean } = {},
  ) {
    super(description);
    this.error = error;
    // The token endpoint's access_denied (device flow) is a 400 by RFC 8628.
    this.status = options.status ?? STATUS[error] ?? 400;
    this.basicChallenge = options.basicChallenge ?? false;
  }

  /** The response body. */
  body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.message };
  }

  /** The response headers (RFC 6749 §5.2: a WWW-Authenticate challenge for Basic; no caching). */
  headers(): Record<string, string> {
    const headers: Record<string, string> = { 'cache-control': 'no-store', pragma: 'no-cache' };
    if (this.error === 'invalid_client' && this.basicChallenge) {
      headers['www-authenticate'] = 'Basic realm="guildhall"';
    }
    if (this.error === 'invalid_token' || this.error === 'insufficient_scope') {
      headers['www-authenticate'] = `Bearer error="${this.error}"`;
    }
    return headers;
  }
}
