/**
 * @module voice/frames: what a voice client may send, parsed strictly. JSON frames are
 * `{op, d}`; binary frames are `[opcode u8][payload]` (DAVE's MLS messages, ops 26 and 28).
 */
import { VOICE_ENCRYPTION_MODES, VoiceOpcodes as Op } from '@guildhall/protocol';
import { z } from 'zod';

const MAX_ID = 32;
/** Video streams per member (the relay's MAX_VIDEO_STREAMS). */
const MAX_STREAMS = 4;
const ssrcValue = z.number().int().min(0).max(0xffff_ffff);

/** A codec Select Protocol offers: Opus for audio, a video codec for video and screens. */
export const Codec = z.object({
  name: z.string().max(16),
  type: z.enum(['audio', 'video']),
  priority: z.number().int().min(0).max(1_000_000),
  payload_type: z.number().int().min(0).max(127),
  rtx_payload_type: z.number().int().min(0).max(127).nullable().optional(),
});

/** One stream of op 12 (a camera or a screen), as its sender describes it. */
const VideoStream = z.object({
  type: z.enum(['video', 'screen']),
  rid: z.string().max(8).optional(),
  ssrc: ssrcValue,
  rtx_ssrc: ssrcValue,
  active: z.boolean(),
  quality: z.number().int().min(0).max(100).optional(),
  max_bitrate: z.number().int().min(0).max(100_000_000).optional(),
  max_framerate: z.number().int().min(0).max(240).optional(),
  max_resolution: z
    .object({
      type: z.string().max(16),
      width: z.number().int().min(0).max(16_384),
      height: z.number().int().min(0).max(16_384),
    })
    .optional(),
});

/** Op 12, Video: the sender's ssrcs (0: not sending) and its streams. */
export const VideoData = z.object({
  audio_ssrc: ssrcValue,
  video_ssrc: ssrcValue,
  rtx_ssrc: ssrcValue,
  streams: z.array(VideoStream).max(MAX_STREAMS).optional(),
});

/** Op 15, Media Sink Wants: a quality 0–100 per ssrc (`any`: every other). */
export const SinkWantsData = z
  .record(z.string().regex(/^(any|\d{1,10})$/), z.number().int().min(0).max(100))
  .refine((wants) => Object.keys(wants).length <= 64);
const MAX_TOKEN = 1024;

const snowflake = z.string().regex(/^\d{1,20}$/);

export const IdentifyData = z.object({
  server_id: snowflake,
  user_id: snowflake,
  session_id: z.string().min(1).max(MAX_ID),
  token: z.string().min(1).max(MAX_TOKEN),
  max_dave_protocol_version: z.number().int().min(0).max(255).optional(),
  video: z.boolean().optional(),
  /** The video streams the client will send (a camera, a screen): Ready gives each its ssrcs. */
  streams: z
    .array(
      z.object({
        type: z.enum(['video', 'screen']),
        rid: z.string().max(8).optional(),
        quality: z.number().int().min(0).max(100).optional(),
      }),
    )
    .max(MAX_STREAMS)
    .optional(),
});

export const ResumeData = z.object({
  server_id: snowflake,
  session_id: z.string().min(1).max(MAX_ID),
  token: z.string().min(1).max(MAX_TOKEN),
  seq_ack: z.number().int().min(-1).max(0xffff).optional(),
});

export const SelectProtocolData = z.object({
  protocol: z.string().max(16),
  data: z.object({
    address: z.string().max(64),
    port: z.number().int().min(0).max(65_535),
    mode: z.string().max(64),
  }),
  codecs: z.array(Codec).max(16).optional(),
});

/** Heartbeat `d`: v8's `{t, seq_ack}`, or an older client's bare nonce. */
export const HeartbeatData = z.union([
  z.object({
    t: z.number().int().nonnegative(),
    seq_ack: z.number().int().min(-1).max(0xffff).optional(),
  }),
  z.number().int().nonnegative(),
]);

export const SpeakingData = z.object({
  speaking: z.number().int().min(0).max(7),
  delay: z.number().int().min(0).max(60_000).optional(),
  ssrc: z.number().int().min(0).max(0xffff_ffff),
});

export const TransitionData = z.object({
  transition_id: z.number().int().min(0).max(0xffff),
});

export const ClientFrame = z.object({
  op: z.number().int(),
  d: z.unknown(),
});

export type VoiceMode = (typeof VOICE_ENCRYPTION_MODES)[number];

export function isVoiceMode(mode: string): mode is VoiceMode {
  return (VOICE_ENCRYPTION_MODES as readonly string[]).includes(mode);
}

/** The binary opcodes a client may send. */
export const CLIENT_BINARY_OPS: ReadonlySet<number> = new Set([
  Op.DAVE_MLS_KEY_PACKAGE,
  Op.DAVE_MLS_COMMIT_WELCOME,
]);
