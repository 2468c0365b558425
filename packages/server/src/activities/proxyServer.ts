/**
 * @module activities/proxyServer: the proxy host on the API's own listener. Requests whose Host
 * names an activity origin (proxyHost.ts) are split off before Fastify sees them, plain requests
 * and WebSocket upgrades alike (the gateway's upgrade listener never sees them either); every
 * other request reaches Fastify unchanged. The proxy checks the request (method, one Host, no
 * loop), reads the application's URL mappings, routes the path (proxyRoute.ts) and forwards it
 * (proxyHttp.ts, proxyWs.ts). Docs: docs/activities.md#the-proxy-host.
 */
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import type { TlsOptions } from 'node:tls';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { infoLineWriter } from '../logger.js';
import { realTimers, systemClock, type Clock, type Timers } from '../domain/clock.js';
import { createMappingCache } from './mappingCache.js';
import { createProxyAuthenticator, ticketOf, type VerifyKeySource } from './proxyAuth.js';
import { framingOf, type Framing } from './proxyFraming.js';
import { cameThroughProxy } from './proxyHeaders.js';
import { activitySuffix, matchActivityHost, type ActivityHostMatch } from './proxyHost.js';
import {
  DEFAULT_PROXY_LIMITS,
  forwardHttp,
  type ForwardRequest,
  type ProxyLimits,
  type ProxySettings,
} from './proxyHttp.js';
import { serveFrameRelay } from './frameRelay.js';
import { sendRefusal, writeRawRefusal } from './proxyPages.js';
import {
  routableMappings,
  routeByMappings,
  type ProxyTarget,
  type Refusal,
  type RoutableMapping,
  type UrlMappingSource,
} from './proxyRoute.js';
import { createAgents, literalAddressRefusal } from './proxyUpstream.js';
import { forwardUpgrade, type UpgradeRequest } from './proxyWs.js';

export interface ActivityProxyOptions {
  config: Pick<
    Config,
    | 'activityHost'
    | 'activityAllowLoopback'
    | 'activityMaxBodyBytes'
    | 'publicUrl'
    | 'host'
    | 'tls'
    | 'tlsCert'
  >;
  /**
   * Each application's URL mappings (`storage.activities`), held in memory once read
   * (mappingCache.ts) until `forgetMappings` or their time is up.
   */
  mappings: UrlMappingSource;
  /** The applications' public keys, which proxy tickets are checked with (proxyAuth.ts). */
  verifyKeys: VerifyKeySource;
  /** What the held mappings' age is read from. */
  clock?: Pick<Clock, 'now'>;
  /** The port the server listens on (the configured one until it listens). */
  port: () => number;
  /** The browser's address under the server's trust-proxy rule. */
  clientAddress: (request: IncomingMessage) => string;
  logger: Logger;
  /** Where the proxy's waits come from (tests fire them). */
  timers?: Timers;
  /** Waits over the defaults (the body limit is the config's). */
  limits?: Partial<Omit<ProxyLimits, 'maxBodyBytes'>>;
}

/** The proxy host: which requests are its own, and how it answers them. */
export interface ActivityProxy {
  match(request: IncomingMessage): ActivityHostMatch;
  handleRequest(request: IncomingMessage, response: ServerResponse, match: ActivityHostMatch): void;
  handleUpgrade(upgrade: UpgradeRequest, match: ActivityHostMatch): void;
  /**
   * Drops the URL mappings held for an application (they changed: a revocation, on every
   * node), or for every application without an argument (the database returned to a snapshot).
   */
  forgetMappings(applicationId?: string): void;
  /**
   * Ends the proxied WebSockets (they would hold the listener open) and the pooled connections
   * to targets; called before the HTTP server closes.
   */
  close(): void;
}

/** The answer when what an application's requests are routed or signed by cannot be read. */
const SETTINGS_UNREAD: Refusal = {
  status: 502,
  reason: "This activity's settings could not be read.",
};

/** Methods forwarded to targets; TRACE and CONNECT never are. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Where a checked request goes: forwarded, or refused with a page. */
interface Outlet {
  websocket: boolean;
  forward: (to: ForwardRequest) => void;
  refuse: (refusal: Refusal, headers: Record<string, string>) => void;
}

/** How many Host headers the request carried (Node keeps only the first). */
function hostHeaderCount(request: IncomingMessage): number {
  let count = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i]?.toLowerCase() === 'host') count++;
  }
  return count;
}

/** The fields of the one log line per request on an activity host. */
const EXCHANGE_FIELDS = ['applicationId', 'method', 'path', 'statusCode', 'responseTime'] as const;

/**
 * One line per request on an activity host when it completes, as the API's request log does;
 * the query is left out (it may carry an OAuth2 code).
 */
function exchangeLog(logger: Logger) {
  const write = infoLineWriter(logger, 'activity request completed', EXCHANGE_FIELDS);
  return (exchange: {
    request: IncomingMessage;
    response: ServerResponse;
    match: ActivityHostMatch;
  }) => {
    const { request, response, match } = exchange;
    const started = performance.now();
    response.once('close', () => {
      write({
        applicationId: match.kind === 'activity' ? match.applicationId : null,
        method: request.method ?? null,
        path: (request.url ?? '/').split('?', 1)[0] ?? '/',
        statusCode: response.headersSent ? response.statusCode : null,
        responseTime: Math.round((performance.now() - started) * 100) / 100,
      });
    });
  };
}

export function createActivityProxy(options: ActivityProxyOptions): ActivityProxy {
  const { config, logger } = options;
  const suffix = activitySuffix(config);
  const logExchange = exchangeLog(logger);
  const settings: ProxySettings = {
    allowLoopback: config.activityAllowLoopback,
    limits: {
      ...DEFAULT_PROXY_LIMITS,
      ...options.limits,
      maxBodyBytes: config.activityMaxBodyBytes,
    },
    timers: options.timers ?? realTimers,
    agents: createAgents(),
    tunnels: new Set(),
    logger,
  };

  const framing = framingOf(config, options.port);
  // Each application's mappings, ready to route by, held in memory (mappingCache.ts).
  const mappings = createMappingCache<RoutableMapping[] | null>({
    read: async (applicationId) => {
      const stored = await options.mappings.urlMappings(applicationId);
      return stored === null ? null : routableMappings(stored, suffix);
    },
    clock: options.clock ?? systemClock,
  });
  const tickets = createProxyAuthenticator({
    keys: options.verifyKeys,
    clock: options.clock ?? systemClock,
  });
  // A held target's literal-address check, made once per target (mappings held are reused).
  const refusals = new WeakMap<ProxyTarget, Refusal | null>();
  const addressRefusal = (target: ProxyTarget) => {
    let refusal = refusals.get(target);
    if (refusal === undefined) {
      refusal = literalAddressRefusal(target, settings.allowLoopback);
      refusals.set(target, refusal);
    }
    return refusal;
  };

  /** The refusal of a request before any mapping is read, or null. */
  const precheck = (request: IncomingMessage, websocket: boolean): Refusal | null => {
    if (!METHODS.has(request.method ?? '') || (websocket && request.method !== 'GET')) {
      return { status: 405, reason: 'This method is not forwarded to activities.' };
    }
    if (hostHeaderCount(request) !== 1) {
      return { status: 400, reason: 'A request must have exactly one Host header.' };
    }
    if (websocket && request.headers.upgrade?.toLowerCase() !== 'websocket') {
      return { status: 400, reason: 'Only WebSocket upgrades are forwarded.' };
    }
    if (cameThroughProxy(request.headers)) {
      return { status: 508, reason: 'This request already went through the activity proxy.' };
    }
    return null;
  };

  /** Where a checked request goes by its application's mappings, or why not. */
  const resolve = (
    request: IncomingMessage,
    site: { applicationId: string | null; framing: Framing },
    routes: readonly RoutableMapping[] | null,
  ): ForwardRequest | Refusal => {
    const { applicationId, framing: frame } = site;
    const route = routeByMappings(routes, request.url ?? '/');
    if (!route.ok || applicationId === null) {
      return route.ok ? { status: 404, reason: 'No activity is served here.' } : route;
    }
    const refused = addressRefusal(route.target);
    if (refused !== null) return refused;
    return {
      applicationId,
      activityOrigin: frame.policy.activityOrigin,
      target: route.target,
      prefix: route.prefix,
      path: route.path,
      clientAddress: options.clientAddress(request),
      frameHeaders: frame.frameHeaders,
      pageHeaders: frame.pageHeaders,
      auth: null,
    };
  };

  /**
   * Forwards a routed request with proxy authentication's headers when it carries a good ticket
   * (at once when its key and ticket are held); a key that cannot be read refuses it.
   */
  const authenticate = (request: IncomingMessage, to: ForwardRequest, outlet: Outlet) => {
    const ticket = ticketOf(request.url ?? '/', request.headers.referer, to.activityOrigin);
    if (ticket === null) {
      outlet.forward(to);
      return;
    }
    const headers = tickets.headersFor(to.applicationId, ticket);
    if (!(headers instanceof Promise)) {
      to.auth = headers;
      outlet.forward(to);
      return;
    }
    headers.then(
      (checked) => {
        to.auth = checked;
        outlet.forward(to);
      },
      (err: unknown) => {
        logger.error({ err, applicationId: to.applicationId }, 'activity proxy: key not read');
        outlet.refuse(SETTINGS_UNREAD, to.pageHeaders);
      },
    );
  };

  /**
   * Checks and routes a request, then hands it on; refusals answered with `refuse`. Mappings
   * held in memory route at once; others are read first.
   */
  const handle = (request: IncomingMessage, match: ActivityHostMatch, outlet: Outlet) => {
    const { refuse } = outlet;
    const applicationId = match.kind === 'activity' ? match.applicationId : null;
    const site = { applicationId, framing: framing(applicationId) };
    const early = precheck(request, outlet.websocket);
    if (early !== null) {
      refuse(early, site.framing.pageHeaders);
      return;
    }
    const settle = (routes: readonly RoutableMapping[] | null) => {
      const result = resolve(request, site, routes);
      if ('target' in result) authenticate(request, result, outlet);
      else refuse(result, site.framing.pageHeaders);
    };
    const held = applicationId === null ? null : mappings.cached(applicationId);
    if (held !== undefined || applicationId === null) {
      settle(held ?? null);
      return;
    }
    mappings.get(applicationId).then(settle, (err: unknown) => {
      logger.error({ err, applicationId }, 'activity proxy: URL mappings not read');
      refuse(SETTINGS_UNREAD, site.framing.pageHeaders);
    });
  };

  return {
    match: (request) => matchActivityHost(suffix, request.headers.host),
    handleRequest(request, response, match) {
      // The web client's frame relay (frameRelay.ts), on every activity origin.
      if (
        match.kind === 'activity' &&
        precheck(request, false) === null &&
        serveFrameRelay(request, response, framing(match.applicationId).frameHeaders)
      ) {
        return;
      }
      handle(request, match, {
        websocket: false,
        forward: (to) => {
          forwardHttp({ req: request, res: response }, to, settings);
        },
        refuse: (refusal, headers) => {
          // The body, if any, is not read: the connection closes after the page.
          sendRefusal(response, { refusal, headers, close: true });
        },
      });
      logExchange({ request, response, match });
    },
    handleUpgrade(upgrade, match) {
      handle(upgrade.req, match, {
        websocket: true,
        forward: (to) => {
          forwardUpgrade(upgrade, to, settings);
        },
        refuse: (refusal, headers) => {
          writeRawRefusal(upgrade.socket, refusal, headers);
        },
      });
    },
    forgetMappings(applicationId) {
      if (applicationId === undefined) {
        mappings.forgetAll();
        tickets.forgetAll();
      } else mappings.forget(applicationId);
    },
    close() {
      for (const socket of settings.tunnels) socket.destroy();
      settings.agents.http.destroy();
      settings.agents.https.destroy();
    },
  };
}

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Fastify's `serverFactory` for a listener shared with the proxy host: the server Fastify would
 * make (HTTPS with `tls`), whose activity hosts' requests and upgrades go to the proxy and
 * everything else to `handler` (Fastify's) and the server's other upgrade listeners (the
 * gateway's).
 */
export function hostSplitServerFactory(proxy: ActivityProxy, tls?: TlsOptions) {
  return (
    handler: RequestHandler,
    options: { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number },
  ): Server => {
    const split: RequestHandler = (request, response) => {
      const match = proxy.match(request);
      if (match.kind === 'api') handler(request, response);
      else proxy.handleRequest(request, response, match);
    };
    // An HTTPS server is an HTTP server over TLS sockets: Fastify and the gateway use it alike.
    const server = (tls === undefined ? new Server(split) : new HttpsServer(tls, split)) as Server;
    // With a listener, Node hands every upgrade to 'upgrade' (not 'request') even on a node
    // without the gateway; one nobody else wants is closed.
    server.on('upgrade', (_request: IncomingMessage, socket: Duplex) => {
      if (server.listenerCount('upgrade') === 1) socket.destroy();
    });
    const emit = server.emit.bind(server);
    server.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
      if (event === 'upgrade') {
        const [request, socket, head] = args as [IncomingMessage, Duplex, Buffer];
        const match = proxy.match(request);
        if (match.kind !== 'api') {
          proxy.handleUpgrade({ req: request, socket, head }, match);
          return true;
        }
      }
      // Node's overloads name every event as a string; a symbol event passes through the same way.
      return emit(event as string, ...args);
    }) as Server['emit'];
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    return server;
  };
}
