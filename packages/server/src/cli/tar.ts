/**
 * @module cli/tar: the ustar format `guildhall backup` writes (gzipped, so `tar -xzf` opens it
 * too) and `guildhall restore` reads: regular files only, each streamed, never whole in memory.
 */
import type { Readable } from 'node:stream';

const BLOCK = 512;
/** The largest size ustar's 11 octal digits hold (8 GiB − 1); larger ones are base-256 (GNU). */
const OCTAL_SIZE_MAX = 0o77777777777;

export class TarError extends Error {
  override readonly name = 'TarError';
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** `name` as ustar's name and prefix fields (split at a slash when longer than 100 bytes). */
function splitName(name: string): { name: string; prefix: string } {
  if (Buffer.byteLength(name) <= 100) return { name, prefix: '' };
  for (let i = name.indexOf('/'); i !== -1; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) {
      return { name: rest, prefix };
    }
  }
  throw new TarError(`a path too long for the archive: ${name}`);
}

/** The 512-byte header of a regular file. */
export function tarHeader(entry: { name: string; size: number; mtimeMs: number }): Buffer {
  const header = Buffer.alloc(BLOCK);
  const { name, prefix } = splitName(entry.name);
  header.write(name, 0, 100, 'utf8');
  header.write(octal(0o600, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii');
  header.write(octal(0, 8), 116, 'ascii');
  if (entry.size <= OCTAL_SIZE_MAX) {
    header.write(octal(entry.size, 12), 124, 'ascii');
  } else {
    header[124] = 0x80;
    header.writeBigUInt64BE(BigInt(entry.size), 128);
  }
  header.write(octal(Math.floor(entry.mtimeMs / 1000), 12), 136, 'ascii');
  header.write('        ', 148, 'ascii');
  header.write('0', 156, 'ascii');
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  header.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return header;
}

/** The zeros after a file's bytes, up to the next block. */
export function tarPadding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The two zero blocks that end an archive. */
export const TAR_END = Buffer.alloc(2 * BLOCK);

/** Exactly-n-bytes reads over a stream of chunks. */
class ByteReader {
  readonly #chunks: AsyncIterator<Buffer>;
  #buffer: Buffer = Buffer.alloc(0);

  constructor(source: Readable) {
    this.#chunks = (source as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  /** Up to `max` bytes (fewer at the end of a chunk); an empty buffer at the end of the stream. */
  async some(max: number): Promise<Buffer> {
    if (this.#buffer.length === 0) {
      const next = await this.#chunks.next();
      if (next.done === true) return Buffer.alloc(0);
      this.#buffer = next.value;
    }
    const taken = this.#buffer.subarray(0, max);
    this.#buffer = this.#buffer.subarray(taken.length);
    return taken;
  }

  async exactly(size: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for (let left = size; left > 0;) {
      const part = await this.some(left);
      if (part.length === 0) throw new TarError('the archive ends midway');
      parts.push(part);
      left -= part.length;
    }
    return Buffer.concat(parts);
  }
}

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readSize(header: Buffer): number {
  if ((header[124] ?? 0) & 0x80) return Number(header.readBigUInt64BE(128));
  const text = field(header, 124, 12).trim();
  if (!/^[0-7]+$/.test(text)) throw new TarError('not an archive (a bad size field)');
  return parseInt(text, 8);
}

function checksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
  return parseInt(field(header, 148, 8).trim(), 8) === sum;
}

/** One file of an archive; `body` must be read to its end before the next is asked for. */
export interface TarEntry {
  name: string;
  size: number;
  body: AsyncIterable<Buffer>;
}

/**
 * The regular files of an (unzipped) archive, in order. Folders are skipped; links and other
 * kinds refused.
 * @throws TarError for anything that is not a sound archive.
 */
export async function* readTar(source: Readable): AsyncIterable<TarEntry> {
  const reader = new ByteReader(source);
  for (;;) {
    const header = await reader.exactly(BLOCK).catch(() => {
      throw new TarError('not an archive, or cut short (no end marker)');
    });
    if (header.every((byte) => byte === 0)) return;
    if (!checksumOk(header)) throw new TarError('not an archive (a header checksum fails)');
    const prefix = field(header, 345, 155);
    const name = prefix === '' ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`;
    const size = readSize(header);
    const type = String.fromCharCode(header[156] ?? 0);
    if (type !== '0' && type !== '\0' && type !== '5') {
      throw new TarError(`the archive holds something other than files: ${name}`);
    }
    let left = size;
    const next = async () => {
      const part = await reader.some(left);
      if (part.length === 0) throw new TarError('the archive ends midway');
      left -= part.length;
      return part;
    };
    const body = (async function* () {
      while (left > 0) yield await next();
    })();
    if (type !== '5') yield { name, size, body };
    while (left > 0) await next(); // what the caller left unread
    await reader.exactly(tarPadding(size).length);
  }
}
