/**
 * What the relay lets through once the transport layer is off: only frames that are still end-to-
 * end encrypted (DAVE protocol, "Frame format" of the DAVE whitepaper; libdave
 * `InboundFrameProcessor::ParseFrame`), and the Opus silence frame that clients send unencrypted
 * when they stop talking (@discordjs/voice `DAVESession.encrypt` passes `SILENCE_FRAME` through).
 * The relay never holds a DAVE key: it checks the frame's shape, not its contents.
 *
 * @module
 */

/** The marker ending every DAVE-encrypted frame. */
export const DAVE_MAGIC_MARKER = 0xfafa;
/** The Opus silence frame (3 bytes). */
export const OPUS_SILENCE_FRAME: readonly number[] = [0xf8, 0xff, 0xfe];
/**
 * The smallest supplemental data: an 8-byte truncated AES-GCM tag, the 1-byte size and the
 * 2-byte marker (libdave `MinSupplementalBytesSize`; the nonce adds at least one more byte).
 */
export const DAVE_MIN_SUPPLEMENTAL_BYTES = 11;

/** The verdict on a decrypted media frame. */
export const FrameKind = {
  /** A DAVE frame: forwarded. */
  E2EE: 0,
  /** The Opus silence frame: forwarded. */
  SILENCE: 1,
  /** Anything else (plaintext media, garbage): dropped. */
  REFUSED: 2,
} as const;
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind];

/**
 * Classifies `payload[start, end)`: a DAVE frame ends with the magic marker, preceded by the
 * size of the supplemental data, which must fit in the frame and be at least
 * {@link DAVE_MIN_SUPPLEMENTAL_BYTES}.
 */
export function classifyFrame(payload: Uint8Array, start: number, end: number): FrameKind {
  const length = end - start;
  if (length === 3) {
    return payload[start] === 0xf8 && payload[start + 1] === 0xff && payload[start + 2] === 0xfe
      ? FrameKind.SILENCE
      : FrameKind.REFUSED;
  }
  if (length < DAVE_MIN_SUPPLEMENTAL_BYTES) return FrameKind.REFUSED;
  if (payload[end - 1] !== 0xfa || payload[end - 2] !== 0xfa) return FrameKind.REFUSED;
  const supplemental = payload[end - 3] ?? 0;
  return supplemental >= DAVE_MIN_SUPPLEMENTAL_BYTES && supplemental <= length
    ? FrameKind.E2EE
    : FrameKind.REFUSED;
}

/**
 * Where the media frame ends inside a decrypted payload: before the RTP padding when the P bit
 * (0x20 of the first header byte) is set (RFC 3550 §5.1: the last byte counts the padding,
 * itself included). -1 when the padding count does not fit.
 */
export function frameEnd(firstHeaderByte: number, payload: Uint8Array, start: number): number {
  const end = payload.length;
  if ((firstHeaderByte & 0x20) === 0) return end;
  const padding = payload[end - 1] ?? 0;
  return padding === 0 || padding > end - start ? -1 : end - padding;
}
