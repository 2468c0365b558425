/**
 * A raw voice gateway client for protocol tests: it records every frame (JSON ones as
 * `{op, d, seq}`, binary ones as `{op, seq, payload}`) and sends what a test tells it to.
 *
 * @module
 */
import WebSocket from 'ws';
import { createFrameLog } from './frameLog.js';

export interface VoiceFrame {
  op: number;
  d?: unknown;
  seq?: number;
  /** A binary frame's payload (after `[seq u16][op u8]`). */
  payload?: Buffer;
}

export interface VoiceClient {
  frames: VoiceFrame[];
  next(match: (f: VoiceFrame) => boolean, timeoutMs?: number): Promise<VoiceFrame>;
  op(op: number, timeoutMs?: number): Promise<VoiceFrame>;
  send(op: number, d: unknown): void;
  sendBinary(op: number, payload: Uint8Array): void;
  /** The last sequence number received (-1 before any). */
  lastSeq(): number;
  closed: Promise<{ code: number; reason: string }>;
  raw: WebSocket;
}

/** Opens `ws(s)://<endpoint>/?v=8` (or `path`), resolving once open. */
export async function connectVoice(
  endpoint: string,
  options: { tls?: { ca: string }; path?: string } = {},
): Promise<VoiceClient> {
  const scheme = options.tls === undefined ? 'ws' : 'wss';
  const ws = new WebSocket(
    `${scheme}://${endpoint}${options.path ?? '/?v=8'}`,
    options.tls === undefined ? {} : { ca: options.tls.ca },
  );
  const log = createFrameLog<VoiceFrame>(
    (frames) => JSON.stringify(frames.map((f) => f.op)),
    10_000,
  );
  const { frames, next } = log;
  let seq = -1;
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    let frame: VoiceFrame;
    if (isBinary) {
      frame = { seq: data.readUInt16BE(0), op: data[2] ?? -1, payload: data.subarray(3) };
    } else {
      frame = JSON.parse(data.toString('utf8')) as VoiceFrame;
    }
    if (typeof frame.seq === 'number') seq = frame.seq;
    log.push(frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString('utf8') });
    });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => {
      resolve();
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) => {
      reject(new Error(`HTTP ${response.statusCode ?? '?'}`));
    });
  });
  return {
    frames,
    next,
    op: (op, timeoutMs) => next((f) => f.op === op, timeoutMs),
    send: (op, d) => {
      ws.send(JSON.stringify({ op, d }));
    },
    sendBinary: (op, payload) => {
      ws.send(Buffer.concat([Buffer.from([op]), payload]));
    },
    lastSeq: () => seq,
    closed,
    raw: ws,
  };
}
