import { describe, expect, it } from 'vitest';
import { classifyFrame, frameEnd, FrameKind } from './mediaFrame.js';

/** A DAVE-shaped frame: `body` bytes, then `supplemental` bytes ending in size and 0xFAFA. */
function daveFrame(body: number, supplemental = 12): Buffer {
  const frame = Buffer.alloc(body + supplemental, 0x11);
  frame[frame.length - 3] = supplemental;
  frame[frame.length - 2] = 0xfa;
  frame[frame.length - 1] = 0xfa;
  return frame;
}
const whole = (frame: Uint8Array): FrameKind => classifyFrame(frame, 0, frame.length);

describe('classifyFrame', () => {
  it('takes DAVE frames and the Opus silence frame', () => {
    expect(whole(daveFrame(100))).toBe(FrameKind.E2EE);
    expect(whole(daveFrame(0, 11))).toBe(FrameKind.E2EE);
    expect(whole(daveFrame(0, 255))).toBe(FrameKind.E2EE);
    expect(whole(Buffer.from([0xf8, 0xff, 0xfe]))).toBe(FrameKind.SILENCE);
  });

  it('refuses plaintext Opus and malformed trailers', () => {
    // A 20 ms Opus frame (TOC 0xfc) that happens not to end in the marker.
    expect(
      whole(Buffer.from([0xfc, 0xff, 0xfe, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09])),
    ).toBe(FrameKind.REFUSED);
    expect(whole(Buffer.from([0xf8, 0xff, 0xff]))).toBe(FrameKind.REFUSED);
    expect(whole(Buffer.alloc(0))).toBe(FrameKind.REFUSED);
    // Marker present, but the size is below the minimum or larger than the frame.
    expect(whole(daveFrame(5, 10))).toBe(FrameKind.REFUSED);
    const tooLarge = daveFrame(0, 12);
    tooLarge[tooLarge.length - 3] = 13;
    expect(whole(tooLarge)).toBe(FrameKind.REFUSED);
    // Shorter than the smallest supplemental data.
    expect(whole(Buffer.from([0x0a, 0xfa, 0xfa]))).toBe(FrameKind.REFUSED);
  });

  it('looks only at the given range (the frame after an extension body)', () => {
    const payload = Buffer.concat([Buffer.from([1, 2, 3, 4]), daveFrame(20)]);
    expect(classifyFrame(payload, 4, payload.length)).toBe(FrameKind.E2EE);
    const silence = Buffer.from([9, 9, 9, 9, 0xf8, 0xff, 0xfe]);
    expect(classifyFrame(silence, 4, 7)).toBe(FrameKind.SILENCE);
    expect(classifyFrame(silence, 3, 7)).toBe(FrameKind.REFUSED);
  });
});

describe('frameEnd', () => {
  it('strips RTP padding when the P bit is set', () => {
    const payload = Buffer.concat([daveFrame(10), Buffer.from([0, 0, 3])]);
    expect(frameEnd(0x80, payload, 0)).toBe(payload.length);
    expect(frameEnd(0xa0, payload, 0)).toBe(payload.length - 3);
    expect(classifyFrame(payload, 0, frameEnd(0xa0, payload, 0))).toBe(FrameKind.E2EE);
  });

  it('refuses padding counts of zero or beyond the frame', () => {
    expect(frameEnd(0xa0, Buffer.from([1, 2, 0]), 0)).toBe(-1);
    expect(frameEnd(0xa0, Buffer.from([1, 2, 4]), 0)).toBe(-1);
    expect(frameEnd(0xa0, Buffer.from([1, 2, 3, 2]), 2)).toBe(2);
    expect(frameEnd(0xa0, Buffer.from([1, 2, 3, 3]), 2)).toBe(-1);
  });
});
