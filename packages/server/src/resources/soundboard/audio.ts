/**
 * Reads what a soundboard upload really is (docs/soundboard.md#uploads): an MP3 (MPEG audio
 * layer III, an ID3v2 tag allowed) whose frames are walked, or an Ogg stream (Opus or Vorbis)
 * whose pages are walked with their checksums. The duration comes from the frames (MP3) or the
 * last page's granule position (Ogg); anything else, or a stream that breaks off, is refused.
 */

export interface AudioInfo {
  contentType: 'audio/mpeg' | 'audio/ogg';
  /** The playing time in seconds. */
  durationSeconds: number;
}

const MP3_BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
/** Sample rates by version bits (0 MPEG 2.5, 2 MPEG 2, 3 MPEG 1); 1 is reserved. */
const MP3_RATES: Readonly<Record<number, readonly number[]>> = {
  0: [11025, 12000, 8000],
  2: [22050, 24000, 16000],
  3: [44100, 48000, 32000],
};

/** The length of an ID3v2 tag at the start (0 when none). */
function id3Length(bytes: Buffer): number {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size =
    ((bytes.readUInt8(6) & 0x7f) << 21) |
    ((bytes.readUInt8(7) & 0x7f) << 14) |
    ((bytes.readUInt8(8) & 0x7f) << 7);
  const footer = (bytes.readUInt8(5) & 0x10) !== 0 ? 10 : 0;
  return 10 + (size | (bytes.readUInt8(9) & 0x7f)) + footer;
}

/** One MPEG layer III frame header at `at`: its length and sample count, or null. */
function mp3Frame(
  bytes: Buffer,
  at: number,
): { length: number; samples: number; rate: number } | null {
  if (at + 4 > bytes.length) return null;
  const header = bytes.readUInt32BE(at);
  if (header >>> 21 !== 0x7ff) return null;
  const version = (header >>> 19) & 3;
  const layer = (header >>> 17) & 3;
  const bitrateIndex = (header >>> 12) & 15;
  const rateIndex = (header >>> 10) & 3;
  const padding = (header >>> 9) & 1;
  const rates = MP3_RATES[version];
  // Layer bits 01 are layer III; free-format (0) and bad (15) bitrates are refused.
  if (rates === undefined || layer !== 1 || rateIndex === 3) return null;
  if (bitrateIndex === 0 || bitrateIndex === 15) return null;
  const rate = rates[rateIndex] ?? 0;
  const v1 = version === 3;
  const kbps = (v1 ? MP3_BITRATES_V1 : MP3_BITRATES_V2)[bitrateIndex] ?? 0;
  const length = Math.floor(((v1 ? 144 : 72) * kbps * 1000) / rate) + padding;
  return { length, samples: v1 ? 1152 : 576, rate };
}

function mp3Info(bytes: Buffer): AudioInfo | null {
  let at = id3Length(bytes);
  let seconds = 0;
  let frames = 0;
  while (at < bytes.length) {
    const frame = mp3Frame(bytes, at);
    if (frame === null) {
      // After the frames only an ID3v1 tag ("TAG", 128 bytes) may follow.
      const rest = bytes.length - at;
      if (frames > 0 && rest === 128 && bytes.toString('latin1', at, at + 3) === 'TAG') break;
      return null;
    }
    if (at + frame.length > bytes.length) return null;
    seconds += frame.samples / frame.rate;
    frames += 1;
    at += frame.length;
  }
  return frames === 0 ? null : { contentType: 'audio/mpeg', durationSeconds: seconds };
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** The Ogg page checksum (CRC-32, polynomial 0x04c11db7, not reflected) of `page`. */
export function oggCrc(page: Buffer): number {
  let crc = 0;
  for (const byte of page)
    crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

interface OggPage {
  granule: bigint;
  /** The page's packet bytes (segments joined). */
  body: Buffer;
  length: number;
}

function oggPage(bytes: Buffer, at: number): OggPage | null {
  if (at + 27 > bytes.length || bytes.toString('latin1', at, at + 4) !== 'OggS') return null;
  if (bytes.readUInt8(at + 4) !== 0) return null;
  const segments = bytes.readUInt8(at + 26);
  const headerLength = 27 + segments;
  if (at + headerLength > bytes.length) return null;
  let bodyLength = 0;
  for (let i = 0; i < segments; i++) bodyLength += bytes.readUInt8(at + 27 + i);
  const length = headerLength + bodyLength;
  if (at + length > bytes.length) return null;
  const page = Buffer.from(bytes.subarray(at, at + length));
  const stated = page.readUInt32LE(22);
  page.writeUInt32LE(0, 22);
  if (oggCrc(page) !== stated) return null;
  return {
    granule: bytes.readBigInt64LE(at + 6),
    body: bytes.subarray(at + headerLength, at + length),
    length,
  };
}

function oggInfo(bytes: Buffer): AudioInfo | null {
  const pages: OggPage[] = [];
  for (let at = 0; at < bytes.length;) {
    const page = oggPage(bytes, at);
    if (page === null) return null;
    pages.push(page);
    at += page.length;
  }
  const head = pages[0]?.body;
  const last = pages[pages.length - 1];
  if (head === undefined || last === undefined || last.granule < 0n) return null;
  let samples: number;
  let rate: number;
  if (head.length >= 19 && head.toString('latin1', 0, 8) === 'OpusHead') {
    // Opus granules count 48 kHz samples, the encoder's pre-skip included.
    samples = Number(last.granule) - head.readUInt16LE(10);
    rate = 48_000;
  } else if (
    head.length >= 16 &&
    head.readUInt8(0) === 1 &&
    head.toString('latin1', 1, 7) === 'vorbis'
  ) {
    samples = Number(last.granule);
    rate = head.readUInt32LE(12);
  } else {
    return null;
  }
  if (rate === 0 || samples < 0) return null;
  return { contentType: 'audio/ogg', durationSeconds: samples / rate };
}

/** What the bytes are, or null when they are neither a whole MP3 nor a whole Ogg stream. */
export function readAudio(bytes: Buffer): AudioInfo | null {
  if (bytes.toString('latin1', 0, 4) === 'OggS') return oggInfo(bytes);
  return mp3Info(bytes);
}
