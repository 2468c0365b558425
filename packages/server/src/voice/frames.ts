/**
 * @module voice/frames: what a voice client may send, parsed strictly. JSON frames are
 * `{op, d}`; binary frames are `[opcode u8][payload]` (DAVE's MLS messages, ops 26 and 28).
 */
import { VOICE_ENCRYPTION_MODES, VoiceOpcodes as Op } from '@guildhall/protocol';
import { z } from 'zod';

const MAX_ID = 32;
const MAX_TOKEN = 1024;

const snowflake = z.string().regex(/^\d{1,20}$/);

export const IdentifyData = z.object({
  server_id: snowflake,
  user_id: snowflake,
  session_id: z.string().min(1).max(MAX_ID),
  token: z.string().min(1).max(MAX_TOKEN),
  max_dave_protocol_version: z.number().int().min(0).max(255).optional(),
  video: z.boolean().optional(),
  streams: z.array(z.unknown()).max(16).optional(),
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
  codecs: z.array(z.unknown()).max(16).optional(),
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

/** Client opcodes Guildhall reads but has nothing to do for (video and media sinks). */
export const IGNORED_CLIENT_OPS: ReadonlySet<number> = new Set([12, 15, 16]);

/** The binary opcodes a client may send. */
export const CLIENT_BINARY_OPS: ReadonlySet<number> = new Set([
  Op.DAVE_MLS_KEY_PACKAGE,
  Op.DAVE_MLS_COMMIT_WELCOME,
]);
