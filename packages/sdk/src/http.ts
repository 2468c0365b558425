/**
 * The SDK's HTTP requests: the token on every call, a timeout per attempt
 * (`setHttpRequestTimeout`, 30000 ms by default), rate limits waited out per `retry_after`, and
 * the platform's error bodies turned into `SdkError`s.
 *
 * @module
 */
import { ErrorType } from './enums.js';
import { SdkError, type PlatformErrorBody } from './errors.js';
import type { Logger } from './log.js';

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  /** A JSON body. */
  json?: unknown;
  /** A form body (the token endpoints). */
  form?: Record<string, string | undefined>;
  /** Send the client's token (default), or nothing (public endpoints, the token endpoints). */
  auth?: 'token' | 'none';
}

export interface HttpOptions {
  apiBase: string;
  logger: Logger;
  /** The `Authorization` header value, or null when the client has no token yet. */
  authorization: () => string | null;
  fetch?: typeof fetch;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
/** A 429 asking for a longer wait than this is returned to the caller, not waited out. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 60_000;
const MAX_RATE_LIMIT_RETRIES = 3;

export class Http {
  readonly apiBase: string;
  timeoutMs = DEFAULT_HTTP_TIMEOUT_MS;
  maxRateLimitWaitMs = DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
  readonly #options: HttpOptions;
  readonly #fetch: typeof fetch;
  readonly #waitListeners: ((waiting: boolean) => void)[] = [];

  constructor(options: HttpOptions) {
    this.#options = options;
    this.apiBase = options.apiBase.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  #rateLimitWait(waiting: boolean): void {
    for (const listener of this.#waitListeners) listener(waiting);
  }

  /** Tells `listener` true while a request waits for a rate limit, false when it goes on. */
  onRateLimitWait(listener: (waiting: boolean) => void): void {
    this.#waitListeners.push(listener);
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', path, query === undefined ? {} : { query });
  }

  /** One request, retried after a 429 for as long as the platform asks (up to a bound). */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = this.#url(path, options.query);
    for (let attempt = 0; ; attempt++) {
      const response = await this.#attempt({ method, url, path }, options);
      if (response.status === 429 && attempt < MAX_RATE_LIMIT_RETRIES) {
        const waitMs = retryAfterMs(response.body, response.headers);
        if (waitMs <= this.maxRateLimitWaitMs) {
          this.#options.logger.warn(
            `HTTP ${method} ${path} was rate limited: retrying in ${Math.ceil(waitMs)} ms`,
          );
          this.#rateLimitWait(true);
          try {
            await sleep(waitMs);
          } finally {
            this.#rateLimitWait(false);
          }
          continue;
        }
      }
      if (response.status >= 200 && response.status < 300) return response.body as T;
      throw errorFrom(method, path, response);
    }
  }

  #url(path: string, query: Query | undefined): string {
    const url = new URL(`${this.apiBase}${path}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  async #attempt(
    { method, url, path }: { method: string; url: string; path: string },
    options: RequestOptions,
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    const headers: Record<string, string> = {};
    const authorization = options.auth === 'none' ? null : this.#options.authorization();
    if (authorization !== null) headers['authorization'] = authorization;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(options.form)) {
        if (value !== undefined) form.set(key, value);
      }
      body = form.toString();
    }
    const started = Date.now();
    const controller = new AbortController();
    const timer = setTimeout(() => {
      controller.abort();
    }, this.timeoutMs);
    try {
      const response = await this.#fetch(url, {
        method,
        headers,
        body: body ?? null,
        signal: controller.signal,
        redirect: 'error',
      });
      const text = await response.text();
      this.#options.logger.verbose(
        `HTTP ${method} ${path} → ${response.status} (${Date.now() - started} ms)`,
      );
      return { status: response.status, body: parseBody(text), headers: response.headers };
    } catch (cause) {
      if (controller.signal.aborted) {
        this.#options.logger.warn(`HTTP ${method} ${path} timed out after ${this.timeoutMs} ms`);
        throw new SdkError(
          `${method} ${path} got no answer within ${this.timeoutMs} ms (setHttpRequestTimeout): check the server, or allow more time.`,
          { type: ErrorType.NetworkError, retryable: true, cause },
        );
      }
      this.#options.logger.warn(`HTTP ${method} ${path} failed: ${String(cause)}`);
      throw new SdkError(
        `${method} ${path} could not reach ${this.apiBase}: ${cause instanceof Error ? cause.message : String(cause)}`,
        { type: ErrorType.NetworkError, retryable: true, cause },
      );
    } finally {
      clearTimeout(timer);
    }
  }
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function retryAfterMs(body: unknown, headers: Headers): number {
  const fromBody = (body as PlatformErrorBody | null)?.retry_after;
  if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) {
    return fromBody * 1000;
  }
  const header = Number(headers.get('retry-after'));
  return Number.isFinite(header) && header >= 0 ? header * 1000 : 1000;
}

function errorFrom(
  method: string,
  path: string,
  response: { status: number; body: unknown; headers: Headers },
): SdkError {
  const body = (
    typeof response.body === 'object' ? response.body : null
  ) as PlatformErrorBody | null;
  const status = response.status;
  if (body?.error !== undefined) {
    return new SdkError(
      `${method} ${path}: ${body.error}${body.error_description === undefined ? '' : ` (${body.error_description})`}`,
      { type: ErrorType.AuthorizationFailed, status, oauthError: body.error },
    );
  }
  const message = body?.message ?? (typeof response.body === 'string' ? response.body : '');
  if (status === 429) {
    const retryAfter = retryAfterMs(response.body, response.headers) / 1000;
    return new SdkError(
      `${method} ${path} is rate limited for ${retryAfter} s more: try again later.`,
      { type: ErrorType.HTTPError, status, code: body?.code ?? 0, retryable: true, retryAfter },
    );
  }
  return new SdkError(`${method} ${path} → ${status}${message === '' ? '' : `: ${message}`}`, {
    type: status === 401 ? ErrorType.AuthorizationFailed : ErrorType.HTTPError,
    status,
    code: body?.code ?? 0,
    errors: body?.errors,
    retryable: status >= 500,
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
