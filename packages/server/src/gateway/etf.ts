/**
 * External Term Format (the `encoding=etf` of the gateway), for the terms JSON maps to: null and
 * booleans as atoms, integers, floats, strings as binaries, arrays as lists and objects as maps
 * with binary keys. Snowflakes stay strings, as the platform sends them. Decoding also accepts the
 * other forms a client library may send (atoms, tuples, char lists, big integers).
 */

const VERSION = 131;
const Tag = {
  NEW_FLOAT: 70,
  SMALL_INTEGER: 97,
  INTEGER: 98,
  FLOAT: 99,
  ATOM: 100,
  SMALL_TUPLE: 104,
  LARGE_TUPLE: 105,
  NIL: 106,
  STRING: 107,
  LIST: 108,
  BINARY: 109,
  SMALL_BIG: 110,
  LARGE_BIG: 111,
  SMALL_ATOM: 115,
  MAP: 116,
  ATOM_UTF8: 118,
  SMALL_ATOM_UTF8: 119,
} as const;

/** Thrown for bytes that are not a term this codec reads. */
export class EtfDecodeError extends Error {
  override readonly name = 'EtfDecodeError';
}

class Writer {
  private buf = Buffer.allocUnsafe(256);
  length = 0;

  private reserve(n: number) {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  u8(value: number) {
    this.reserve(1);
    this.buf[this.length++] = value;
  }

  u32(value: number) {
    this.reserve(4);
    this.buf.writeUInt32BE(value, this.length);
    this.length += 4;
  }

  i32(value: number) {
    this.reserve(4);
    this.buf.writeInt32BE(value, this.length);
    this.length += 4;
  }

  f64(value: number) {
    this.reserve(8);
    this.buf.writeDoubleBE(value, this.length);
    this.length += 8;
  }

  string(value: string) {
    const size = Buffer.byteLength(value);
    this.reserve(size);
    this.buf.write(value, this.length, 'utf8');
    this.length += size;
  }

  bytes(value: Uint8Array) {
    this.reserve(value.length);
    this.buf.set(value, this.length);
    this.length += value.length;
  }

  result(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

function writeAtom(w: Writer, name: string) {
  w.u8(Tag.SMALL_ATOM_UTF8);
  w.u8(Buffer.byteLength(name));
  w.string(name);
}

function writeBinary(w: Writer, value: string) {
  w.u8(Tag.BINARY);
  w.u32(Buffer.byteLength(value));
  w.string(value);
}

function writeBig(w: Writer, value: bigint) {
  const sign = value < 0n ? 1 : 0;
  let magnitude = value < 0n ? -value : value;
  const digits: number[] = [];
  while (magnitude > 0n) {
    digits.push(Number(magnitude & 0xffn));
    magnitude >>= 8n;
  }
  w.u8(Tag.SMALL_BIG);
  w.u8(digits.length);
  w.u8(sign);
  for (const digit of digits) w.u8(digit);
}

function writeNumber(w: Writer, value: number) {
  if (!Number.isInteger(value)) {
    w.u8(Tag.NEW_FLOAT);
    w.f64(value);
  } else if (value >= 0 && value <= 255) {
    w.u8(Tag.SMALL_INTEGER);
    w.u8(value);
  } else if (value >= -(2 ** 31) && value < 2 ** 31) {
    w.u8(Tag.INTEGER);
    w.i32(value);
  } else {
    writeBig(w, BigInt(value));
  }
}

function writeTerm(w: Writer, value: unknown): void {
  if (value === null || value === undefined) {
    writeAtom(w, 'nil');
    return;
  }
  switch (typeof value) {
    case 'boolean': {
      writeAtom(w, value ? 'true' : 'false');
      return;
    }
    case 'number': {
      writeNumber(w, value);
      return;
    }
    case 'bigint': {
      writeBinary(w, value.toString());
      return;
    }
    case 'string': {
      writeBinary(w, value);
      return;
    }
    case 'object':
      break;
    case 'function':
    case 'symbol':
    case 'undefined':
      throw new TypeError(`cannot encode a ${typeof value} as ETF`);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      w.u8(Tag.NIL);
      return;
    }
    w.u8(Tag.LIST);
    w.u32(value.length);
    for (const item of value as unknown[]) writeTerm(w, item);
    w.u8(Tag.NIL);
    return;
  }
  // JSON drops undefined properties; so does this encoder.
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  w.u8(Tag.MAP);
  w.u32(entries.length);
  for (const [key, item] of entries) {
    writeBinary(w, key);
    writeTerm(w, item);
  }
}

/** Encodes a JSON-shaped value as an ETF term (with the version byte). */
export function encodeEtf(value: unknown): Buffer {
  const w = new Writer();
  w.u8(VERSION);
  writeTerm(w, value);
  return w.result();
}

/** Encodes a term without the version byte, to be spliced into a larger term. */
export function encodeEtfTerm(value: unknown): Buffer {
  const w = new Writer();
  writeTerm(w, value);
  return w.result();
}

/** The bytes of a map header with `size` pairs (`116`, size), for building terms piecewise. */
export function etfMapHeader(size: number): Buffer {
  const w = new Writer();
  w.u8(Tag.MAP);
  w.u32(size);
  return w.result();
}

class Reader {
  offset = 0;
  private readonly buf: Buffer;

  constructor(buf: Buffer) {
    this.buf = buf;
  }

  need(n: number) {
    if (this.offset + n > this.buf.length) throw new EtfDecodeError('truncated term');
  }

  u8() {
    this.need(1);
    return this.buf[this.offset++] ?? 0;
  }

  u16() {
    this.need(2);
    const v = this.buf.readUInt16BE(this.offset);
    this.offset += 2;
    return v;
  }

  u32() {
    this.need(4);
    const v = this.buf.readUInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  i32() {
    this.need(4);
    const v = this.buf.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  f64() {
    this.need(8);
    const v = this.buf.readDoubleBE(this.offset);
    this.offset += 8;
    return v;
  }

  slice(n: number) {
    this.need(n);
    const v = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return v;
  }
}

function atomValue(name: string): unknown {
  if (name === 'nil' || name === 'null') return null;
  if (name === 'true') return true;
  if (name === 'false') return false;
  return name;
}

function readBig(r: Reader, size: number): number | string {
  const sign = r.u8();
  const digits = r.slice(size);
  let value = 0n;
  for (let i = digits.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(digits[i] ?? 0);
  if (sign === 1) value = -value;
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value.toString();
}

const MAX_DEPTH = 64;

function readList(r: Reader, count: number, depth: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) out.push(readTerm(r, depth + 1));
  return out;
}

function readTerm(r: Reader, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new EtfDecodeError('term nested too deeply');
  const tag = r.u8();
  switch (tag) {
    case Tag.SMALL_INTEGER:
      return r.u8();
    case Tag.INTEGER:
      return r.i32();
    case Tag.NEW_FLOAT:
      return r.f64();
    case Tag.FLOAT:
      return Number.parseFloat(r.slice(31).toString('latin1').replace(/\0.*$/, ''));
    case Tag.ATOM:
    case Tag.ATOM_UTF8:
      return atomValue(r.slice(r.u16()).toString('utf8'));
    case Tag.SMALL_ATOM:
    case Tag.SMALL_ATOM_UTF8:
      return atomValue(r.slice(r.u8()).toString('utf8'));
    case Tag.SMALL_TUPLE:
      return readList(r, r.u8(), depth);
    case Tag.LARGE_TUPLE:
      return readList(r, r.u32(), depth);
    case Tag.NIL:
      return [];
    case Tag.STRING:
      return r.slice(r.u16()).toString('latin1');
    case Tag.LIST: {
      const items = readList(r, r.u32(), depth);
      const tail = readTerm(r, depth + 1);
      if (!Array.isArray(tail) || tail.length > 0) throw new EtfDecodeError('improper list');
      return items;
    }
    case Tag.BINARY:
      return r.slice(r.u32()).toString('utf8');
    case Tag.SMALL_BIG:
      return readBig(r, r.u8());
    case Tag.LARGE_BIG:
      return readBig(r, r.u32());
    case Tag.MAP: {
      const size = r.u32();
      const out: Record<string, unknown> = {};
      for (let i = 0; i < size; i++) {
        const key = readTerm(r, depth + 1);
        if (typeof key !== 'string' && typeof key !== 'number') {
          throw new EtfDecodeError('map key is not a string or number');
        }
        const name = String(key);
        const value = readTerm(r, depth + 1);
        // A `__proto__` key is an own property like any other, never the object's prototype.
        if (name === '__proto__') {
          Object.defineProperty(out, name, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else {
          out[name] = value;
        }
      }
      return out;
    }
    default:
      throw new EtfDecodeError(`unsupported term tag ${tag}`);
  }
}

/** Decodes one ETF term (with its version byte); throws EtfDecodeError for anything else. */
export function decodeEtf(bytes: Buffer): unknown {
  const r = new Reader(bytes);
  if (r.u8() !== VERSION) throw new EtfDecodeError('missing ETF version byte');
  const value = readTerm(r, 0);
  if (r.offset !== bytes.length) throw new EtfDecodeError('trailing bytes after the term');
  return value;
}
