/**
 * @module voice/gateway/connection: the connection loop. An upgrade to `/?v=8` becomes a
 * WebSocket (other paths get 404, other versions 400, an address over its cap of unidentified
 * connections 429); the connection gets Hello and its frames are handled one at a time. A normal
 * close ends the member's place; any other drop keeps it for a Resume. The WebSocket and the
 * media relay listen on one port number.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { VoiceOpcodes as Op } from '@guildhall/protocol';
import { WebSocketServer, type WebSocket } from 'ws';
import type { DualListener } from '../listener.js';
import type { MediaRelay } from '../relay/index.js';
import { MAX_CLIENT_FRAME } from './limits.js';
import type { Membership } from './membership.js';
import type { VoiceNodeDeps, VoiceNodeOptions } from './options.js';
import type { FrameHandler } from './receive.js';
import { sendUnsequenced } from './send.js';
import type { Conn, VoiceNodeState } from './state.js';

const VOICE_PATH = /^\/(?:\?|$)/;
const VERSION = '8';
/** Normal closes end a member's place at once; any other drop keeps it for a Resume. */
const LEAVING_CLOSES = new Set([1000, 1001]);

/** The handler of the voice port's upgrades (requests for a WebSocket). */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

export function createUpgradeHandler(
  node: VoiceNodeState,
  membership: Membership,
  onFrame: FrameHandler,
): UpgradeHandler {
  const { conns, deps, unidentified } = node;
  const { options, clock } = deps;
  const { removeMember } = membership;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME });
  const clientAddress =
    deps.clientAddress ?? ((request: IncomingMessage) => request.socket.remoteAddress ?? '');

  const onConnection = (ws: WebSocket, address: string) => {
    const now = clock.now();
    const conn: Conn = {
      ws,
      lastHeartbeatMs: now,
      member: null,
      windowStartMs: now,
      windowFrames: 0,
      busy: false,
    };
    conns.add(conn);
    unidentified.add(conn, address);
    sendUnsequenced(conn, Op.HELLO, { v: 8, heartbeat_interval: options.heartbeatIntervalMs });
    // Frames are handled one at a time, in order (an Identify waits on storage).
    let queue = Promise.resolve();
    ws.on('message', (data, isBinary) => {
      queue = queue.then(() => onFrame(conn, data, isBinary));
    });
    ws.on('error', () => {
      ws.terminate();
    });
    ws.on('close', (code) => {
      conns.delete(conn);
      unidentified.remove(conn);
      const member = conn.member;
      if (member?.conn !== conn) return;
      member.conn = null;
      if (LEAVING_CLOSES.has(code) || node.closing) removeMember(member, `closed ${code}`);
      else member.droppedAtMs = clock.now();
    });
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = request.url ?? '/';
    const version = new URLSearchParams(url.split('?')[1] ?? '').get('v');
    if (!VOICE_PATH.test(url) || node.closing) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (version !== VERSION) {
      const body = 'Voice gateway version 8 only: connect to /?v=8.';
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      return;
    }
    // Too many connections from one address without Identify: refused before the handshake.
    const address = clientAddress(request);
    if (!unidentified.admit(address, socket)) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
      onConnection(ws, address);
    });
  };

  return onUpgrade;
}

/**
 * The WebSocket and the relay on one port number. With port 0 the TCP port is chosen first and
 * the UDP one must match it: a taken UDP number means another try.
 */
export async function listenBoth(
  listener: DualListener,
  deps: VoiceNodeDeps,
  options: VoiceNodeOptions,
): Promise<{ port: number; relay: MediaRelay }> {
  const attempts = options.port === 0 ? 8 : 1;
  for (let attempt = 1; ; attempt++) {
    const port = await listener.listen(options.host, options.port);
    try {
      return { port, relay: await deps.openRelay(options.host, port) };
    } catch (err) {
      await listener.close();
      if (attempt >= attempts) throw err;
    }
  }
}
