/**
 * Received video put back together (nodeVoiceVideoReceive.ts) from what the sending side packs
 * (nodeVoiceVideo.ts): packets in any order make the frame, a missing or late packet drops it
 * whole, the next frame cuts an unfinished one short, RFC 7741's descriptor extensions are
 * stepped over, and op 12 and op 15 name streams and wants.
 */
import { describe, expect, it } from 'vitest';
import type { OpenedRtp } from './nodeVoiceRtp.js';
import { vp8Payloads } from './nodeVoiceVideo.js';
import { VideoReceiver, vp8Chunk } from './nodeVoiceVideoReceive.js';

const ADA = '1300000000000000001';
const CAMERA = 2042;
const SCREEN = 2044;

/** A receiver that knows Ada's camera and screen, and counts what it drops. */
function receiver() {
  let dropped = 0;
  const video = new VideoReceiver('1300000000000000009', () => {
    dropped += 1;
  });
  video.onVideo({
    user_id: ADA,
    streams: [
      { type: 'video', ssrc: CAMERA, rtx_ssrc: CAMERA + 1, active: true },
      { type: 'screen', ssrc: SCREEN, rtx_ssrc: SCREEN + 1, active: false },
    ],
  });
  return { video, dropped: () => dropped };
}

/** The packets of `frame` as the sender makes them, from sequence number `first`. */
function packetsOf(frame: Uint8Array, timestamp: number, first = 65_534): OpenedRtp[] {
  const payloads = vp8Payloads(frame);
  return payloads.map((payload, i) => ({
    ssrc: CAMERA,
    payloadType: 103,
    marker: i === payloads.length - 1,
    sequence: (first + i) & 0xffff,
    timestamp,
    payload,
  }));
}

/** The `i`th packet (the test made it). */
function nth(packets: OpenedRtp[], i: number): OpenedRtp {
  const packet = packets[i];
  if (packet === undefined) throw new Error(`no packet ${String(i)}`);
  return packet;
}

const frame = Uint8Array.from({ length: 4000 }, (_, i) => (i * 13) & 0xff);

describe('received video frames', () => {
  it('puts a frame together from its packets in any order, across the sequence wrap', () => {
    const { video, dropped } = receiver();
    const packets = packetsOf(frame, 9000);
    expect(packets).toHaveLength(4);
    const order = [2, 0, 3, 1].map((i) => nth(packets, i));
    const results = order.map((p) => video.push(p));
    expect(results.slice(0, 3)).toEqual([null, null, null]);
    expect(results[3]).toMatchObject({ userId: ADA, stream: 'video', ssrc: CAMERA });
    expect([...(results[3]?.daveFrame ?? [])]).toEqual([...frame]);
    expect(dropped()).toBe(0);
  });

  it('drops a frame with a packet missing, and a late packet of it, and goes on', () => {
    const { video, dropped } = receiver();
    const first = packetsOf(frame, 1000, 10);
    for (const p of first.filter((_, i) => i !== 1)) expect(video.push(p)).toBeNull();
    // The next frame cuts the unfinished one short; a late packet of it is refused.
    const next = packetsOf(frame, 4000, 14);
    expect(video.push(nth(next, 0))).toBeNull();
    expect(video.push(nth(first, 1))).toBeNull();
    expect(dropped()).toBe(2);
    const whole = next.slice(1).map((p) => video.push(p));
    expect(whole.at(-1)?.daveFrame.length).toBe(frame.length);
  });

  it('refuses a frame no later than the last whole one: late, repeated or replayed', () => {
    const { video, dropped } = receiver();
    const one = Uint8Array.of(0x10, 1, 2, 3);
    const at = (timestamp: number) => ({
      ...nth(packetsOf(one, timestamp), 0),
      sequence: timestamp & 0xffff,
    });
    expect(video.push(at(1000))).not.toBeNull();
    expect(video.push(at(2000))).not.toBeNull();
    expect(video.push(at(1000))).toBeNull();
    expect(video.push(at(2000))).toBeNull();
    expect(dropped()).toBe(2);
    // RTP's timestamps wrap: half the 32-bit space behind is earlier, and past the wrap later.
    expect(video.push(at(0xffff_f000))).toBeNull();
    const wrapping = receiver().video;
    expect(wrapping.push(at(0xffff_fff0))).not.toBeNull();
    expect(wrapping.push(at(5))).not.toBeNull();
    expect(wrapping.push(at(0xffff_fff8))).toBeNull();
  });

  it('keeps a frame in progress when op 12 lists its stream again', () => {
    const { video } = receiver();
    const packets = packetsOf(frame, 7000);
    for (const p of packets.slice(0, 3)) expect(video.push(p)).toBeNull();
    video.onVideo({
      user_id: ADA,
      streams: [
        { type: 'video', ssrc: CAMERA, rtx_ssrc: CAMERA + 1, active: true },
        { type: 'screen', ssrc: SCREEN, rtx_ssrc: SCREEN + 1, active: true },
      ],
    });
    expect(video.push(nth(packets, 3))?.daveFrame.length).toBe(frame.length);
  });

  it('bounds what others may make it keep: streams, and bytes of unfinished frames', () => {
    const { video, dropped } = receiver();
    const streamsOf = (n: number) =>
      [0, 1, 2, 3].map((i) => ({ type: 'video', ssrc: 10_000 + n * 4 + i, active: true }));
    let named = 0;
    for (let n = 0; n < 1500; n += 1) {
      // Each lists a stream already known first, then new ones.
      const listed = [{ type: 'video', ssrc: CAMERA, active: true }, ...streamsOf(n).slice(1)];
      if (
        video.onVideo({ user_id: String(1_400_000_000_000_000_000n + BigInt(n)), streams: listed })
      ) {
        named += 1;
      }
    }
    // 4,096 streams at most: the two of Ada's, then three more for each of the first 1,364.
    expect(named).toBe(1364);
    // Unfinished frames on many streams: past 4 MiB in all, packets drop their frames.
    const before = dropped();
    let kept = 0;
    for (let n = 0; n < 40; n += 1) {
      const ssrc = 10_000 + n * 4 + 1;
      const owner = video.owner(ssrc);
      if (owner === undefined) continue;
      const packets = packetsOf(new Uint8Array(140_000), 1, 0).map((p) => ({ ...p, ssrc }));
      for (const p of packets.slice(0, -1)) video.push(p);
      kept += 1;
    }
    // 40 frames of 140,000 bytes (121 packets each, under the frame's limits) are 5.6 MB.
    expect(kept).toBe(40);
    expect(dropped() - before).toBeGreaterThan(0);
  });

  it('refuses packets of streams nobody named, and of members the player does not want', () => {
    const { video, dropped } = receiver();
    const stranger = { ...nth(packetsOf(frame, 1), 0), ssrc: 7777 };
    expect(video.push(stranger)).toBeNull();
    expect(video.setWanted(ADA, false)).toEqual({ any: 100, [CAMERA]: 0, [SCREEN]: 0 });
    expect(video.setWanted(ADA, false)).toBeNull();
    expect(packetsOf(frame, 2).map((p) => video.push(p))).toEqual([null, null, null, null]);
    expect(dropped()).toBe(5);
    expect(video.setWanted(ADA, true)).toEqual({ any: 100 });
    expect(
      packetsOf(frame, 3)
        .map((p) => video.push(p))
        .at(-1),
    ).not.toBeNull();
  });

  it('forgets a member that left, and ignores op 12 of the player or malformed', () => {
    const { video } = receiver();
    expect(video.owner(SCREEN)).toBe(ADA);
    video.forget(ADA);
    expect(video.owner(SCREEN)).toBeUndefined();
    expect(video.onVideo({ user_id: '1300000000000000009', streams: [] })).toBeNull();
    expect(video.onVideo({ user_id: 'ada', streams: [] })).toBeNull();
    const named = video.onVideo({
      user_id: ADA,
      streams: [
        { type: 'camera', ssrc: 1 },
        { type: 'video', ssrc: 0 },
        'x',
        { type: 'screen', ssrc: 5 },
      ],
    });
    expect(named).toEqual({
      userId: ADA,
      streams: [{ type: 'screen', active: false }],
      ssrcs: [5],
    });
  });

  it('steps over the descriptor extensions: picture id (7 and 15 bits), TL0PICIDX, TID', () => {
    const body = Uint8Array.of(0xaa, 0xbb);
    const cases: [number[], boolean][] = [
      [[0x10], true],
      [[0x00], false],
      [[0x11], false], // partition 1 does not start the frame
      [[0x90, 0x80, 0x05], true],
      [[0x90, 0x80, 0x85, 0x06], true],
      [[0x90, 0xe0, 0x85, 0x06, 0x01, 0x20], true],
    ];
    for (const [descriptor, start] of cases) {
      expect(vp8Chunk(Uint8Array.from([...descriptor, ...body]))).toEqual({ start, chunk: body });
    }
    expect(vp8Chunk(new Uint8Array(0))).toBeNull();
    expect(vp8Chunk(Uint8Array.of(0x90, 0xe0, 0x85))).toBeNull();
  });
});
