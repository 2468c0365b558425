/**
 * Video through the media relay: a member's stream ssrcs (given at Ready) carry RTP of its
 * negotiated video payload type; a frame's packets are held until its last one (the marker bit)
 * and go out, each sealed for each receiver, only when the frame put together is a DAVE frame.
 * Plaintext frames, frames cut short, payload types not negotiated and another member's ssrcs
 * are dropped; a receiver that wants none of a stream (op 15) gets none of it.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  daveFrame,
  join,
  opened,
  startRelay,
  type Member,
} from '../../../test/support/relayHarness.js';
import { MAX_VIDEO_STREAMS } from './videoFrames.js';

const H264 = 101;

/** A video RTP packet of `stream` (payload type, marker bit, the frame's timestamp). */
function videoPacket(
  member: Member,
  stream: { ssrc: number; payloadType?: number; timestamp: number; last: boolean },
  payload: Uint8Array,
): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = (stream.last ? 0x80 : 0) | (stream.payloadType ?? H264);
  member.sequence += 1;
  header.writeUInt16BE(member.sequence & 0xffff, 2);
  header.writeUInt32BE(stream.timestamp, 4);
  header.writeUInt32BE(stream.ssrc, 8);
  member.counter += 1;
  return member.cipher.seal(header, payload, member.counter);
}

/** A DAVE video frame cut in `parts` packets (the supplemental data and marker in the last). */
function sendFrame(
  member: Member,
  stream: { ssrc: number; payloadType?: number; timestamp: number; parts?: number },
  frame: Buffer,
): Buffer[] {
  const parts = stream.parts ?? 3;
  const size = Math.ceil(frame.length / parts);
  const pieces = Array.from({ length: parts }, (_, i) => frame.subarray(i * size, (i + 1) * size));
  pieces.forEach((piece, i) => {
    member.endpoint.send(videoPacket(member, { ...stream, last: i === parts - 1 }, piece));
  });
  return pieces;
}

describe('MediaRelay: video', () => {
  it('forwards a whole DAVE video frame, packet by packet, to each receiver', async () => {
    const relay = await startRelay();
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call');
    const carol = await join(relay, 'call');
    const [camera] = relay.addStreams(alice.ssrc, 1);
    const ssrc = camera?.ssrc ?? 0;
    relay.setVideoPayloadTypes(alice.ssrc, [H264]);

    const pieces = sendFrame(alice, { ssrc, timestamp: 9000 }, daveFrame(900));
    for (const receiver of [bob, carol]) {
      const got = [];
      while (got.length < pieces.length) got.push(await receiver.endpoint.next());
      expect(got.map((p) => opened(receiver, p))).toEqual(pieces.map((p) => Buffer.from(p)));
      expect(got.map((p) => p.readUInt32BE(8))).toEqual(pieces.map(() => ssrc));
      expect(got.map((p) => (p[1] ?? 0) & 0x7f)).toEqual(pieces.map(() => H264));
    }
    expect(relay.stats().packetsOut).toBe(6);
  });

  it('drops plaintext and cut frames, foreign ssrcs and payload types, and honours sink wants', async () => {
    const relay = await startRelay();
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call');
    const [camera, screen] = relay.addStreams(alice.ssrc, 2);
    const [bobs] = relay.addStreams(bob.ssrc, 1);
    for (const member of [alice, bob]) relay.setVideoPayloadTypes(member.ssrc, [H264]);
    const ssrc = camera?.ssrc ?? 0;

    sendFrame(alice, { ssrc, timestamp: 1 }, randomBytes(600)); // plaintext
    sendFrame(alice, { ssrc, timestamp: 2, parts: 1 }, daveFrame(600));
    alice.endpoint.send(videoPacket(alice, { ssrc, timestamp: 3, last: false }, randomBytes(40)));
    sendFrame(alice, { ssrc, timestamp: 4 }, daveFrame(300)); // cuts frame 3 short
    sendFrame(alice, { ssrc, timestamp: 5, payloadType: 96 }, daveFrame(300)); // not negotiated
    sendFrame(alice, { ssrc: bobs?.ssrc ?? 0, timestamp: 6 }, daveFrame(300)); // bob's stream
    expect(opened(bob, await bob.endpoint.next()).length).toBe(600);
    const fourth = [];
    for (let i = 0; i < 3; i++) fourth.push(opened(bob, await bob.endpoint.next()));
    expect(Buffer.concat(fourth).length).toBe(300);
    // Bob wants the screen only: the camera's frames are not sent to him.
    relay.setSinkWants(bob.ssrc, { any: 0, bySsrc: new Map([[screen?.ssrc ?? 0, 100]]) });
    sendFrame(alice, { ssrc, timestamp: 7 }, daveFrame(300));
    const last = sendFrame(
      alice,
      { ssrc: screen?.ssrc ?? 0, timestamp: 8, parts: 1 },
      daveFrame(300),
    );
    const screenFrame = await bob.endpoint.next();
    expect(screenFrame.readUInt32BE(8)).toBe(screen?.ssrc);
    expect(opened(bob, screenFrame)).toEqual(Buffer.from(last[0] ?? []));
    expect(relay.stats().dropped).toMatchObject({ notE2ee: 1, incompleteFrame: 1, notOpus: 3 });
    // Bob's own stream came from Alice's address: not hers to send on.
    expect(relay.stats().dropped.unbound).toBe(3);
  });

  it('gives at most four streams per member, each ssrc unique', async () => {
    const relay = await startRelay();
    const alice = await join(relay, 'call');
    const streams = relay.addStreams(alice.ssrc, MAX_VIDEO_STREAMS);
    const all = [alice.ssrc, ...streams.flatMap((s) => [s.ssrc, s.rtxSsrc])];
    expect(new Set(all).size).toBe(1 + 2 * MAX_VIDEO_STREAMS);
    expect(() => relay.addStreams(alice.ssrc, 1)).toThrow(RangeError);
    relay.removeMember(alice.ssrc);
    expect(relay.videoSsrcsOf(alice.ssrc)).toEqual([]);
  });
});
