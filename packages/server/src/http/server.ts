import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import proxyAddr from '@fastify/proxy-addr';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerFactory,
} from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { Logger } from 'pino';
import type { TrustProxy } from '../config.js';
import { ApiError, RateLimitedError, toErrorResponse } from '../errors/index.js';
import { isStorageUnavailable } from '../storage/index.js';
import { admitRequests } from './admission.js';
import { aliasBotApplicationId } from './applicationAlias.js';
import type { CorsOrigins } from '../domain/corsOrigins.js';
import { registerCors } from './cors.js';
import type { Authenticator } from './authenticator.js';
import type { RateLimiter } from './rateLimit/index.js';
import './types.js';
import { headOnSend, restoreHeadMethod, routeHeadAsGet } from './headRequests.js';
import { assertNoNul } from './nulGuard.js';
import { LazyRequestLogger, RequestLogController } from './requestLog.js';
import { INVALID_VERSION_PATH, decodePathAscii, rewriteApiUrl } from './versioning.js';

export interface HttpServerOptions {
  logger: Logger;
  authenticator: Authenticator;
  /** null when rate limits are off. */
  rateLimiter: RateLimiter | null;
  maxBodyBytes: number;
  /** Which proxies' X-Forwarded-For names the caller: none, all, a hop count or address ranges. */
  trustProxy: TrustProxy;
  /** Which origins' pages may read the API's answers (docs/security.md#cors); absent: none. */
  corsOrigins?: CorsOrigins;
  /**
   * Makes the listener (Fastify's serverFactory): the activity proxy host's, which splits its
   * hosts off before Fastify (activities/proxyServer.ts), HTTPS itself with `tls`. Absent:
   * Fastify's own, or with `tls` an HTTPS server.
   */
  serverFactory?: FastifyServerFactory;
  /** The certificate and key to serve HTTPS (and WSS) with; absent: plain HTTP. */
  tls?: { cert: string; key: string };
}

/** Fastify's `serverFactory` for an HTTPS listener (an HTTP server over TLS sockets). */
function httpsServerFactory(tls: { cert: string; key: string }) {
  return (
    handler: (request: IncomingMessage, response: ServerResponse) => void,
    options: { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number },
  ): HttpServer => {
    const server = new HttpsServer(tls, handler) as unknown as HttpServer;
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    return server;
  };
}

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/**
 * The longest path parameter: a 1024-character external id (game stats, provisional accounts),
 * percent-encoded. Longer ones get the platform's 404, as unknown paths do.
 */
const MAX_PATH_PARAM_LENGTH = 3 * 1024;
const ROUTER_OPTIONS = {
  ignoreTrailingSlash: true,
  ignoreDuplicateSlashes: true,
  maxParamLength: MAX_PATH_PARAM_LENGTH,
} as const;
function requestIdGenerator(): () => string {
  const prefix = randomBytes(4).toString('hex');
  let next = 0;
  return () => `${prefix}-${(next++).toString(36)}`;
}

/**
 * Fastify's own form of a trust setting. A hop count becomes "trust the nearest N hops" (proxy-addr's
 * hop index 0 is the socket peer), as Fastify no longer does itself: it cannot check that the peer
 * is a proxy, so it is for servers only a proxy can reach; address ranges are the safer form.
 */
function proxyTrust(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * The client address of a raw request (a WebSocket upgrade, which Fastify does not see) under the
 * same trust rule as Fastify's `request.ip`.
 */
export function clientAddressOf(request: IncomingMessage, trust: TrustProxy): string {
  // Trusting no proxy (the default), the address is the socket's peer: proxy-addr would parse
  // X-Forwarded-For only to pass over it.
  if (trust === false) return request.socket.remoteAddress ?? '';
  const rule = proxyTrust(trust);
  return proxyAddr(request, typeof rule === 'boolean' ? () => rule : rule);
}

/**
 * The Fastify instance every route registers on: API versions, error bodies from the catalogue,
 * 404 and 405, authentication and rate limits. Routes declare `config.auth` and, optionally,
 * `config.rateLimit`.
 */
export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const { authenticator, rateLimiter } = options;
  // Routes see Fastify's logger interface; the request log needs pino's (requestLog.ts).
  const logger: FastifyBaseLogger = options.logger;
  const app = Fastify({
    loggerInstance: logger,
    // One line per request, written when it completes; request.log is made when first used.
    logController: new RequestLogController(options.logger),
    childLoggerFactory: (parent, bindings, childOptions) =>
      new LazyRequestLogger(parent, bindings, childOptions),
    bodyLimit: options.maxBodyBytes,
    genReqId: requestIdGenerator(),
    rewriteUrl: (req) => {
      routeHeadAsGet(req);
      return rewriteApiUrl(decodePathAscii(req.url ?? '/'));
    },
    // HEAD is answered by each GET route (headRequests.ts), not by a route of its own.
    exposeHeadRoutes: false,
    routerOptions: ROUTER_OPTIONS,
    // Malformed percent-encoding or an oversized path parameter: the platform's 404 body.
    frameworkErrors: (err, request, reply: FastifyReply) => {
      const response = toErrorResponse(new ApiError('NOT_FOUND', { cause: err }), request.id);
      void reply.status(response.status).send(response.body);
    },
    trustProxy: proxyTrust(options.trustProxy),
    return503OnClosing: true,
    ...(options.serverFactory
      ? { serverFactory: options.serverFactory }
      : options.tls
        ? { serverFactory: httpsServerFactory(options.tls) }
        : {}),
    // Only so Fastify's "listening at" line says https: the server is the factory's.
    ...((options.tls ? { https: true } : {}) as object),
  });

  // Bodies are JSON, or form-encoded (OAuth2 token requests); plain text is refused with 50035.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  // A mirror of the route table, to tell a wrong method (405) from an unknown path (404): built
  // at the first unknown path, as inserting every route again costs each start ~10 % of its time.
  const routeTable: [HTTPMethod, string][] = [];
  let builtMirror: ReturnType<typeof FindMyWay> | null = null;
  const mirror = () => {
    if (builtMirror === null) {
      builtMirror = FindMyWay(ROUTER_OPTIONS);
      for (const [method, url] of routeTable) builtMirror.on(method, url, () => undefined);
    }
    return builtMirror;
  };
  app.addHook('onRoute', (route) => {
    // A route must say who may call it; forgetting must not make it public.
    if (route.config?.auth === undefined) {
      throw new TypeError(`route ${String(route.method)} ${route.url} has no config.auth`);
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod))
        routeTable.push([method as HTTPMethod, route.url]);
    }
    if (methods.includes('GET')) {
      // Last of its hooks, as a HEAD route's would be: the others see the body HEAD drops.
      const own = route.onSend ?? [];
      route.onSend = [...(Array.isArray(own) ? own : [own]), headOnSend];
    }
    const limit = route.config.rateLimit;
    if (rateLimiter !== null && limit !== undefined && limit !== false && limit.account) {
      // After the body is parsed: the route counts attempts per account it names (login).
      const own = route.preHandler ?? [];
      route.preHandler = [
        ...(Array.isArray(own) ? own : [own]),
        (request) => rateLimiter.checkAccount(request),
      ];
    }
  });

  app.decorateRequest('principal', null);

  // First of all: a HEAD request routed as a GET is HEAD again (headRequests.ts).
  app.addHook('onRequest', restoreHeadMethod);

  // Preflights are answered before authentication and rate limits.
  registerCors(app, options.corsOrigins ?? null);
  app.addHook('onRequest', admitRequests(authenticator, rateLimiter));

  app.addHook('preValidation', (request, _reply, done) => {
    assertNoNul(request);
    aliasBotApplicationId(request);
    done();
  });

  // The platform sends `Content-Type: application/json` with no charset, and some client
  // libraries (oceanic.js) compare the header exactly: JSON answers say it the same way.
  // eslint-disable-next-line max-params -- Fastify's signature; `done` spares a promise per answer
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.getHeader('content-type') === 'application/json; charset=utf-8') {
      void reply.header('content-type', 'application/json');
    }
    done(null, payload);
  });

  if (rateLimiter !== null) {
    // Counted before the answer leaves: with a shared store (Redis) the count is written by the
    // time the client can send its next request, to this node or another. Most answers count
    // nothing, and then no promise is made.
    // eslint-disable-next-line max-params -- Fastify's signature; `done` spares a promise per answer
    app.addHook('onSend', (request, reply, payload, done) => {
      const recorded = rateLimiter.recordAnswer(request, reply.statusCode);
      if (recorded === undefined) done(null, payload);
      else
        recorded.then(
          () => {
            done(null, payload);
          },
          (err: unknown) => {
            done(err as Error);
          },
        );
    });
  }

  app.setErrorHandler((err, request, reply) => {
    // The database unreachable (restarting, failing over): the platform's 503, which clients
    // retry, rather than a 500 of ours. Nothing was written (docs/operations.md, Outages).
    const answered = isStorageUnavailable(err)
      ? new ApiError('API_RESOURCE_OVERLOADED', { cause: err })
      : err;
    const response = toErrorResponse(answered, request.id);
    if (response.internal) request.log.error({ err }, 'request failed');
    else if (!(err instanceof RateLimitedError))
      request.log.debug({ code: response.body }, 'request refused');
    return reply.status(response.status).headers(response.headers).send(response.body);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const allowed = METHODS.filter((method) => mirror().find(method, path) !== null);
    if (allowed.length === 0) throw new ApiError('NOT_FOUND');
    void reply.header('allow', allowed.join(', '));
    throw new ApiError('METHOD_NOT_ALLOWED');
  });

  app.all(INVALID_VERSION_PATH, { config: { auth: 'none' } }, () => {
    throw new ApiError('INVALID_API_VERSION');
  });

  return app;
}

/** The principal of an authenticated route (its `config.auth` guarantees one). */
export function principalOf(request: FastifyRequest): NonNullable<FastifyRequest['principal']> {
  const principal = request.principal;
  if (principal === null) throw new TypeError('principalOf called on a route without auth');
  return principal;
}
