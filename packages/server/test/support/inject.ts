/**
 * The one way tests send an API request in process: `app.http.inject` under `/api/v10`, with the
 * caller's authorization, payload and extra headers. The answer is Fastify's injected response, so
 * tests assert on `statusCode`, `body` and `json()` as before.
 *
 * @module
 */
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app.js';

/** The HTTP methods the API routes take. */
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What an API request carries besides its method and path. */
export interface ApiRequestOptions {
  /** The `authorization` header; none when undefined. */
  auth?: string | undefined;
  /** The body: an object or array is sent as JSON, a string or Buffer as is. */
  payload?: unknown;
  /** Further headers (a multipart `content-type`, `x-audit-log-reason`, ...). */
  headers?: Record<string, string> | undefined;
  /** The client's address (127.0.0.1 by default): a test's own, for limits kept per address. */
  remoteAddress?: string | undefined;
}

/**
 * Sends `request` (`'METHOD /path'`, the path under `/api/v10`, query string included) to `app`
 * and returns the response whatever its status.
 */
export function apiRequest(
  app: App,
  request: string,
  options: ApiRequestOptions = {},
): Promise<LightMyRequestResponse> {
  const space = request.indexOf(' ');
  const method = request.slice(0, space) as ApiMethod;
  const path = request.slice(space + 1);
  const { auth, payload, headers = {}, remoteAddress } = options;
  return app.http.inject({
    method,
    url: `/api/v10${path}`,
    headers: { ...(auth === undefined ? {} : { authorization: auth }), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
}
