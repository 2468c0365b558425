/**
 * @module activities/proxyWs: a WebSocket upgrade on an activity origin forwarded to its mapping
 * target. The target's connection is opened under the same address rules and waits as HTTP
 * requests; once it answers 101 the two sockets are joined byte for byte (the WebSocket frames
 * are the endpoints' business). A target that refuses the upgrade, is down or too slow gets
 * the browser a short HTTP answer and a closed socket.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { returnedResponseHeaders } from './proxyHeaders.js';
import { targetRequestHeaders, type ForwardRequest, type ProxySettings } from './proxyHttp.js';
import { writeRawRefusal } from './proxyPages.js';
import type { Refusal } from './proxyRoute.js';
import { openUpstream, upstreamErrorRefusal } from './proxyUpstream.js';

/** A WebSocket upgrade request as the server's 'upgrade' event hands it over. */
export interface UpgradeRequest {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
}

/** The 101 answer's head, as the browser receives it. */
function switchingProtocols(headers: ReturnType<typeof returnedResponseHeaders>): string {
  const lines = ['HTTP/1.1 101 Switching Protocols'];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${String(one)}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Joins the browser's socket and the target's until either closes. */
function join(browser: Duplex, target: Duplex, tunnels: Set<Duplex>): void {
  tunnels.add(browser);
  const close = () => {
    tunnels.delete(browser);
    browser.destroy();
    target.destroy();
  };
  browser.on('error', close);
  target.on('error', close);
  browser.on('close', close);
  target.on('close', close);
  browser.pipe(target);
  target.pipe(browser);
}

/** Forwards one WebSocket upgrade; never throws. */
export function forwardUpgrade(
  upgrade: UpgradeRequest,
  request: ForwardRequest,
  settings: ProxySettings,
): void {
  const { req, socket, head } = upgrade;
  // The browser left while the mappings were read: nothing to open.
  if (socket.destroyed) return;
  const { limits, timers, logger } = settings;
  let done = false;
  const cancels: (() => void)[] = [];
  const settle = () => {
    done = true;
    for (const cancel of cancels.splice(0)) cancel();
  };
  const fail = (refusal: Refusal) => {
    if (done) return;
    settle();
    logger.debug({ applicationId: request.applicationId, status: refusal.status }, refusal.reason);
    upstream.destroy();
    writeRawRefusal(socket, refusal, request.pageHeaders);
  };
  cancels.push(
    timers.schedule(() => {
      fail({ status: 504, reason: "The activity's server did not accept the WebSocket in time." });
    }, limits.connectMs + limits.responseMs),
  );
  const upstream = openUpstream({
    target: request.target,
    method: 'GET',
    path: request.path,
    headers: targetRequestHeaders(req, request, true),
    allowLoopback: settings.allowLoopback,
    agents: null,
    onConnected: () => undefined,
  });
  upstream.on('error', (err) => {
    fail(upstreamErrorRefusal(err));
  });
  upstream.on('response', (answer) => {
    answer.resume();
    fail({ status: 502, reason: "The activity's server did not accept the WebSocket." });
  });
  upstream.on('upgrade', (answer, targetSocket, targetHead) => {
    if (done) {
      targetSocket.destroy();
      return;
    }
    settle();
    socket.write(switchingProtocols(returnedResponseHeaders(answer.headers, { websocket: true })));
    if (targetHead.length > 0) socket.write(targetHead);
    if (head.length > 0) targetSocket.write(head);
    join(socket, targetSocket, settings.tunnels);
  });
  socket.on('error', () => {
    if (!done) settle();
    upstream.destroy();
  });
  socket.on('close', () => {
    if (!done) settle();
    upstream.destroy();
  });
  upstream.end();
}
