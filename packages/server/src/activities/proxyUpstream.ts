/**
 * @module activities/proxyUpstream: the proxy host's requests to mapping targets, under the
 * webhook address rules (delivery/urlPolicy.ts): only public addresses, loopback too when
 * `--activity-allow-loopback` is on, private ranges never. IP literals are checked before
 * connecting; host names when they resolve (guardedLookup, so a DNS answer cannot change
 * between the check and the connection); and the connected socket's peer once more. Redirects
 * are never followed (Node's client does not), and every wait is bounded by the caller's timers.
 */
import http, { type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { addressAllowed, guardedLookup } from '../delivery/urlPolicy.js';
import type { ProxyTarget, Refusal } from './proxyRoute.js';

/** The code of a refused address, as guardedLookup names it. */
const ADDRESS_REFUSED = 'EADDRNOTALLOWED';

/** Why the target's address is refused before connecting (an IP literal), or null. */
export function literalAddressRefusal(target: ProxyTarget, allowLoopback: boolean): Refusal | null {
  if (isIP(target.hostname) === 0 || addressAllowed(target.hostname, allowLoopback)) return null;
  return addressRefusal();
}

/** The refusal of a target whose address the policy forbids (the address is never named). */
export function addressRefusal(): Refusal {
  return {
    status: 502,
    reason: "This URL mapping's target is not a public address, which the proxy does not reach.",
  };
}

/** What a failed connection to the target answers. */
export function upstreamErrorRefusal(err: unknown): Refusal {
  if ((err as { code?: unknown }).code === ADDRESS_REFUSED) return addressRefusal();
  return { status: 502, reason: "The activity's server could not be reached." };
}

export interface UpstreamRequest {
  target: ProxyTarget;
  method: string;
  path: string;
  headers: OutgoingHttpHeaders;
  allowLoopback: boolean;
  /**
   * Pooled connections (plain HTTP requests); none (a new connection) for WebSocket upgrades and
   * for a request sent again because its pooled connection was closed (proxyHttp.ts).
   */
  agents: { http: http.Agent; https: https.Agent } | null;
  /** Called once the connection is up and its peer checked (at once for a reused one). */
  onConnected: () => void;
}

/** Checks a fresh connection's peer; a forbidden one is destroyed with the lookup's error code. */
function checkPeer(socket: Socket, allowLoopback: boolean, onConnected: () => void): void {
  const address = socket.remoteAddress;
  if (address === undefined || !addressAllowed(address, allowLoopback)) {
    socket.destroy(Object.assign(new Error('peer address not allowed'), { code: ADDRESS_REFUSED }));
    return;
  }
  onConnected();
}

/** Starts a request to the target (the caller writes the body and handles its events). */
export function openUpstream(request: UpstreamRequest): ClientRequest {
  const { target, allowLoopback } = request;
  const secure = target.protocol === 'https:';
  const options: https.RequestOptions = {
    host: target.hostname,
    port: target.port,
    method: request.method,
    path: request.path,
    headers: request.headers,
    lookup: guardedLookup(allowLoopback),
    agent: request.agents === null ? false : secure ? request.agents.https : request.agents.http,
    ...(secure && isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
  };
  const upstream = secure ? https.request(options) : http.request(options);
  upstream.on('socket', (socket: Socket) => {
    if (!socket.connecting) {
      request.onConnected();
      return;
    }
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      checkPeer(socket, allowLoopback, request.onConnected);
    });
  });
  return upstream;
}

/** The pooled agents of one proxy host (closed with it). */
export function createAgents(): { http: http.Agent; https: https.Agent } {
  return {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };
}
