/**
 * @module activities/proxyHttp: one HTTP request on an activity origin forwarded to its mapping
 * target, streaming both ways. Bounded: the connection must be up within `connectMs`, the answer
 * must start within `responseMs` of the request body's end, and neither side may stall for
 * `idleMs`; a body over `maxBodyBytes` is refused with 413 (at once when Content-Length says so).
 * A redirect reaches the browser only when it stays on the activity origin (a relative one, or
 * one to a mapping target's path, rewritten to its prefix); any other is a 502 page. Connections
 * to targets are pooled; a request without a body whose pooled connection the target closed as
 * it was reused goes again, once, on a new connection.
 */
import type {
  ClientRequest,
  IncomingMessage,
  OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http';
import { Transform, type Duplex, type TransformCallback } from 'node:stream';
import type { Logger } from 'pino';
import type { Timers } from '../domain/clock.js';
import { forwardedRequestHeaders, returnedResponseHeaders } from './proxyHeaders.js';
import { sendRefusal } from './proxyPages.js';
import type { ProxyTarget, Refusal } from './proxyRoute.js';
import { openUpstream, upstreamErrorRefusal, type createAgents } from './proxyUpstream.js';

/** The waits and sizes of the proxy host. */
export interface ProxyLimits {
  connectMs: number;
  responseMs: number;
  idleMs: number;
  maxBodyBytes: number;
}

export const DEFAULT_PROXY_LIMITS: Omit<ProxyLimits, 'maxBodyBytes'> = {
  connectMs: 10_000,
  responseMs: 30_000,
  idleMs: 60_000,
};

/** What the proxy host shares between requests. */
export interface ProxySettings {
  allowLoopback: boolean;
  limits: ProxyLimits;
  timers: Timers;
  agents: ReturnType<typeof createAgents>;
  /** The joined WebSocket connections (browser side), ended when the server closes. */
  tunnels: Set<Duplex>;
  logger: Logger;
}

/** What one request on an activity origin is forwarded with. */
export interface ForwardRequest {
  applicationId: string;
  activityOrigin: string;
  target: ProxyTarget;
  /** The mapping prefix that matched ('' for the root mapping). */
  prefix: string;
  /** The path and query to ask the target for. */
  path: string;
  clientAddress: string;
  frameHeaders: Record<string, string>;
  pageHeaders: Record<string, string>;
  /** Proxy authentication's headers for the request's ticket (proxyAuth.ts), or null. */
  auth: Record<string, string> | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A stream step that counts bytes against a limit and reports activity. */
function meter(limit: number, onData: () => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      onData();
      if (seen > limit) callback(Object.assign(new Error('body too large'), { code: 'ETOOLARGE' }));
      else callback(null, chunk);
    },
  });
}

/** Whether a URL path is `base` or under it on a segment boundary. */
function under(base: string, path: string): boolean {
  return base === '' || path === base || path.startsWith(`${base}/`);
}

/**
 * The Location the browser gets for a target's redirect, or null when it would leave the
 * activity origin.
 */
export function redirectLocation(location: string, request: ForwardRequest, requestUrl: string) {
  let resolved: URL;
  try {
    resolved = new URL(location, `${request.activityOrigin}${requestUrl}`);
  } catch {
    return null;
  }
  if (resolved.origin === request.activityOrigin) return location;
  const { target } = request;
  const targetOrigin = new URL(`${target.protocol}//${target.hostHeader}`).origin;
  if (resolved.origin !== targetOrigin || !under(target.basePath, resolved.pathname)) return null;
  const rest = resolved.pathname.slice(target.basePath.length);
  return `${request.activityOrigin}${request.prefix}${rest || '/'}${resolved.search}${resolved.hash}`;
}

/** A bound on one wait: run `onExpire` unless cancelled first. */
function deadline(timers: Timers, ms: number, onExpire: () => void) {
  let cancel: (() => void) | null = timers.schedule(() => {
    cancel = null;
    onExpire();
  }, ms);
  return () => {
    cancel?.();
    cancel = null;
  };
}

/** Watches a flow for stalls: `touch` on each chunk; `onIdle` after a whole period without. */
function idleWatch(timers: Timers, ms: number, onIdle: () => void) {
  let active = false;
  let cancel: () => void = () => undefined;
  let stopped = false;
  const check = () => {
    if (stopped) return;
    if (!active) {
      onIdle();
      return;
    }
    active = false;
    cancel = timers.schedule(check, ms);
  };
  cancel = timers.schedule(check, ms);
  return {
    touch: () => {
      active = true;
    },
    stop: () => {
      stopped = true;
      cancel();
    },
  };
}

/** The headers a request (or a WebSocket upgrade) is sent to its target with. */
export function targetRequestHeaders(
  req: IncomingMessage,
  request: ForwardRequest,
  websocket: boolean,
): OutgoingHttpHeaders {
  return forwardedRequestHeaders(req.headers, {
    targetHost: request.target.hostHeader,
    clientAddress: request.clientAddress,
    proto: request.activityOrigin.startsWith('https:') ? 'https' : 'http',
    websocket,
    auth: request.auth,
  });
}

/** Forwards one request and streams the answer back; never throws. */
export function forwardHttp(
  exchange: { req: IncomingMessage; res: ServerResponse },
  request: ForwardRequest,
  settings: ProxySettings,
): void {
  const { req, res } = exchange;
  // The browser left while the mappings were read: nothing to fetch.
  if (res.destroyed || res.closed) return;
  const { limits, timers, logger } = settings;
  let upstream: ClientRequest | null = null;
  let done = false;
  const cleanups: (() => void)[] = [];
  const finish = () => {
    done = true;
    for (const cleanup of cleanups.splice(0)) cleanup();
  };
  const fail = (refusal: Refusal, close = false) => {
    if (done) return;
    finish();
    logger.debug({ applicationId: request.applicationId, status: refusal.status }, refusal.reason);
    upstream?.destroy();
    if (res.headersSent) res.destroy();
    else sendRefusal(res, { refusal, headers: request.pageHeaders, close });
  };
  const idle = idleWatch(timers, limits.idleMs, () => {
    fail({ status: 504, reason: "The activity's server stopped answering." }, true);
  });
  cleanups.push(idle.stop);
  // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 6.3): nothing
  // to meter or stream, and nothing lost if it must be sent again.
  const bodyless = !hasBody(req);

  /** Sends the request to the target: on a pooled connection, or on a new one (`pooled` false). */
  const send = (pooled: boolean) => {
    const cancelConnect = deadline(timers, limits.connectMs, () => {
      fail({ status: 504, reason: "The activity's server did not accept the connection in time." });
    });
    cleanups.push(cancelConnect);
    const sent = openUpstream({
      target: request.target,
      method: req.method ?? 'GET',
      path: request.path,
      headers: targetRequestHeaders(req, request, false),
      allowLoopback: settings.allowLoopback,
      agents: pooled ? settings.agents : null,
      onConnected: cancelConnect,
    });
    upstream = sent;
    let answered = false;
    // The answer must start within responseMs of the whole body having been sent; once it has,
    // only stalls (the idle watch) end it.
    let cancelResponse: () => void = () => undefined;
    sent.on('error', (err) => {
      if (done) return;
      if (pooled && bodyless && !answered && closedWhenReused(sent, err)) {
        // The target closed this pooled connection as it was reused (its keep-alive ran out, a
        // race no timeout on this side rules out): it read nothing, so the request goes again,
        // once, on a new connection, as a browser does.
        cancelConnect();
        cancelResponse();
        send(false);
        return;
      }
      fail(upstreamErrorRefusal(err));
    });
    sent.on('finish', () => {
      if (done) return;
      cancelResponse = deadline(timers, limits.responseMs, () => {
        fail({ status: 504, reason: "The activity's server did not answer in time." });
      });
      cleanups.push(cancelResponse);
    });
    sent.on('response', (answer) => {
      answered = true;
      cancelResponse();
      if (done) {
        answer.resume();
        return;
      }
      relayResponse({ req, res, answer }, request, { idle, fail, finish });
    });
    if (bodyless) {
      sent.end();
      return;
    }
    // Piped, not pipelined: a failed target must not destroy the browser's socket before the
    // page that says so is written.
    const body = meter(limits.maxBodyBytes, idle.touch);
    body.on('error', () => {
      fail({ status: 413, reason: 'The request body is larger than the proxy forwards.' }, true);
    });
    req.pipe(body).pipe(sent);
  };

  res.on('close', () => {
    // The answer is complete, or the browser went away: nothing more to fetch either way.
    const complete = res.writableFinished;
    if (!done) finish();
    if (!complete) upstream?.destroy();
  });
  send(true);
}

/**
 * Whether a request failed because its pooled connection was closed by the target as it was
 * reused: the reset or broken pipe of a socket that had served an earlier request.
 */
function closedWhenReused(sent: ClientRequest, err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return sent.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE');
}

/** Whether a request carries a body: a Transfer-Encoding, or a Content-Length above 0. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

interface RelayHooks {
  idle: { touch: () => void };
  fail: (refusal: Refusal, close?: boolean) => void;
  finish: () => void;
}

/** Sends the target's answer to the browser, policies applied. */
function relayResponse(
  exchange: { req: IncomingMessage; res: ServerResponse; answer: IncomingMessage },
  request: ForwardRequest,
  hooks: RelayHooks,
): void {
  const { req, res, answer } = exchange;
  const status = answer.statusCode ?? 502;
  const headers = returnedResponseHeaders(answer.headers, { websocket: false });
  const location = answer.headers.location;
  if (REDIRECTS.has(status) && location !== undefined) {
    const kept = redirectLocation(location, request, req.url ?? '/');
    if (kept === null) {
      answer.resume();
      hooks.fail({ status: 502, reason: "The activity's server redirected outside the activity." });
      return;
    }
    headers.location = kept;
  }
  res.writeHead(status, { ...headers, ...request.frameHeaders });
  answer.on('data', hooks.idle.touch);
  // Piped rather than pipelined (Node's pipeline makes an AbortController and, when done, a
  // DOMException per call); the browser leaving ends the upstream request (forwardHttp), and an
  // answer cut short ends the browser's.
  answer.on('close', () => {
    if (answer.complete) return;
    hooks.finish();
    res.destroy();
  });
  answer.pipe(res);
}
