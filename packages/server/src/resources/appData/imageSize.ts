/**
 * The width and height of a PNG, GIF or JPEG, read from its bytes as they stream past: an upload
 * is measured on its way to the blob store, never held whole. At most a few header bytes are kept
 * between chunks; a JPEG's segments before its frame header are skipped, not read.
 */

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = 0x89504e47;
const JPEG_START = 0xffd8;
/** Enough of the first bytes to tell the format (a PNG's IHDR ends at 24). */
const START_BYTES = 24;
/** A JPEG segment's marker and length. */
const SEGMENT_HEADER_BYTES = 4;
/** A frame header (SOFn) up to its width. */
const FRAME_HEADER_BYTES = 9;
const NO_BYTES = Buffer.alloc(0);

/** SOF0–SOF15 but DHT (c4), JPG (c8) and DAC (cc): the frame header holding the size. */
const isFrameHeader = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Measures one stream: `push` each chunk in order, then `end()` gives the size, or null. */
export function imageSizeProbe(): { push(chunk: Buffer): void; end(): ImageSize | null } {
  let state: 'start' | 'jpeg' | 'done' = 'start';
  let size: ImageSize | null = null;
  /** Bytes read and not yet used (at a JPEG marker in the `jpeg` state). */
  let head: Buffer = NO_BYTES;
  /** Bytes of the current JPEG segment still to pass over. */
  let skip = 0;

  const done = (found: ImageSize | null) => {
    state = 'done';
    size = found;
    head = NO_BYTES;
  };

  /** The first bytes: the format, and a PNG's or GIF's size at once. */
  const start = (ended: boolean) => {
    if (head.length < START_BYTES && !ended) return false;
    if (head.length >= START_BYTES && head.readUInt32BE(0) === PNG_SIGNATURE) {
      done({ width: head.readUInt32BE(16), height: head.readUInt32BE(20) });
    } else if (head.length >= 10 && head.toString('latin1', 0, 3) === 'GIF') {
      done({ width: head.readUInt16LE(6), height: head.readUInt16LE(8) });
    } else if (head.length >= SEGMENT_HEADER_BYTES && head.readUInt16BE(0) === JPEG_START) {
      state = 'jpeg';
      head = head.subarray(2);
    } else {
      done(null);
    }
    return true;
  };

  /** One JPEG segment: the frame header's size, or the next segment. */
  const segment = (ended: boolean) => {
    if (head.length < SEGMENT_HEADER_BYTES) {
      if (ended) done(null);
      return false;
    }
    if (head.readUInt8(0) !== 0xff) {
      done(null);
      return true;
    }
    if (isFrameHeader(head.readUInt8(1))) {
      if (head.length < FRAME_HEADER_BYTES) {
        if (ended) done(null);
        return false;
      }
      done({ width: head.readUInt16BE(7), height: head.readUInt16BE(5) });
      return true;
    }
    skip = 2 + head.readUInt16BE(2);
    const passed = Math.min(skip, head.length);
    head = head.subarray(passed);
    skip -= passed;
    return skip === 0;
  };

  /** Reads what `head` allows; `ended`: no more bytes will come. */
  const advance = (ended: boolean) => {
    for (;;) {
      if (state === 'done') return;
      const moved = state === 'start' ? start(ended) : segment(ended);
      if (!moved) return;
    }
  };

  return {
    push(chunk) {
      if (state === 'done') return;
      if (skip >= chunk.length) {
        skip -= chunk.length;
        return;
      }
      const rest = chunk.subarray(skip);
      skip = 0;
      head = head.length === 0 ? rest : Buffer.concat([head, rest]);
      advance(false);
      // What waits for the next chunk is a few bytes: a copy, so the chunk itself can go.
      if (head.length > 0) head = Buffer.from(head);
    },
    end() {
      if (state !== 'done' && skip === 0) advance(true);
      if (state !== 'done') done(null);
      return size;
    },
  };
}
