/**
 * @module gateway/connection: the connection loop. An upgrade at /gateway becomes a connection
 * (refused up front when its address holds too many that have not logged in: the count of
 * http/unidentified.ts, which the voice gateway keeps too); each frame it sends is counted
 * against the client event budget, decoded, parsed (gateway/clientOps.ts) and handed to the
 * heartbeat answer, the handshake or the commands. Its close ends its session when the client
 * closed normally; otherwise the session waits for a RESUME.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayCloseCodes as Close, GatewayOpcodes as Op } from '@guildhall/protocol';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Clock } from '../domain/clock.js';
import { trackUnidentified } from '../http/unidentified.js';
import {
  CLIENT_OPS,
  ClientFrame,
  KNOWN_OPS,
  type CommandFrame,
  type LoginFrame,
} from './clientOps.js';
import { FrameDecodeError, Transport, decodeFrame, type Encoding } from './frames.js';
import type { GatewayHooks } from './hooks.js';
import type { Lifecycle } from './lifecycle.js';
import type { GatewayOptions } from './options.js';
import { helloPayload } from './payloads.js';
import type { Sender } from './send.js';
import type { Connection, Session } from './session.js';

/** The session a connection serves now (read afresh: a login sets it while awaited). */
const sessionOf = (conn: Connection): Session | null => conn.session;

const GATEWAY_PATH = /^\/gateway\/?(?:\?|$)/;
const SUPPORTED_VERSIONS = new Set(['9', '10']);
const DEFAULT_VERSION = '10';
/** The largest frame a client may send, bytes. */
const MAX_CLIENT_PAYLOAD = 16 * 1024;
/** The client event budget's window (`clientEventsPerMinute`). */
const CLIENT_EVENT_WINDOW_MS = 60_000;
/** The close codes with which a client ends its session (no RESUME): normal and going away. */
const SESSION_ENDING_CLOSES = new Set([1000, 1001]);

/** What the loop hands frames to. */
export interface FrameHandlers {
  /** IDENTIFY or RESUME; `admit` counts the connection as logged in once it is accepted. */
  login(conn: Connection, frame: LoginFrame, admit: () => void): Promise<void>;
  command(conn: Connection, session: Session, frame: CommandFrame): Promise<void>;
  /** The connection closed while serving `session`, ending it (`ended`) or leaving it resumable. */
  detached(session: Session, ended: boolean): void;
}

export function createConnections(deps: {
  /** The real clock: heartbeats, the client event budget, the identify deadline. */
  clock: Clock;
  hooks: GatewayHooks;
  logger: Logger;
  /** Where each close is logged and counted. */
  lifecycle: Pick<Lifecycle, 'closed'>;
  options: GatewayOptions;
  send: Sender;
  clientAddress: (request: IncomingMessage) => string;
  handlers: FrameHandlers;
  closing: () => boolean;
}) {
  const { clock, logger, options, send, handlers } = deps;
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MAX_CLIENT_PAYLOAD,
  });
  const connections = new Set<Connection>();
  /** Each connection's last queued command (see onFrame). */
  const commandQueues = new WeakMap<Connection, Promise<void>>();
  /** Open connections not yet identified: a cap per client address, and a deadline. */
  const unidentified = trackUnidentified<Connection>({
    clock,
    limits: {
      maxPerAddress: options.maxUnidentifiedPerAddress,
      timeoutMs: options.identifyTimeoutMs,
    },
  });

  /**
   * IDENTIFY or RESUME accepted: the connection leaves the unidentified count and, with
   * zlib-stream, gets its deflate context (a connection that never logs in costs none).
   */
  const admit = (conn: Connection) => {
    unidentified.remove(conn);
    conn.transport.startStream();
  };

  const onFrame = async (conn: Connection, raw: Buffer) => {
    const now = clock.now();
    if (now - conn.windowStart >= CLIENT_EVENT_WINDOW_MS) {
      conn.windowStart = now;
      conn.windowCount = 0;
    }
    if (++conn.windowCount > options.clientEventsPerMinute) {
      send.close(conn, Close.RATE_LIMITED, 'You are being rate limited.');
      return;
    }
    let decoded: { op: number; d: unknown };
    try {
      decoded = decodeFrame(conn.encoding, raw);
    } catch (err) {
      if (err instanceof FrameDecodeError) {
        send.close(conn, Close.DECODE_ERROR, 'Error while decoding payload.');
        return;
      }
      throw err;
    }
    const { op } = decoded;
    if (op === Op.HEARTBEAT) {
      conn.lastBeatAt = now;
      if (deps.hooks.acknowledgeHeartbeat?.(conn.session) !== false) {
        send.control(conn, Op.HEARTBEAT_ACK, null);
      }
      return;
    }
    const parsed = ClientFrame.safeParse(decoded);
    const frame = parsed.success ? parsed.data : null;
    if (op === Op.IDENTIFY || op === Op.RESUME) {
      if (conn.session !== null || conn.busy) {
        send.close(conn, Close.ALREADY_AUTHENTICATED, 'You sent more than one identify payload.');
        return;
      }
      if (frame?.op !== Op.IDENTIFY && frame?.op !== Op.RESUME) {
        send.close(conn, Close.DECODE_ERROR, 'Invalid payload.');
        return;
      }
      conn.busy = true;
      try {
        await handlers.login(conn, frame, () => {
          admit(conn);
        });
      } finally {
        conn.busy = false;
      }
      const loggedIn = sessionOf(conn);
      if (loggedIn !== null) deps.hooks.received?.(loggedIn, op, decoded.d);
      return;
    }
    const session = conn.session;
    if (!KNOWN_OPS.has(op) || op === Op.DISPATCH || op === Op.HELLO) {
      send.close(conn, Close.UNKNOWN_OPCODE, 'Unknown opcode.');
      return;
    }
    if (session === null) {
      send.close(conn, Close.NOT_AUTHENTICATED, 'You sent a payload prior to identifying.');
      return;
    }
    if (!CLIENT_OPS.has(op)) {
      send.close(conn, Close.UNKNOWN_OPCODE, 'Unknown opcode.');
      return;
    }
    if (
      frame === null ||
      frame.op === Op.HEARTBEAT ||
      frame.op === Op.IDENTIFY ||
      frame.op === Op.RESUME
    ) {
      send.close(conn, Close.UNKNOWN_OPCODE, 'Invalid payload for opcode.');
      return;
    }
    // A connection's commands run one after another, in the order they came (heartbeats never
    // wait behind them): a presence and its clearing a moment later are stored and announced in
    // that order.
    deps.hooks.received?.(session, op, decoded.d);
    const next = (commandQueues.get(conn) ?? Promise.resolve()).then(() =>
      handlers.command(conn, session, frame),
    );
    commandQueues.set(
      conn,
      next.catch(() => undefined),
    );
    await next;
  };

  const onConnection = (
    ws: WebSocket,
    { request, socket, address }: { request: IncomingMessage; socket: Duplex; address: string },
  ) => {
    const url = new URL(request.url ?? '/', 'http://gateway');
    const v = url.searchParams.get('v') ?? DEFAULT_VERSION;
    const encodingParam = url.searchParams.get('encoding') ?? 'json';
    const encoding: Encoding = encodingParam === 'etf' ? 'etf' : 'json';
    const transport = new Transport(ws, {
      socket,
      encoding,
      zlibStream: url.searchParams.get('compress') === 'zlib-stream',
    });
    const now = clock.now();
    const conn: Connection = {
      ws,
      transport,
      encoding,
      version: Number(v),
      socket,
      lastBeatAt: now,
      windowStart: now,
      windowCount: 0,
      session: null,
      busy: false,
    };
    if (!SUPPORTED_VERSIONS.has(v)) {
      send.close(conn, Close.INVALID_API_VERSION, 'Invalid API version.');
      return;
    }
    if (encodingParam !== 'json' && encodingParam !== 'etf') {
      send.close(conn, Close.DECODE_ERROR, 'Invalid encoding.');
      return;
    }
    connections.add(conn);
    unidentified.add(conn, address);
    ws.on('message', (raw: RawData) => {
      const bytes = Buffer.isBuffer(raw)
        ? raw
        : Array.isArray(raw)
          ? Buffer.concat(raw)
          : Buffer.from(raw);
      onFrame(conn, bytes).catch((err: unknown) => {
        logger.error({ err }, 'gateway: frame handling failed');
        send.close(conn, Close.UNKNOWN_ERROR, 'Unknown error.');
      });
    });
    ws.on('error', () => undefined);
    ws.on('close', (code: number, reason: Buffer) => {
      const sent = conn.transport.closedWith;
      deps.lifecycle.closed(
        conn,
        sent === null
          ? { code, reason: reason.toString(), by: 'client' }
          : { ...sent, by: 'server' },
      );
      connections.delete(conn);
      unidentified.remove(conn);
      conn.transport.dispose();
      const session = conn.session;
      if (session?.conn !== conn) return;
      session.conn = null;
      session.detachedAt = clock.now();
      // A client that closes normally ends its session (the platform's rule for 1000 and 1001).
      handlers.detached(session, !deps.closing() && SESSION_ENDING_CLOSES.has(code));
    });
    send.control(conn, Op.HELLO, helloPayload(options.heartbeatIntervalMs));
  };

  /** Serves WebSocket upgrades at /gateway and /gateway/ of `server`. */
  const attach = (server: Server) => {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (deps.closing() || !GATEWAY_PATH.test(request.url ?? '')) {
        socket.destroy();
        return;
      }
      // Too many connections from one address that have not logged in: refused before the
      // handshake, so they cost no WebSocket at all.
      const address = deps.clientAddress(request);
      if (!unidentified.admit(address, socket)) return;
      // The 101 answer and HELLO leave in one write.
      socket.cork();
      wss.handleUpgrade(request, socket, head, (ws) => {
        onConnection(ws, { request, socket, address });
        socket.uncork();
      });
    });
  };

  return {
    attach,
    /** The open connections (for the sweep and shutdown). */
    all: connections as ReadonlySet<Connection>,
    /** Whether a connection has not identified in time (for the sweep). */
    identifyOverdue: (conn: Connection, nowMs: number) => unidentified.overdue(conn, nowMs),
    closeServer: () => {
      wss.close();
    },
  };
}

export type Connections = ReturnType<typeof createConnections>;
