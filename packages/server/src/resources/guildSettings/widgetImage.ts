/**
 * @module resources/guildSettings/widgetImage: GET /guilds/{id}/widget.png, drawn here: a small
 * RGB canvas, a 5×7 bitmap font (letters are drawn upper-case; characters it lacks as `?`) and
 * a PNG encoder over node:zlib (deflate and the chunks' CRC-32). The five styles of the platform
 * (shield, banner1 to banner4) differ in size and layout; each shows the guild's name and how
 * many members are online.
 */
import { deflateSync } from 'node:zlib';

type Rgb = readonly [number, number, number];

const BLURPLE: Rgb = [0x58, 0x65, 0xf2];
const DARK: Rgb = [0x2b, 0x2d, 0x31];
const DARKER: Rgb = [0x1e, 0x1f, 0x22];
const WHITE: Rgb = [0xff, 0xff, 0xff];
const GREEN: Rgb = [0x23, 0xa5, 0x59];
const GREY: Rgb = [0xb5, 0xba, 0xc1];

/** Glyph rows, top to bottom, 5 bits each (the high bit is the left column). */
const FONT: Readonly<Record<string, string>> = {
  A: '0e11111f111111',
  B: '1e11111e11111e',
  C: '0e11101010110e',
  D: '1c12111111121c',
  E: '1f10101e10101f',
  F: '1f10101e101010',
  G: '0e11101711110f',
  H: '1111111f111111',
  I: '0e04040404040e',
  J: '0702020202120c',
  K: '11121418141211',
  L: '1010101010101f',
  M: '111b1515111111',
  N: '11111915131111',
  O: '0e11111111110e',
  P: '1e11111e101010',
  Q: '0e11111115120d',
  R: '1e11111e141211',
  S: '0f10100e01011e',
  T: '1f040404040404',
  U: '1111111111110e',
  V: '11111111110a04',
  W: '1111111515150a',
  X: '11110a040a1111',
  Y: '11110a04040404',
  Z: '1f01020408101f',
  '0': '0e11131519110e',
  '1': '040c040404040e',
  '2': '0e11010204081f',
  '3': '1f02040201110e',
  '4': '02060a121f0202',
  '5': '1f101e0101110e',
  '6': '0608101e11110e',
  '7': '1f010204080808',
  '8': '0e11110e11110e',
  '9': '0e11110f01020c',
  ' ': '00000000000000',
  '-': '0000001f000000',
  '.': '00000000000c0c',
  '!': '04040404040004',
  '?': '0e110102040004',
  _: '0000000000001f',
  "'": '04040800000000',
  '&': '0c12140815120d',
  '#': '0a0a1f0a1f0a0a',
  ':': '000c0c000c0c00',
};

const GLYPH_W = 5;
const GLYPH_H = 7;
const ADVANCE = GLYPH_W + 1;

class Canvas {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.pixels = new Uint8Array(width * height * 3);
  }

  fill([x, y, w, h]: readonly [number, number, number, number], color: Rgb): void {
    for (let row = Math.max(0, y); row < Math.min(this.height, y + h); row += 1) {
      for (let col = Math.max(0, x); col < Math.min(this.width, x + w); col += 1) {
        this.pixels.set(color, (row * this.width + col) * 3);
      }
    }
  }

  /** Draws `text` from (x, y), `scale` pixels per font pixel; returns the width drawn. */
  text(
    [x, y]: readonly [number, number],
    text: string,
    pen: { color: Rgb; scale?: number },
  ): number {
    const { color, scale = 1 } = pen;
    let at = x;
    for (const ch of text.toUpperCase()) {
      const rows = FONT[ch] ?? FONT['?'] ?? '';
      for (let r = 0; r < GLYPH_H; r += 1) {
        const bits = parseInt(rows.slice(r * 2, r * 2 + 2), 16);
        for (let c = 0; c < GLYPH_W; c += 1) {
          if ((bits >> (GLYPH_W - 1 - c)) & 1) {
            this.fill([at + c * scale, y + r * scale, scale, scale], color);
          }
        }
      }
      at += ADVANCE * scale;
    }
    return at - x;
  }
}

/** `text` cut to what fits in `width` pixels at `scale`, with an ellipsis of dots. */
function fit(text: string, width: number, scale: number): string {
  const max = Math.floor(width / (ADVANCE * scale));
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 2))}..`;
}

export interface WidgetImageData {
  name: string;
  onlineCount: number;
}

/** Each style's size and drawing. */
const STYLES = {
  shield: {
    width: 145,
    height: 20,
    draw(c: Canvas, data: WidgetImageData) {
      c.fill([0, 0, 40, 20], BLURPLE);
      c.text([6, 7], 'CHAT', { color: WHITE });
      c.fill([40, 0, 105, 20], DARK);
      c.text([46, 7], fit(`${String(data.onlineCount)} online`, 95, 1), { color: WHITE });
    },
  },
  banner1: {
    width: 245,
    height: 92,
    draw(c: Canvas, data: WidgetImageData) {
      c.fill([0, 0, 245, 92], BLURPLE);
      c.text([12, 14], fit(data.name, 221, 2), { color: WHITE, scale: 2 });
      c.fill([0, 60, 245, 32], DARK);
      c.fill([12, 72, 8, 8], GREEN);
      c.text([26, 73], `${String(data.onlineCount)} online`, { color: WHITE });
      c.text([200, 73], 'JOIN', { color: GREY });
    },
  },
  banner2: {
    width: 245,
    height: 56,
    draw(c: Canvas, data: WidgetImageData) {
      c.fill([0, 0, 245, 56], DARK);
      c.fill([0, 0, 56, 56], BLURPLE);
      c.text([16, 24], 'GH', { color: WHITE, scale: 2 });
      c.text([66, 14], fit(data.name, 170, 1), { color: WHITE });
      c.fill([66, 34, 7, 7], GREEN);
      c.text([78, 34], `${String(data.onlineCount)} online`, { color: GREY });
    },
  },
  banner3: {
    width: 245,
    height: 110,
    draw(c: Canvas, data: WidgetImageData) {
      c.fill([0, 0, 245, 110], DARKER);
      c.text([12, 14], fit(data.name, 221, 2), { color: WHITE, scale: 2 });
      c.fill([12, 48, 10, 10], GREEN);
      c.text([30, 50], `${String(data.onlineCount)} online`, { color: WHITE });
      c.fill([0, 78, 245, 32], BLURPLE);
      c.text([12, 91], 'JOIN MY SERVER', { color: WHITE });
    },
  },
  banner4: {
    width: 300,
    height: 160,
    draw(c: Canvas, data: WidgetImageData) {
      c.fill([0, 0, 300, 160], BLURPLE);
      c.text([16, 20], fit(data.name, 268, 3), { color: WHITE, scale: 3 });
      c.fill([16, 70, 12, 12], GREEN);
      c.text([36, 70], `${String(data.onlineCount)} online`, { color: WHITE, scale: 2 });
      c.fill([0, 112, 300, 48], DARK);
      c.text([16, 130], 'JOIN MY SERVER', { color: WHITE, scale: 2 });
    },
  },
} as const;

export type WidgetStyle = keyof typeof STYLES;

/** Each style's size, for tests and callers that lay the image out. */
export const WIDGET_IMAGE_SIZES: Readonly<Record<WidgetStyle, { width: number; height: number }>> =
  STYLES;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An 8-bit RGB PNG of the canvas (filter 0 on every row). */
function encodePng(canvas: Canvas): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(canvas.width, 0);
  header.writeUInt32BE(canvas.height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const stride = canvas.width * 3;
  const raw = Buffer.alloc((stride + 1) * canvas.height);
  for (let row = 0; row < canvas.height; row += 1) {
    raw.set(canvas.pixels.subarray(row * stride, (row + 1) * stride), row * (stride + 1) + 1);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** The widget image of a guild in one style. */
export function renderWidgetImage(style: WidgetStyle, data: WidgetImageData): Buffer {
  const spec = STYLES[style];
  const canvas = new Canvas(spec.width, spec.height);
  spec.draw(canvas, data);
  return encodePng(canvas);
}
