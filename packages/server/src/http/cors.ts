/**
 * CORS for the HTTP API (docs/security.md#cors): a game's page on another origin (the browser
 * build of the Social SDK) calls `/api/*` with its token in the `Authorization` header. Answers
 * are shared with the configured origins — any origin by default — and never with credentials:
 * no cookie of this server is sent or read cross-origin. The cookie-based OAuth2 pages
 * (`/oauth2/authorize`, also under `/api`) get no CORS headers at all.
 *
 * @module
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CorsOrigins } from '../domain/corsOrigins.js';
import { INVALID_VERSION_PATH } from './versioning.js';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** What the API reads from a request (the SDK sends the first two). */
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Audit-Log-Reason';
/** What a page may read from an answer: the rate-limit headers the SDK waits by. */
const EXPOSED_HEADERS = [
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Reset-After',
  'X-RateLimit-Bucket',
  'X-RateLimit-Global',
  'X-RateLimit-Scope',
].join(', ');
/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The API's paths after versioning (`/api/v10/…`), and the answer to an unserved version. */
function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path === INVALID_VERSION_PATH;
}

/** The consent page reads the `guildhall_session` cookie: never readable from another origin. */
function isCookiePage(path: string): boolean {
  return /^\/api\/v\d+\/oauth2\/authorize\/?$/.test(path);
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? '/';
}

/**
 * The `Access-Control-Allow-Origin` value for a request from `origin`, or null when that origin
 * may not read the answer.
 */
export function allowedOrigin(origins: CorsOrigins, origin: string | undefined): string | null {
  if (origins === null) return null;
  if (origins === '*') return '*';
  return origin !== undefined && origins.includes(origin) ? origin : null;
}

/**
 * Adds CORS to the API: preflights (`OPTIONS` with `Access-Control-Request-Method`) are answered
 * 204 before authentication and rate limits, and every API answer (errors too, so a page can read
 * them) carries the allow-origin header. Register before the authentication hook.
 */
export function registerCors(app: FastifyInstance, origins: CorsOrigins): void {
  if (origins === null) return;
  const varies = origins !== '*';

  /** Answers a preflight (true), or leaves the request to its route (false). */
  const answerPreflight = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const path = pathOf(request);
    if (!isApiPath(path) || isCookiePage(path)) return false;
    if (request.headers['access-control-request-method'] === undefined) return false;
    const allowed = allowedOrigin(origins, request.headers.origin);
    if (varies) void reply.header('vary', 'Origin');
    if (allowed === null) {
      // Not an origin of the setting: the browser refuses the request itself.
      void reply.status(204).send();
      return true;
    }
    void reply
      .status(204)
      .headers({
        'access-control-allow-origin': allowed,
        'access-control-allow-methods': ALLOWED_METHODS,
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
      })
      .send();
    return true;
  };

  // A callback hook, so the requests that are not preflights (all but a few) make no promise. An
  // answered preflight does not call `done`: Fastify's way to answer from a callback hook.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS' || !answerPreflight(request, reply)) done();
  });

  // eslint-disable-next-line max-params -- Fastify's signature; `done` spares a promise per answer
  app.addHook('onSend', (request, reply: FastifyReply, payload, done) => {
    const path = pathOf(request);
    if (isApiPath(path) && !isCookiePage(path)) {
      const allowed = allowedOrigin(origins, request.headers.origin);
      if (varies) void reply.header('vary', appendVary(reply.getHeader('vary'), 'Origin'));
      if (allowed !== null && !reply.hasHeader('access-control-allow-origin')) {
        void reply.header('access-control-allow-origin', allowed);
        void reply.header('access-control-expose-headers', EXPOSED_HEADERS);
      }
    }
    done(null, payload);
  });
}

function appendVary(existing: unknown, name: string): string {
  const current = typeof existing === 'string' ? existing : '';
  const names = current === '' ? [] : current.split(',').map((part) => part.trim());
  if (names.some((part) => part.toLowerCase() === name.toLowerCase() || part === '*')) {
    return current;
  }
  return [...names, name].join(', ');
}
