/**
 * What the voice, stage and soundboard tests share (issue 18): a server per file with a guild
 * (text, voice and stage channels), requests validated against the OpenAPI document, and real
 * MP3 and Ogg files to upload (dispatches are recorded with dispatchRecorder.ts).
 */
import type { App } from '../../src/app.js';
import { oggCrc } from '../../src/resources/soundboard/audio.js';
import { expectOpenApiResponse } from './openapi.js';
import { apiRequest } from './inject.js';

/** What {@link apiCaller} sends besides the method and path. */
export interface CallOptions {
  auth: string;
  body?: unknown;
  reason?: string;
  headers?: Record<string, string>;
  /** A client route the OpenAPI document does not describe: the answer is not checked. */
  clientRoute?: boolean;
}

/** A function that sends a request under /api/v10 and checks the answer against openapi.json. */
export const apiCaller =
  (app: App) =>
  (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options: CallOptions) =>
    apiCall(app, { method, path, ...options });

async function apiCall(
  app: App,
  options: CallOptions & { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string },
) {
  const { method, path } = options;
  const res = await apiRequest(app, `${method} ${path}`, {
    auth: options.auth,
    payload: options.body,
    headers: {
      ...(options.reason === undefined ? {} : { 'x-audit-log-reason': options.reason }),
      ...options.headers,
    },
  });
  if (options.clientRoute !== true) expectOpenApiResponse(res, method, path);
  return res;
}

/** An MP3 of `frames` MPEG-1 layer III frames (128 kbit/s, 44.1 kHz: 26 ms each), silent. */
export function mp3(frames: number, options: { id3?: boolean } = {}): Buffer {
  const frame = Buffer.alloc(417);
  frame.writeUInt32BE(0xfffb9004, 0);
  const tag = Buffer.from('4944330400000000000a' + '00'.repeat(10), 'hex');
  const all: Buffer[] = options.id3 === true ? [tag] : [];
  for (let i = 0; i < frames; i++) all.push(frame);
  return Buffer.concat(all);
}

/** One Ogg page with a correct checksum. */
function oggPage(body: Buffer, at: { granule: bigint; sequence: number; flags: number }): Buffer {
  const { granule, sequence, flags } = at;
  const segments: number[] = [];
  let left = body.length;
  while (left >= 255) {
    segments.push(255);
    left -= 255;
  }
  segments.push(left);
  const header = Buffer.alloc(27 + segments.length);
  header.write('OggS', 0, 'latin1');
  header.writeUInt8(0, 4);
  header.writeUInt8(flags, 5);
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(0x5eed, 14);
  header.writeUInt32LE(sequence, 18);
  header.writeUInt8(segments.length, 26);
  segments.forEach((s, i) => header.writeUInt8(s, 27 + i));
  const page = Buffer.concat([header, body]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** An Ogg Opus stream of `seconds` (a head, tags and one audio page at that granule). */
export function oggOpus(seconds: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head.writeUInt8(1, 8);
  head.writeUInt8(1, 9);
  head.writeUInt16LE(312, 10);
  head.writeUInt32LE(48_000, 12);
  const tags = Buffer.concat([Buffer.from('OpusTags', 'latin1'), Buffer.alloc(8)]);
  const granule = BigInt(Math.round(seconds * 48_000) + 312);
  return Buffer.concat([
    oggPage(head, { granule: 0n, sequence: 0, flags: 2 }),
    oggPage(tags, { granule: 0n, sequence: 1, flags: 0 }),
    oggPage(Buffer.alloc(60, 0xf8), { granule, sequence: 2, flags: 4 }),
  ]);
}

export const dataUri = (type: string, bytes: Buffer) =>
  `data:${type};base64,${bytes.toString('base64')}`;
