/**
 * Video through the relay: a member's video streams (their ssrcs and the payload types its codecs
 * were negotiated with), what each receiver wants to receive (op 15, Media Sink Wants), and the
 * gate that lets a video frame through only whole and end-to-end encrypted. A video frame spans
 * several RTP packets (one timestamp, the marker bit on its last); DAVE's supplemental data and
 * marker end the frame, not each packet, so the packets of a frame are held until its last one
 * arrives and the frame is forwarded only if, put together, it is a DAVE frame. Nothing of a
 * plaintext frame ever leaves. Retransmissions (RTX) are not relayed: they could not be checked.
 *
 * @module
 */
import { classifyFrame, FrameKind } from './mediaFrame.js';

/** Streams (video or screen) a member may have, each an ssrc and its RTX ssrc. */
export const MAX_VIDEO_STREAMS = 4;
/** The most packets one video frame may span; a bigger frame is dropped. */
export const MAX_VIDEO_FRAME_PACKETS = 128;
/** The most bytes one video frame may hold while it is gathered. */
export const MAX_VIDEO_FRAME_BYTES = 256 * 1024;
/** Video packets a member may send per second, as a multiple of its audio limit. */
export const VIDEO_RATE_FACTOR = 10;

/** What a receiver wants (op 15): a quality 0–100 per ssrc, `any` for the rest; 0: none. */
export interface SinkWants {
  any: number;
  bySsrc: ReadonlyMap<number, number>;
}

export const WANTS_EVERYTHING: SinkWants = { any: 100, bySsrc: new Map() };

export function wantsVideo(wants: SinkWants, ssrc: number): boolean {
  return (wants.bySsrc.get(ssrc) ?? wants.any) > 0;
}

/** One decrypted video packet: its RTP header and the payload (transport layer off). */
export interface VideoPacket {
  header: Buffer;
  payload: Buffer;
}

interface Pending {
  timestamp: number;
  packets: VideoPacket[];
  /** The frame's bytes, packet by packet (RTP extension body and padding left out). */
  parts: Buffer[];
  bytes: number;
}

/** The verdict on a video packet. */
export type VideoVerdict =
  | { kind: 'pending' }
  /** The frame's last packet: the whole frame, a DAVE frame, to forward in order. */
  | { kind: 'frame'; packets: VideoPacket[] }
  /** The frame is dropped: plaintext, too big, or cut short by the next one. */
  | { kind: 'refused'; reason: 'notE2ee' | 'incompleteFrame' };

/** The frames being gathered, one per video ssrc. */
export class VideoFrameGate {
  readonly #pending = new Map<number, Pending>();

  /** Adds a packet whose frame bytes are `payload[start, end)`. */
  push(ssrc: number, packet: VideoPacket, range: { start: number; end: number }): VideoVerdict {
    const timestamp = packet.header.readUInt32BE(4);
    let pending = this.#pending.get(ssrc);
    let cut = false;
    if (pending !== undefined && pending.timestamp !== timestamp) {
      // The next frame began before this one ended: this one can never be checked.
      this.#pending.delete(ssrc);
      pending = undefined;
      cut = true;
    }
    pending ??= { timestamp, packets: [], parts: [], bytes: 0 };
    const part = packet.payload.subarray(range.start, range.end);
    pending.packets.push(packet);
    pending.parts.push(part);
    pending.bytes += part.length;
    if (pending.packets.length > MAX_VIDEO_FRAME_PACKETS || pending.bytes > MAX_VIDEO_FRAME_BYTES) {
      this.#pending.delete(ssrc);
      return { kind: 'refused', reason: 'incompleteFrame' };
    }
    const last = ((packet.header[1] ?? 0) & 0x80) !== 0;
    if (!last) {
      this.#pending.set(ssrc, pending);
      return cut ? { kind: 'refused', reason: 'incompleteFrame' } : { kind: 'pending' };
    }
    this.#pending.delete(ssrc);
    const frame = Buffer.concat(pending.parts);
    return classifyFrame(frame, 0, frame.length) === FrameKind.E2EE
      ? { kind: 'frame', packets: pending.packets }
      : { kind: 'refused', reason: 'notE2ee' };
  }

  /** Forgets a stream's frame (its member left). */
  forget(ssrc: number): void {
    this.#pending.delete(ssrc);
  }
}
