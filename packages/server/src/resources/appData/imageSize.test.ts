import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageSizeProbe } from './imageSize.js';

/** The probe's answer for `bytes` pushed in chunks of `chunkBytes`. */
function measure(bytes: Buffer, chunkBytes: number) {
  const probe = imageSizeProbe();
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    probe.push(bytes.subarray(at, at + chunkBytes));
  }
  return probe.end();
}

const CHUNKINGS = [1, 3, 7, 4096, Number.MAX_SAFE_INTEGER];

describe('imageSizeProbe', () => {
  const image = (format: 'png' | 'gif' | 'jpeg') =>
    sharp({ create: { width: 300, height: 200, channels: 3, background: '#3a6' } })
      .toFormat(format)
      .toBuffer();

  it('reads PNG, GIF and JPEG sizes however the bytes are cut', async () => {
    for (const format of ['png', 'gif', 'jpeg'] as const) {
      const bytes = await image(format);
      for (const chunk of CHUNKINGS) {
        expect(measure(bytes, chunk), `${format} in chunks of ${String(chunk)}`).toEqual({
          width: 300,
          height: 200,
        });
      }
    }
  });

  it('passes over a JPEG’s large segments before its frame header', async () => {
    const bytes = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#123' },
    })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: 'x'.repeat(60_000) } })
      .toBuffer();
    const frame = bytes.indexOf(Buffer.from([0xff, 0xc0]));
    expect(frame).toBeGreaterThan(60_000);
    for (const chunk of CHUNKINGS) {
      expect(measure(bytes, chunk)).toEqual({ width: 640, height: 480 });
    }
  });

  it('gives null for other bytes, an empty file and a JPEG cut short', async () => {
    expect(measure(Buffer.from('just some text, not an image at all'), 4)).toBeNull();
    expect(measure(Buffer.alloc(0), 1)).toBeNull();
    const jpeg = await image('jpeg');
    const frame = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(measure(jpeg.subarray(0, frame + 6), 5)).toBeNull();
    expect(measure(jpeg.subarray(0, 40), 5)).toBeNull();
  });
});
