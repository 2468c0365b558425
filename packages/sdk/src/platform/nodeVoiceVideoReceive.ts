/**
 * Video for a Node voice connection, receiving side: whose each video ssrc is (op 12, Video, of
 * the other members), the packets of each frame put back together (in sequence order, from the
 * packet that starts it to the one with the marker bit, RFC 7741's payload descriptors taken
 * off), and what the player wants to receive (op 15). A frame missing a packet, cut short by the
 * next or over the limits is dropped whole, as the relay drops it; the next key frame recovers.
 *
 * @module
 */
import type { VideoStreamState, VideoStreamType } from '../voiceTransport.js';
import type { OpenedRtp } from './nodeVoiceRtp.js';
import { MAX_VIDEO_FRAME_PACKETS } from '../voiceValues.js';
import { isSsrc } from './nodeVoiceVideo.js';

/** The most bytes a received frame may gather (the relay's limit). */
const MAX_FRAME_BYTES = 256 * 1024;
/** The most bytes all unfinished frames may hold together; a packet past it drops its frame. */
const MAX_GATHERING_BYTES = 4 * 1024 * 1024;
/** Video streams of others kept at most (four per member: as the audio side's known senders). */
const MAX_STREAMS = 4 * 1024;

/** A video stream of another member, and the timestamp of its last whole frame. */
interface RemoteStream {
  userId: string;
  type: VideoStreamType;
  lastFrame: number | null;
}

/** A frame being put together. */
interface Assembly {
  timestamp: number;
  parts: Map<number, Uint8Array>;
  first: number | null;
  last: number | null;
  bytes: number;
}

/** A whole frame of another member's stream: its DAVE frame. */
export interface GatheredFrame {
  userId: string;
  stream: VideoStreamType;
  ssrc: number;
  timestamp: number;
  daveFrame: Uint8Array;
}

/**
 * The frame bytes of a VP8 RTP payload and whether it starts partition 0 (RFC 7741 §4.2: the
 * descriptor's X, S and PID; the extension's I (picture id, 7 or 15 bits), L, T and K bytes).
 * Null when malformed.
 */
export function vp8Chunk(payload: Uint8Array): { start: boolean; chunk: Uint8Array } | null {
  const first = payload[0];
  if (first === undefined) return null;
  let at = 1;
  if ((first & 0x80) !== 0) {
    const extension = payload[at];
    if (extension === undefined) return null;
    at += 1;
    if ((extension & 0x80) !== 0) at += ((payload[at] ?? 0) & 0x80) !== 0 ? 2 : 1;
    if ((extension & 0x40) !== 0) at += 1;
    if ((extension & 0x30) !== 0) at += 1;
  }
  if (at > payload.length) return null;
  return { start: (first & 0x10) !== 0 && (first & 0x07) === 0, chunk: payload.subarray(at) };
}

/** `a` before `b` in RTP's wrapping 32-bit timestamps. */
function before(a: number, b: number): boolean {
  return ((a - b) | 0) < 0;
}

/** The other members' video: their streams, their frames, and the player's wants. */
export class VideoReceiver {
  readonly #selfId: string;
  readonly #streams = new Map<number, RemoteStream>();
  readonly #assemblies = new Map<number, Assembly>();
  /** The bytes the unfinished frames hold. */
  #gathering = 0;
  /** Members whose video the player does not want (op 15 names their ssrcs with 0). */
  readonly #unwanted = new Set<string>();
  readonly #dropped: () => void;

  constructor(selfId: string, dropped: () => void) {
    this.#selfId = selfId;
    this.#dropped = dropped;
  }

  /** The member whose video stream `ssrc` is (op 12 named it). */
  owner(ssrc: number): string | undefined {
    return this.#streams.get(ssrc)?.userId;
  }

  /**
   * Op 12 of another member: its streams' ssrcs are now known. The member, what it sends, and
   * the ssrcs named (whose held packets can now be read); null when malformed or the player's.
   */
  onVideo(
    data: Record<string, unknown>,
  ): { userId: string; streams: VideoStreamState[]; ssrcs: number[] } | null {
    const userId = data['user_id'];
    if (typeof userId !== 'string' || !/^\d{1,20}$/.test(userId) || userId === this.#selfId) {
      return null;
    }
    const listed = Array.isArray(data['streams']) ? (data['streams'] as unknown[]) : [];
    const streams: VideoStreamState[] = [];
    const ssrcs: number[] = [];
    for (const entry of listed.slice(0, 4)) {
      if (typeof entry !== 'object' || entry === null) continue;
      const { type, ssrc, active } = entry as Record<string, unknown>;
      if ((type !== 'video' && type !== 'screen') || !isSsrc(ssrc)) continue;
      streams.push({ type, active: active === true });
      ssrcs.push(ssrc);
    }
    const added = ssrcs.filter((ssrc) => this.#streams.get(ssrc)?.userId !== userId);
    if (this.#streams.size + added.length > MAX_STREAMS) return null;
    // Streams it no longer lists go; those it still lists keep their frames in progress.
    this.#drop(userId, (ssrc) => !ssrcs.includes(ssrc));
    streams.forEach((s, i) => {
      const ssrc = ssrcs[i] ?? 0;
      const known = this.#streams.get(ssrc);
      if (known?.userId === userId && known.type === s.type) return;
      this.#dropAssembly(ssrc);
      this.#streams.set(ssrc, { userId, type: s.type, lastFrame: null });
    });
    return { userId, streams, ssrcs };
  }

  /** A member left: its streams and half-gathered frames go. */
  forget(userId: string): void {
    this.#drop(userId, () => true);
  }

  #drop(userId: string, which: (ssrc: number) => boolean): void {
    for (const [ssrc, stream] of this.#streams) {
      if (stream.userId !== userId || !which(ssrc)) continue;
      this.#streams.delete(ssrc);
      this.#dropAssembly(ssrc);
    }
  }

  #dropAssembly(ssrc: number): void {
    const assembly = this.#assemblies.get(ssrc);
    if (assembly === undefined) return;
    this.#gathering -= assembly.bytes;
    this.#assemblies.delete(ssrc);
  }

  /** Whether the player wants the member's video; op 15's payload when that changed it. */
  setWanted(userId: string, wanted: boolean): Record<string, number> | null {
    if (wanted === !this.#unwanted.has(userId)) return null;
    if (wanted) this.#unwanted.delete(userId);
    else this.#unwanted.add(userId);
    return this.sinkWants();
  }

  /** Op 15: everything, but the streams of members the player does not want at quality 0. */
  sinkWants(): Record<string, number> {
    const wants: Record<string, number> = { any: 100 };
    for (const [ssrc, { userId }] of this.#streams) {
      if (this.#unwanted.has(userId)) wants[String(ssrc)] = 0;
    }
    return wants;
  }

  /** Whether the player wants anyone's video not (op 15 has something to say). */
  get narrowed(): boolean {
    return this.#unwanted.size > 0;
  }

  /** Whether the player does not want the member's video. */
  unwanted(userId: string): boolean {
    return this.#unwanted.has(userId);
  }

  /** A packet of a known stream: the whole frame once its last packet is in, else null. */
  push(opened: OpenedRtp): GatheredFrame | null {
    const stream = this.#streams.get(opened.ssrc);
    if (stream === undefined || this.#unwanted.has(stream.userId)) {
      this.#dropped();
      return null;
    }
    const parsed = vp8Chunk(opened.payload);
    if (parsed === null) {
      this.#dropped();
      return null;
    }
    const assembly = this.#assemblyFor(stream, opened.ssrc, opened.timestamp);
    if (assembly === null) return null;
    if (parsed.start) assembly.first = opened.sequence;
    if (opened.marker) assembly.last = opened.sequence;
    const size = assembly.parts.get(opened.sequence)?.length ?? 0;
    assembly.parts.set(opened.sequence, parsed.chunk);
    assembly.bytes += parsed.chunk.length - size;
    this.#gathering += parsed.chunk.length - size;
    if (
      assembly.parts.size > MAX_VIDEO_FRAME_PACKETS ||
      assembly.bytes > MAX_FRAME_BYTES ||
      this.#gathering > MAX_GATHERING_BYTES
    ) {
      this.#dropAssembly(opened.ssrc);
      this.#dropped();
      return null;
    }
    const { first, last } = assembly;
    if (first === null || last === null) return null;
    const count = ((last - first) & 0xffff) + 1;
    if (assembly.parts.size < count) return null;
    this.#dropAssembly(opened.ssrc);
    stream.lastFrame = opened.timestamp;
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < count; i += 1) {
      const chunk = assembly.parts.get((first + i) & 0xffff);
      if (chunk === undefined) {
        this.#dropped();
        return null;
      }
      chunks.push(chunk);
    }
    return {
      userId: stream.userId,
      stream: stream.type,
      ssrc: opened.ssrc,
      timestamp: opened.timestamp,
      daveFrame: Buffer.concat(chunks),
    };
  }

  /**
   * The frame of `timestamp` on `ssrc`: a later one drops the unfinished one before it, and a
   * packet of a frame no later than the last whole one (late, repeated or replayed) is refused.
   */
  #assemblyFor(stream: RemoteStream, ssrc: number, timestamp: number): Assembly | null {
    const current = this.#assemblies.get(ssrc);
    if (current?.timestamp === timestamp) return current;
    const late =
      (current !== undefined && before(timestamp, current.timestamp)) ||
      (stream.lastFrame !== null && !before(stream.lastFrame, timestamp));
    if (late) {
      this.#dropped();
      return null;
    }
    if (current !== undefined) {
      // The next frame began before this one ended: this one can never be whole.
      this.#dropAssembly(ssrc);
      this.#dropped();
    }
    const fresh: Assembly = { timestamp, parts: new Map(), first: null, last: null, bytes: 0 };
    this.#assemblies.set(ssrc, fresh);
    return fresh;
  }
}
