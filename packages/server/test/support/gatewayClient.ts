/**
 * A small gateway client for tests: a real `ws` socket that decodes JSON, ETF, zlib-stream and
 * per-payload zlib, and lets a test wait for frames and for the close.
 *
 * @module
 */
import { constants as zlibConstants, inflateSync } from 'node:zlib';
import WebSocket from 'ws';
import { decodeEtf, encodeEtf } from '../../src/gateway/etf.js';
import { createFrameLog } from './frameLog.js';

export interface Frame {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

export interface GatewayClientOptions {
  v?: string;
  encoding?: 'json' | 'etf';
  compress?: string;
  /** Expect Identify `compress: true` payloads (each binary message deflated alone). */
  payloadCompression?: boolean;
  /** The path, `/gateway` by default. */
  path?: string;
}

export interface GatewayClient {
  frames: Frame[];
  /** Resolves with the first frame (from the start) matching, waiting if needed. */
  next(match: (f: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  dispatch(type: string, timeoutMs?: number): Promise<Frame>;
  send(op: number, d: unknown): void;
  sendRaw(data: string | Buffer): void;
  /** The close code, once closed. */
  closed: Promise<{ code: number; reason: string }>;
  close(code?: number): Promise<void>;
  raw: WebSocket;
}

/** Connects to `baseUrl`'s gateway (the http(s) base URL of a listening test server). */
export async function connectGateway(
  gatewayUrl: string,
  options: GatewayClientOptions = {},
): Promise<GatewayClient> {
  const url = new URL(gatewayUrl);
  if (options.path !== undefined) url.pathname = options.path;
  url.searchParams.set('v', options.v ?? '10');
  url.searchParams.set('encoding', options.encoding ?? 'json');
  if (options.compress !== undefined) url.searchParams.set('compress', options.compress);
  const ws = new WebSocket(url);
  const log = createFrameLog<Frame>((frames) => JSON.stringify(frames.map((f) => [f.op, f.t])));
  let compressed = Buffer.alloc(0);
  let inflatedLength = 0;
  const decode = (data: Buffer, isBinary: boolean): unknown => {
    let bytes = data;
    if (options.compress === 'zlib-stream') {
      compressed = Buffer.concat([compressed, data]);
      const all = inflateSync(compressed, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      bytes = all.subarray(inflatedLength);
      inflatedLength = all.length;
    } else if (options.payloadCompression === true && isBinary) {
      bytes = inflateSync(data);
    }
    return options.encoding === 'etf' ? decodeEtf(bytes) : JSON.parse(bytes.toString('utf8'));
  };
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    log.push(decode(data, isBinary) as Frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
    });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => {
      resolve();
    });
    ws.once('error', reject);
  });
  const { frames, next } = log;
  return {
    frames,
    next,
    dispatch: (type, timeoutMs) => next((f) => f.op === 0 && f.t === type, timeoutMs),
    send(op, d) {
      const frame = { op, d };
      ws.send(options.encoding === 'etf' ? encodeEtf(frame) : JSON.stringify(frame));
    },
    sendRaw(data) {
      ws.send(data);
    },
    closed,
    async close(code = 1000) {
      if (ws.readyState === WebSocket.OPEN) ws.close(code);
      await closed;
    },
    raw: ws,
  };
}

/** Connects and identifies; resolves once READY arrived. */
export async function identifyGateway(
  gatewayUrl: string,
  identify: { token: string; intents: number } & Record<string, unknown>,
  options: GatewayClientOptions = {},
) {
  const client = await connectGateway(gatewayUrl, options);
  await client.next((f) => f.op === 10);
  client.send(2, { properties: { os: 'linux', browser: 'test', device: 'test' }, ...identify });
  const ready = await client.dispatch('READY');
  return { client, ready: ready.d as Record<string, unknown> & { session_id: string } };
}
