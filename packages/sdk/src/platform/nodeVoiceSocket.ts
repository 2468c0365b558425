/**
 * The voice WebSocket of a Node voice connection (nodeVoice.ts): opening it (`?v=8`), reading its
 * JSON and binary messages with the sequence number the server last sent (`seq_ack`), the
 * heartbeats (3/6) that find a dead connection, and sending. What the messages mean is the
 * connection's.
 *
 * @module
 */
import WebSocket from 'ws';
import type { Logger } from '../log.js';

/** Voice gateway opcodes (same values as `VoiceOpcodes` in @guildhall/protocol). */
export const VoiceOp = {
  Identify: 0,
  SelectProtocol: 1,
  Ready: 2,
  Heartbeat: 3,
  SessionDescription: 4,
  Speaking: 5,
  HeartbeatAck: 6,
  Resume: 7,
  Hello: 8,
  Resumed: 9,
  ClientsConnect: 11,
  Video: 12,
  ClientDisconnect: 13,
  MediaSinkWants: 15,
} as const;

/** The biggest voice gateway message accepted (MLS welcomes of large calls are tens of KB). */
const MAX_MESSAGE_BYTES = 1 << 20;

/** What the socket tells its connection. */
export interface VoiceSocketHooks {
  /** The WebSocket opened: Identify or Resume. */
  opened: () => void;
  /** A JSON message other than Hello and Heartbeat ACK, which the socket handles. */
  json: (op: number, data: Record<string, unknown>) => void;
  /** A binary message (DAVE's): its opcode and payload. */
  binary: (op: number, payload: Buffer) => void;
  /** The WebSocket closed (not after `close()`). */
  closed: (code: number, reason: string) => void;
  /** The platform's WebSocket refused the URL. */
  unusable: (url: string, error: unknown) => void;
}

export class VoiceSocket {
  readonly #url: string;
  readonly #logger: Logger;
  readonly #hooks: VoiceSocketHooks;
  #ws: WebSocket | null = null;
  /** The last sequence number the server sent (`seq_ack`), -1 before any. */
  #seq = -1;
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #unacked = 0;

  constructor(url: string, logger: Logger, hooks: VoiceSocketHooks) {
    this.#url = url;
    this.#logger = logger;
    this.#hooks = hooks;
  }

  /** The last sequence number the server sent, for Resume and heartbeats. */
  get seq(): number {
    return this.#seq;
  }

  /** Opens the WebSocket (again, to resume). */
  open(): void {
    const url = this.#url;
    this.#logger.verbose(`Voice: connecting to ${url}`);
    let ws: WebSocket;
    try {
      ws = new WebSocket(url, { maxPayload: MAX_MESSAGE_BYTES, handshakeTimeout: 10_000 });
    } catch (error) {
      this.#hooks.unusable(url, error);
      return;
    }
    this.#ws = ws;
    ws.binaryType = 'nodebuffer';
    ws.on('open', () => {
      if (this.#ws !== ws) return;
      this.#hooks.opened();
    });
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (this.#ws !== ws) return;
      if (isBinary) this.#onBinary(data);
      else this.#onJson(data.toString('utf8'));
    });
    ws.on('error', (error) => {
      if (this.#ws !== ws) return;
      this.#logger.verbose(`Voice: the WebSocket failed (${error.message}).`);
    });
    ws.on('close', (code: number, reason: Buffer) => {
      if (this.#ws !== ws) return;
      this.#stopHeartbeat();
      this.#ws = null;
      this.#hooks.closed(code, reason.toString('utf8'));
    });
  }

  sendJson(op: number, d: unknown): void {
    if (this.#ws?.readyState === WebSocket.OPEN) this.#ws.send(JSON.stringify({ op, d }));
  }

  sendBinary(op: number, payload: Uint8Array): void {
    if (this.#ws?.readyState !== WebSocket.OPEN) return;
    const frame = Buffer.alloc(1 + payload.length);
    frame[0] = op;
    frame.set(payload, 1);
    this.#ws.send(frame);
  }

  /** Closes the WebSocket for good (the call ended); no `closed` follows. */
  close(): void {
    this.#stopHeartbeat();
    const ws = this.#ws;
    this.#ws = null;
    if (ws !== null) {
      if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'call ended');
      else ws.terminate();
    }
  }

  #onJson(text: string): void {
    let packet: unknown;
    try {
      packet = JSON.parse(text);
    } catch {
      this.#logger.warn('Voice: the server sent a message that is not JSON; ignored.');
      return;
    }
    if (typeof packet !== 'object' || packet === null) return;
    const { op, d, seq } = packet as { op?: unknown; d?: unknown; seq?: unknown };
    if (Number.isInteger(seq) && (seq as number) >= 0) this.#seq = seq as number;
    if (!Number.isInteger(op)) return;
    const data = typeof d === 'object' && d !== null ? (d as Record<string, unknown>) : {};
    if (op === VoiceOp.Hello) this.#onHello(data);
    else if (op === VoiceOp.HeartbeatAck) this.#unacked = 0;
    else this.#hooks.json(op as number, data);
  }

  #onBinary(data: Buffer): void {
    if (data.length < 3) return;
    this.#seq = data.readUInt16BE(0);
    this.#hooks.binary(data.readUInt8(2), data.subarray(3));
  }

  #onHello(data: Record<string, unknown>): void {
    const interval = data['heartbeat_interval'];
    if (typeof interval !== 'number' || !(interval >= 250 && interval <= 600_000)) {
      this.#logger.warn('Voice: Hello carries no usable heartbeat interval.');
      return;
    }
    this.#stopHeartbeat();
    this.#unacked = 0;
    this.#heartbeat = setInterval(() => {
      if (this.#unacked >= 3) {
        // Three beats unanswered: the connection is a zombie; drop it and resume.
        this.#logger.warn('Voice: heartbeats unanswered; reconnecting.');
        this.#ws?.terminate();
        return;
      }
      this.#unacked += 1;
      this.sendJson(VoiceOp.Heartbeat, { t: Date.now(), seq_ack: this.#seq });
    }, interval);
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }
}
