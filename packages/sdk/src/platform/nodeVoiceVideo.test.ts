/**
 * The sending side of video (nodeVoiceVideo.ts): what op 12 says, what a frame becomes on the
 * wire (packets of one 90 kHz timestamp, VP8's descriptor, the marker bit on the last), and when
 * nothing is sent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TransportSealer } from './nodeVoiceRtp.js';
import { VideoSender, vp8Payloads, type OwnStream } from './nodeVoiceVideo.js';

const STREAMS: OwnStream[] = [
  { type: 'video', rid: '100', quality: 100, ssrc: 2042, rtxSsrc: 2043 },
  { type: 'screen', rid: '100', quality: 100, ssrc: 2044, rtxSsrc: 2045 },
];

/** Sequence numbers from 7; the video clock from far up its 32 bits, as a random start may be. */
const random = (bits: number) => (bits === 16 ? 7 : 3_000_000_000);

/** A sender with the transport set up, recording what it sends. */
function sender(codec = 'VP8', connected = true) {
  const sent = { ops: [] as Record<string, unknown>[], packets: [] as Buffer[], frames: 0 };
  const sealer = new TransportSealer('aead_aes256_gcm_rtpsize', new Uint8Array(32));
  const setup = { audioSsrc: 2041, streams: STREAMS, codec, sealer, random };
  const video = new VideoSender(setup, {
    connected: () => connected,
    sendVideo: (payload) => sent.ops.push(payload),
    // A stand-in for DAVE: the frame with a marker, as DAVE's supplemental data ends one.
    encrypt: (frame) => Uint8Array.from([...frame, 0xfa, 0xfa]),
    sendPacket: (packet) => sent.packets.push(packet),
    sent: () => {
      sent.frames += 1;
    },
  });
  return { video, sent };
}

describe('sending video', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('says in op 12 which streams are sent, the camera first', () => {
    const { video, sent } = sender();
    expect(video.setActive('screen', true)).toBe(true);
    expect(video.setActive('screen', true)).toBe(true);
    expect(sent.ops).toHaveLength(1);
    expect(sent.ops[0]).toMatchObject({ audio_ssrc: 2041, video_ssrc: 2044, rtx_ssrc: 2045 });
    video.setActive('video', true);
    expect(sent.ops[1]).toMatchObject({
      video_ssrc: 2042,
      streams: [
        { type: 'video', ssrc: 2042, rtx_ssrc: 2043, active: true },
        { type: 'screen', ssrc: 2044, rtx_ssrc: 2045, active: true },
      ],
    });
    video.setActive('video', false);
    video.setActive('screen', false);
    expect(sent.ops.at(-1)).toMatchObject({ video_ssrc: 0, rtx_ssrc: 0 });
  });

  it('cuts a frame into packets of one timestamp, the 90 kHz clock apart', () => {
    const { video, sent } = sender();
    video.setActive('video', true);
    const now = vi.spyOn(performance, 'now').mockReturnValue(1000);
    expect(video.send('video', new Uint8Array(3000))).toBe('sent');
    now.mockReturnValue(1100);
    expect(video.send('video', new Uint8Array(10))).toBe('sent');
    // 3,002 bytes in chunks of 1,160: three packets, then one.
    expect(sent.packets).toHaveLength(4);
    const header = (p: Buffer) => ({
      marker: ((p[1] ?? 0) & 0x80) !== 0,
      payloadType: (p[1] ?? 0) & 0x7f,
      sequence: p.readUInt16BE(2),
      timestamp: p.readUInt32BE(4),
      ssrc: p.readUInt32BE(8),
    });
    const headers = sent.packets.map(header);
    expect(headers.map((h) => [h.marker, h.payloadType, h.ssrc])).toEqual([
      [false, 103, 2042],
      [false, 103, 2042],
      [true, 103, 2042],
      [true, 103, 2042],
    ]);
    expect(headers.map((h) => h.sequence)).toEqual([7, 8, 9, 10]);
    expect(new Set(headers.slice(0, 3).map((h) => h.timestamp)).size).toBe(1);
    // 100 ms later: 9,000 ticks of the 90 kHz clock.
    expect((headers[3]?.timestamp ?? 0) - (headers[0]?.timestamp ?? 0)).toBe(9000);
    // A clock that stands still still moves each frame on.
    expect(video.send('video', new Uint8Array(10))).toBe('sent');
    expect(header(sent.packets[4] ?? Buffer.alloc(12)).timestamp).toBe(
      (headers[3]?.timestamp ?? 0) + 1,
    );
    expect(sent.frames).toBe(3);
  });

  it('puts VP8’s payload descriptor on each packet, S on the first', () => {
    const payloads = vp8Payloads(new Uint8Array(2500).fill(9));
    expect(payloads.map((p) => [p[0], p.length])).toEqual([
      [0x10, 1161],
      [0x00, 1161],
      [0x00, 181],
    ]);
  });

  it('sends nothing of a stream not started, too big, without VP8 or before Connected', () => {
    const { video, sent } = sender();
    expect(video.send('video', new Uint8Array(10))).toBe('notStreaming');
    video.setActive('video', true);
    expect(video.send('video', new Uint8Array(148_417))).toBe('tooLarge');
    expect(sender('H264').video.setActive('video', true)).toBe(false);
    expect(sender('H264').video.send('video', new Uint8Array(10))).toBe('noVideoCodec');
    const offline = sender('VP8', false).video;
    expect(offline.setActive('video', true)).toBe(false);
    expect(offline.send('video', new Uint8Array(10))).toBe('notConnected');
    expect(sent.packets).toHaveLength(0);
  });
});
