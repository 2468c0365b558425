/**
 * @module rpc/platformApi: the daemon's requests to the platform's API, as the person's client:
 * the session token on the person's own routes, an app's access token on `/oauth2/@me`. Every
 * request has a timeout and refuses redirects (a token never follows one elsewhere).
 */

/** How long one request may take. */
export const PLATFORM_REQUEST_TIMEOUT_MS = 10_000;

/** A request the platform answered with an error status (its body kept as sent). */
export class PlatformRequestError extends Error {
  override readonly name = 'PlatformRequestError';
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown, message: string) {
    super(message);
    this.status = status;
    this.body = body;
  }

  /** An OAuth error body's `error` (`access_denied`, `invalid_request`…), if it is one. */
  get oauthError(): string | null {
    const error = (this.body as { error?: unknown } | null)?.error;
    return typeof error === 'string' ? error : null;
  }

  /** The body's human message: `error_description` or `message`. */
  get detail(): string {
    const body = this.body as { error_description?: unknown; message?: unknown } | null;
    const text = body?.error_description ?? body?.message;
    return typeof text === 'string' ? text : `HTTP ${this.status}`;
  }
}

export interface PlatformApiOptions {
  /** The API base with its version, no trailing slash (`http://127.0.0.1:8080/api/v10`). */
  apiBase: string;
  /** The person's session token. */
  sessionToken: string;
  fetch?: typeof fetch;
}

export type Query = Record<string, string>;

/** The platform's API as the daemon uses it. */
export class PlatformApi {
  readonly apiBase: string;
  readonly #token: string;
  readonly #fetch: typeof fetch;

  constructor(options: PlatformApiOptions) {
    this.apiBase = options.apiBase;
    this.#token = options.sessionToken;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** A GET with the person's session token. */
  get<T>(path: string, query: Query = {}): Promise<T> {
    return this.#request<T>('GET', path, { query, authorization: this.#token });
  }

  /** A JSON POST with the person's session token. */
  post<T>(path: string, json: unknown): Promise<T> {
    return this.#request<T>('POST', path, { json, authorization: this.#token });
  }

  /** A GET with an app's OAuth2 access token. */
  getAsBearer<T>(path: string, accessToken: string): Promise<T> {
    return this.#request<T>('GET', path, { query: {}, authorization: `Bearer ${accessToken}` });
  }

  async #request<T>(
    method: string,
    path: string,
    options: { query?: Query; json?: unknown; authorization: string },
  ): Promise<T> {
    const search = new URLSearchParams(options.query ?? {}).toString();
    const url = `${this.apiBase}${path}${search === '' ? '' : `?${search}`}`;
    const headers: Record<string, string> = { authorization: options.authorization };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const response = await this.#fetch(url, {
      method,
      headers,
      redirect: 'error',
      signal: AbortSignal.timeout(PLATFORM_REQUEST_TIMEOUT_MS),
      ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    if (!response.ok) {
      throw new PlatformRequestError(
        response.status,
        body,
        `${method} ${path}: ${response.status}`,
      );
    }
    return body as T;
  }
}

/**
 * The API base with its version from what a person typed: the platform's address
 * (`http://127.0.0.1:8080`), or its API URL with or without a version (`…/api`, `…/api/v10`).
 */
export function apiBaseOf(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`${url} is not an http(s) URL.`);
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  const origin = parsed.origin;
  if (/\/api\/v\d+$/.test(path)) return `${origin}${path}`;
  if (path.endsWith('/api')) return `${origin}${path}/v10`;
  return `${origin}${path}/api/v10`;
}
