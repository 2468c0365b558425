/**
 * Video for a Node voice connection (docs/sdk.md#video-and-screen-share), sending side: the
 * streams Ready gave the player (a camera and a screen, each an ssrc and an RTX ssrc), op 12
 * saying which of them are sent, and VP8 frames, DAVE-encrypted whole, cut into RTP packets: RFC
 * 7741's payload descriptor on each, one 90 kHz timestamp, the marker bit on the last. The voice
 * server's relay forwards a frame only once all its packets arrived and, put together, they are
 * a DAVE frame. The receiving side is nodeVoiceVideoReceive.ts.
 *
 * @module
 */
import type { VideoSendResult, VideoStreamType } from '../voiceTransport.js';
import { MAX_VIDEO_FRAME_BYTES, VIDEO_CHUNK_BYTES } from '../voiceValues.js';
import { RTP_OPUS_PAYLOAD_TYPE, RtpStream, type TransportSealer } from './nodeVoiceRtp.js';

/** The RTP payload type this SDK offers VP8 with (and its retransmissions', never sent). */
export const VP8_PAYLOAD_TYPE = 103;
const VP8_RTX_PAYLOAD_TYPE = 104;

/** Select Protocol's `codecs`: Opus, and VP8, the video codec this SDK packs. */
export const OFFERED_CODECS = [
  { name: 'opus', type: 'audio', priority: 1000, payload_type: RTP_OPUS_PAYLOAD_TYPE },
  {
    name: 'VP8',
    type: 'video',
    priority: 1000,
    payload_type: VP8_PAYLOAD_TYPE,
    rtx_payload_type: VP8_RTX_PAYLOAD_TYPE,
  },
] as const;

/** Identify's `streams`: a camera and a screen, for Ready to give each its ssrcs. */
export const IDENTIFY_STREAMS = [
  { type: 'video', rid: '100', quality: 100 },
  { type: 'screen', rid: '100', quality: 100 },
] as const;

/** RTP's clock for video. */
const VIDEO_CLOCK_PER_MS = 90;
/** What op 12 says the player sends at most (informative: the server relays, it does not transcode). */
const STREAM_LIMITS = {
  max_bitrate: 2_500_000,
  max_framerate: 30,
  max_resolution: { type: 'fixed', width: 1280, height: 720 },
} as const;

/** One of the player's streams, as Ready gave it. */
export interface OwnStream {
  type: VideoStreamType;
  rid: string;
  quality: number;
  ssrc: number;
  rtxSsrc: number;
}

/** Whether a value is an ssrc (a nonzero 32-bit unsigned integer). */
export function isSsrc(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) > 0 && (value as number) <= 0xffffffff;
}

/** Ready's (2) `streams`, those with ssrcs of their own (none when the server gave none). */
export function readyStreams(data: Record<string, unknown>): OwnStream[] {
  const streams = Array.isArray(data['streams']) ? (data['streams'] as unknown[]) : [];
  const own: OwnStream[] = [];
  for (const entry of streams) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { type, rid, quality, ssrc, rtx_ssrc: rtxSsrc } = entry as Record<string, unknown>;
    if ((type !== 'video' && type !== 'screen') || !isSsrc(ssrc)) continue;
    if (own.some((s) => s.type === type)) continue;
    own.push({
      type,
      rid: typeof rid === 'string' ? rid : '100',
      quality: typeof quality === 'number' ? quality : 100,
      ssrc,
      rtxSsrc: isSsrc(rtxSsrc) ? rtxSsrc : 0,
    });
  }
  return own;
}

/**
 * A VP8 frame's RTP payloads (RFC 7741 §4): each a one-byte payload descriptor (S set on the
 * first, partition 0, no extensions) and up to {@link VIDEO_CHUNK_BYTES} of the frame.
 */
export function vp8Payloads(frame: Uint8Array): Uint8Array[] {
  const payloads: Uint8Array[] = [];
  for (let offset = 0; offset < frame.length || offset === 0; offset += VIDEO_CHUNK_BYTES) {
    const chunk = frame.subarray(offset, offset + VIDEO_CHUNK_BYTES);
    const payload = new Uint8Array(chunk.length + 1);
    payload[0] = offset === 0 ? 0x10 : 0x00;
    payload.set(chunk, 1);
    payloads.push(payload);
  }
  return payloads;
}

interface SendingStream {
  own: OwnStream;
  active: boolean;
  rtp: RtpStream;
  /** A random start for the stream's 90 kHz clock, and its last frame's timestamp. */
  offset: number;
  timestamp: number;
}

/** What the sender needs of its connection. */
export interface VideoSenderIo {
  /** Whether media can flow (Connected). */
  connected(): boolean;
  /** Op 12 to the voice server. */
  sendVideo(payload: Record<string, unknown>): void;
  /** DAVE's encryption of a VP8 frame (null while the group is not established). */
  encrypt(frame: Uint8Array): Uint8Array | null;
  /** A packet to the media socket. */
  sendPacket(packet: Buffer): void;
  /** Counts a frame sent. */
  sent(): void;
}

/** What Ready and Session Description set up for the player's video. */
export interface VideoSetup {
  /** Ready's audio ssrc and streams. */
  audioSsrc: number;
  streams: readonly OwnStream[];
  /** Session Description's `video_codec`: the streams can be sent if it is VP8. */
  codec: unknown;
  sealer: TransportSealer;
  random: (bits: number) => number;
}

/** The player's video streams: which are sent (op 12), and their frames' packets. */
export class VideoSender {
  readonly #audioSsrc: number;
  readonly #io: VideoSenderIo;
  readonly #streams = new Map<VideoStreamType, SendingStream>();
  readonly #vp8: boolean;

  constructor(setup: VideoSetup, io: VideoSenderIo) {
    const { sealer, random } = setup;
    this.#audioSsrc = setup.audioSsrc;
    this.#io = io;
    this.#vp8 = typeof setup.codec === 'string' && setup.codec.toUpperCase() === 'VP8';
    for (const own of setup.streams) {
      const rtp = new RtpStream({ ssrc: own.ssrc, payloadType: VP8_PAYLOAD_TYPE, sealer, random });
      const offset = random(32);
      this.#streams.set(own.type, { own, active: false, rtp, offset, timestamp: offset });
    }
  }

  /**
   * Starts or stops a stream (op 12 when that changed it). False when it cannot: not connected,
   * or no stream of that type with VP8 agreed.
   */
  setActive(type: VideoStreamType, active: boolean): boolean {
    const stream = this.#sendable(type);
    if (stream === null || !this.#io.connected()) return false;
    if (stream.active !== active) {
      stream.active = active;
      this.#io.sendVideo(this.videoPayload());
    }
    return true;
  }

  /** Whether any stream is being sent. */
  get sending(): boolean {
    return [...this.#streams.values()].some((stream) => stream.active);
  }

  /** Op 12 as of now: the first sent stream (the camera before the screen) and every stream. */
  videoPayload(): Record<string, unknown> {
    const streams = [...this.#streams.values()];
    const first = streams.find((s) => s.active)?.own;
    return {
      audio_ssrc: this.#audioSsrc,
      video_ssrc: first?.ssrc ?? 0,
      rtx_ssrc: first?.rtxSsrc ?? 0,
      streams: streams.map(({ own, active }) => ({
        type: own.type,
        rid: own.rid,
        ssrc: own.ssrc,
        rtx_ssrc: own.rtxSsrc,
        active,
        quality: own.quality,
        ...STREAM_LIMITS,
      })),
    };
  }

  /**
   * Sends one VP8 frame of a started stream: DAVE-encrypted whole, then its packets, each a
   * part of it (a frame of at most MAX_VIDEO_FRAME_BYTES fits in MAX_VIDEO_FRAME_PACKETS).
   */
  send(type: VideoStreamType, frame: Uint8Array): VideoSendResult {
    if (!this.#io.connected()) return 'notConnected';
    if (frame.length > MAX_VIDEO_FRAME_BYTES) return 'tooLarge';
    const stream = this.#sendable(type);
    if (stream === null) return 'noVideoCodec';
    if (!stream.active) return 'notStreaming';
    const daveFrame = this.#io.encrypt(frame);
    if (daveFrame === null) return 'e2eePending';
    const payloads = vp8Payloads(daveFrame);
    // Each frame a timestamp of its own: the 90 kHz clock, and always forward (it wraps).
    const now = (stream.offset + Math.round(performance.now() * VIDEO_CLOCK_PER_MS)) >>> 0;
    stream.timestamp = ((now - stream.timestamp) | 0) > 0 ? now : (stream.timestamp + 1) >>> 0;
    const { rtp, timestamp } = stream;
    payloads.forEach((payload, i) => {
      this.#io.sendPacket(rtp.packet(payload, timestamp, i === payloads.length - 1));
    });
    this.#io.sent();
    return 'sent';
  }

  /** The stream of `type` if frames can be sent on it: VP8 agreed, and Ready gave it an ssrc. */
  #sendable(type: VideoStreamType): SendingStream | null {
    return this.#vp8 ? (this.#streams.get(type) ?? null) : null;
  }
}
