/**
 * The TLS presentation language as MLS uses it (RFC 9420 §2.1): big-endian integers and
 * `<V>` vectors whose length is a QUIC-style variable-length integer of 1, 2 or 4 bytes, always
 * in its shortest form. Every read is bounds-checked; a short or malformed input throws
 * `DaveProtocolError` and never reads past the buffer.
 */

/** Malformed or forbidden input from a member of a call (its MLS messages, its key package). */
export class DaveProtocolError extends Error {
  override readonly name = 'DaveProtocolError';
}

/** The largest `<V>` length the encoding can express (30 bits). */
export const MAX_VARINT = 0x3fff_ffff;

export class TlsReader {
  private offset = 0;
  private readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  get position(): number {
    return this.offset;
  }

  private take(length: number, what: string): Uint8Array {
    if (length > this.remaining) {
      throw new DaveProtocolError(
        `truncated ${what}: ${length} bytes wanted, ${this.remaining} left`,
      );
    }
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  u8(what = 'u8'): number {
    const [value] = this.take(1, what);
    return value ?? 0;
  }

  u16(what = 'u16'): number {
    const b = this.take(2, what);
    return ((b[0] ?? 0) << 8) | (b[1] ?? 0);
  }

  u32(what = 'u32'): number {
    const b = this.take(4, what);
    return new DataView(b.buffer, b.byteOffset, 4).getUint32(0);
  }

  u64(what = 'u64'): bigint {
    const b = this.take(8, what);
    return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0);
  }

  /** A `<V>` length: 1, 2 or 4 bytes, shortest form only (RFC 9420 §2.1.2). */
  varint(what = 'length'): number {
    const first = this.u8(what);
    const prefix = first >> 6;
    if (prefix === 0) return first & 0x3f;
    if (prefix === 1) {
      const value = ((first & 0x3f) << 8) | this.u8(what);
      if (value < 0x40) throw new DaveProtocolError(`non-minimal ${what}`);
      return value;
    }
    if (prefix === 2) {
      const rest = this.take(3, what);
      const value =
        (first & 0x3f) * 0x100_0000 +
        ((rest[0] ?? 0) << 16) +
        ((rest[1] ?? 0) << 8) +
        (rest[2] ?? 0);
      if (value < 0x4000) throw new DaveProtocolError(`non-minimal ${what}`);
      return value;
    }
    throw new DaveProtocolError(`invalid ${what} prefix`);
  }

  /** `opaque x<V>`: the bytes (a view into the input). */
  opaque(what = 'opaque'): Uint8Array {
    return this.take(this.varint(what), what);
  }

  /** A `<V>` vector read item by item with `item` until its bytes are used up exactly. */
  vector<T>(what: string, item: (reader: TlsReader) => T, maxItems = 4096): T[] {
    const inner = new TlsReader(this.opaque(what));
    const out: T[] = [];
    while (inner.remaining > 0) {
      if (out.length >= maxItems) throw new DaveProtocolError(`too many items in ${what}`);
      out.push(item(inner));
    }
    return out;
  }

  /** The bytes read since `start` (for keeping the exact encoding of a parsed struct). */
  since(start: number): Uint8Array {
    return this.bytes.subarray(start, this.offset);
  }

  rest(): Uint8Array {
    return this.take(this.remaining, 'rest');
  }

  end(what: string): void {
    if (this.remaining !== 0) {
      throw new DaveProtocolError(`${this.remaining} trailing bytes after ${what}`);
    }
  }
}

export class TlsWriter {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  raw(bytes: Uint8Array): this {
    this.parts.push(bytes);
    this.size += bytes.length;
    return this;
  }

  u8(value: number): this {
    return this.raw(Uint8Array.of(value & 0xff));
  }

  u16(value: number): this {
    return this.raw(Uint8Array.of((value >> 8) & 0xff, value & 0xff));
  }

  u32(value: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, value);
    return this.raw(b);
  }

  u64(value: bigint): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, value);
    return this.raw(b);
  }

  varint(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > MAX_VARINT) {
      throw new RangeError(`length ${value} does not fit a TLS varint`);
    }
    if (value < 0x40) return this.u8(value);
    if (value < 0x4000) return this.u16(0x4000 | value);
    return this.u32((0x8000_0000 | value) >>> 0);
  }

  opaque(bytes: Uint8Array): this {
    return this.varint(bytes.length).raw(bytes);
  }

  /** A `<V>` vector whose body `fill` writes. */
  vector(fill: (writer: TlsWriter) => void): this {
    const inner = new TlsWriter();
    fill(inner);
    return this.opaque(inner.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const part of this.parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const writer = new TlsWriter();
  for (const part of parts) writer.raw(part);
  return writer.finish();
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
}
