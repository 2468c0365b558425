import {
  constants as zlibConstants,
  createDeflate,
  createDeflateRaw,
  deflateRawSync,
  deflateSync,
  type Deflate,
  type DeflateRaw,
} from 'node:zlib';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { FrameEnvelope } from './clientOps.js';
import { decodeEtf, encodeEtf, encodeEtfTerm, etfMapHeader } from './etf.js';

export type Encoding = 'json' | 'etf';

/**
 * One dispatch encoded once for every session that receives it: the frame without its sequence
 * number is built once per encoding, and a session only appends its own `s`.
 */
export class EncodedDispatch {
  private jsonPrefix: Buffer | null = null;
  private etfPrefix: Buffer | null = null;
  private dataJson: string | null = null;
  readonly type: string;
  readonly data: unknown;

  constructor(type: string, data: unknown) {
    this.type = type;
    this.data = data;
  }

  /** `d` as JSON (for the replay store). */
  json(): string {
    this.dataJson ??= JSON.stringify(this.data);
    return this.dataJson;
  }

  frame(encoding: Encoding, seq: number): string | Buffer {
    if (encoding === 'json') {
      // UTF-8 once per event; each session adds only its `s` (a copy, no re-encoding).
      const prefix = (this.jsonPrefix ??= Buffer.from(
        `{"op":0,"t":${JSON.stringify(this.type)},"d":${this.json()},"s":`,
      ));
      const tail = `${seq}}`;
      const frame = Buffer.allocUnsafe(prefix.length + tail.length);
      prefix.copy(frame, 0);
      frame.write(tail, prefix.length, 'latin1');
      return frame;
    }
    this.etfPrefix ??= Buffer.concat([
      Buffer.from([131]),
      etfMapHeader(4),
      encodeEtfTerm('op'),
      encodeEtfTerm(0),
      encodeEtfTerm('t'),
      encodeEtfTerm(this.type),
      encodeEtfTerm('d'),
      encodeEtfTerm(this.etfData()),
      encodeEtfTerm('s'),
    ]);
    return Buffer.concat([this.etfPrefix, encodeEtfTerm(seq)]);
  }

  /** `d` as the ETF encoder takes it. */
  protected etfData(): unknown {
    return this.data;
  }
}

/**
 * A dispatch whose `d` is already JSON text (a cached GUILD_CREATE, a replayed event). Its frame
 * is built once too, so every session that gets the same GUILD_CREATE shares its bytes.
 */
export class PreserializedDispatch extends EncodedDispatch {
  private readonly text: string;

  constructor(type: string, text: string) {
    super(type, undefined);
    this.text = text;
  }

  override json(): string {
    return this.text;
  }

  protected override etfData(): unknown {
    return JSON.parse(this.text) as unknown;
  }
}

/** A non-dispatch frame (`s` and `t` null). */
export function controlFrame(encoding: Encoding, op: number, d: unknown): string | Buffer {
  const frame = { op, d, s: null, t: null };
  return encoding === 'json' ? JSON.stringify(frame) : encodeEtf(frame);
}

/** Thrown for a client frame that cannot be decoded (close 4002). */
export class FrameDecodeError extends Error {
  override readonly name = 'FrameDecodeError';
}

/** Decodes a client frame into `{op, d}`; throws FrameDecodeError. */
export function decodeFrame(encoding: Encoding, raw: Buffer): { op: number; d: unknown } {
  let value: unknown;
  try {
    value = encoding === 'json' ? JSON.parse(raw.toString('utf8')) : decodeEtf(raw);
  } catch (err) {
    throw new FrameDecodeError(err instanceof Error ? err.message : 'undecodable frame');
  }
  const frame = FrameEnvelope.safeParse(value);
  if (!frame.success) throw new FrameDecodeError('a frame is an object with an integer op');
  return { op: frame.data.op, d: frame.data.d };
}

/**
 * The deflate context of one `compress=zlib-stream` connection. Every message is written with
 * Z_SYNC_FLUSH. An 8 KiB window (windowBits 13) and memLevel 7 cost about 130 KiB of memory per
 * connection instead of zlib's defaults' 230 KiB (32 KiB window, memLevel 8), for the same size
 * on gateway frames (each repeats mostly the previous few); any standard inflater (32 KiB window:
 * zlib-sync, pako, node:zlib) reads a stream deflated with a smaller window.
 */
const ZLIB_STREAM_OPTIONS = {
  windowBits: 13,
  memLevel: 7,
  flush: zlibConstants.Z_SYNC_FLUSH,
  chunkSize: 16 * 1024,
};

/**
 * A message deflated on its own, ending with a sync flush (not a final block): before login each
 * message of a zlib-stream connection is one of these, with no context kept between them.
 */
const ONE_SHOT_OPTIONS = {
  windowBits: 13,
  memLevel: 7,
  finishFlush: zlibConstants.Z_SYNC_FLUSH,
};

/**
 * How bytes reach one socket: plain, one zlib stream for the whole connection (`compress=
 * zlib-stream`: each message ends with a Z_SYNC_FLUSH, so with 00 00 ff ff), or each payload
 * deflated on its own (Identify `compress: true`).
 *
 * A zlib stream is a 2-byte header followed by deflate blocks; a sync flush ends a block on a byte
 * boundary, and a block may refer back only to bytes the deflater itself produced. So until the
 * connection logs in ({@link startStream}), each message is deflated alone into blocks that need
 * no earlier context (the first one with the zlib header): the client inflates them as the one
 * stream it expects, and the server keeps no deflate context (some 130 KiB) for a connection that
 * never identifies. From the login on, one raw deflate context continues the same stream.
 */
export class Transport {
  private zlib: Deflate | DeflateRaw | null = null;
  /** `compress=zlib-stream` was asked for. */
  readonly zlibStream: boolean;
  /** The close the server sent first (code and reason), or null: none yet. */
  closedWith: { code: number; reason: string } | null = null;
  /** Whether the stream's zlib header has been sent. */
  private headerSent = false;
  private pending: Buffer[] = [];
  /** Flushes not yet sent; a close waits for them so nothing queued is lost. */
  private flushing = 0;
  /** The messages of this turn of the event loop, while the socket is corked for them. */
  private batch: { open: boolean; left: number } | null = null;
  private closeAfterFlush: { code: number; reason: string } | null = null;
  /** Identify's `compress: true`: zlib-deflate each JSON payload. */
  compressPayloads = false;

  private readonly ws: WebSocket;
  /** The raw socket: corked while deflated messages are on their way, so they leave together. */
  private readonly socket: Duplex;
  readonly encoding: Encoding;

  constructor(ws: WebSocket, options: { socket: Duplex; encoding: Encoding; zlibStream: boolean }) {
    this.ws = ws;
    this.socket = options.socket;
    this.encoding = options.encoding;
    this.zlibStream = options.zlibStream;
  }

  /** Whether a deflate context is held for this connection (only once it logged in). */
  get hasDeflateContext(): boolean {
    return this.zlib !== null;
  }

  /** The connection logged in: zlib-stream continues through one context from here on. */
  startStream(): void {
    if (!this.zlibStream || this.zlib !== null || !this.open) return;
    // After HELLO the header is out and a raw context goes on; otherwise it starts the stream.
    const zlib = this.headerSent
      ? createDeflateRaw(ZLIB_STREAM_OPTIONS)
      : createDeflate(ZLIB_STREAM_OPTIONS);
    this.headerSent = true;
    zlib.on('data', (chunk: Buffer) => this.pending.push(chunk));
    // A socket that went away mid-flush has nothing left to tell.
    zlib.on('error', () => undefined);
    this.zlib = zlib;
  }

  get open(): boolean {
    return this.ws.readyState === 1;
  }

  send(payload: string | Buffer): void {
    if (!this.open) return;
    if (this.zlibStream && this.zlib === null) {
      // Before login: this message alone, as blocks that need nothing before them.
      if (!this.headerSent) {
        // The stream's first message: zlib header and blocks (a stream begun, never finished).
        this.headerSent = true;
        this.ws.send(deflateSync(payload, ONE_SHOT_OPTIONS));
      } else {
        this.ws.send(deflateRawSync(payload, ONE_SHOT_OPTIONS));
      }
      return;
    }
    const zlib = this.zlib;
    if (zlib !== null) {
      // Messages sent in the same turn of the event loop (101 + HELLO, READY + GUILD_CREATE) are
      // deflated one by one but reach the socket in one write: the socket stays corked until the
      // turn is over and the last of them is out; later messages do not hold them back.
      let batch = this.batch;
      if (batch === null) {
        const opened = { open: true, left: 0 };
        this.batch = opened;
        this.socket.cork();
        setImmediate(() => {
          opened.open = false;
          if (this.batch === opened) this.batch = null;
          if (opened.left === 0) this.socket.uncork();
        });
        batch = opened;
      }
      const mine = batch;
      mine.left++;
      this.flushing++;
      // One deflate call per message: the stream's own flush flag ends each write with a sync
      // flush, so the callback runs once this message's bytes (ending 00 00 ff ff) are pending.
      zlib.write(payload, () => {
        this.flushing--;
        if (this.pending.length > 0) {
          const out = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
          this.pending = [];
          if (out !== undefined && this.open) this.ws.send(out);
        }
        if (--mine.left === 0 && !mine.open) this.socket.uncork();
        if (this.flushing === 0 && this.closeAfterFlush !== null) {
          const { code, reason } = this.closeAfterFlush;
          this.closeAfterFlush = null;
          this.close(code, reason);
        }
      });
      return;
    }
    if (this.compressPayloads && this.encoding === 'json') {
      this.ws.send(deflateSync(payload));
      return;
    }
    // JSON frames go out as text, even when built as bytes.
    this.ws.send(payload, { binary: this.encoding === 'etf' && typeof payload !== 'string' });
  }

  close(code: number, reason = ''): void {
    if (this.closedWith === null && this.ws.readyState < 2) this.closedWith = { code, reason };
    if (this.flushing > 0) {
      this.closeAfterFlush = { code, reason };
      return;
    }
    if (this.ws.readyState === 0 || this.ws.readyState === 1) this.ws.close(code, reason);
    this.dispose();
  }

  dispose(): void {
    if (this.zlib !== null) {
      const zlib = this.zlib;
      this.zlib = null;
      // Let queued flushes finish before the context is freed.
      zlib.end();
    }
  }
}
