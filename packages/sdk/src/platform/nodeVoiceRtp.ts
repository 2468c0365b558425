/**
 * The media packets of a Node voice connection: RTP (RFC 3550) carrying Opus, or video packed by
 * nodeVoiceVideo.ts, sealed with the transport encryption chosen at Select Protocol
 * (`aead_aes256_gcm_rtpsize` through node:crypto, `aead_xchacha20_poly1305_rtpsize` through
 * @noble/ciphers). In the `_rtpsize` modes the RTP header (with an extension's 4-byte header, if
 * any) is the additional data, and a 32-bit counter after the ciphertext is the nonce's first 4
 * bytes, the rest zero.
 *
 * @module
 */
import { createCipheriv, createDecipheriv, getCiphers } from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';

export type TransportMode = 'aead_aes256_gcm_rtpsize' | 'aead_xchacha20_poly1305_rtpsize';

/** The RTP payload type of Opus (same value as `RTP_OPUS_PAYLOAD_TYPE` in @guildhall/protocol). */
export const RTP_OPUS_PAYLOAD_TYPE = 0x78;
/** The Opus frame of 20 ms of silence: sent without DAVE, as the platform's clients do. */
export const OPUS_SILENCE_FRAME = Uint8Array.of(0xf8, 0xff, 0xfe);
/** An Opus packet is at most 1275 bytes (RFC 6716 §3.2.1). */
export const MAX_OPUS_FRAME_BYTES = 1275;
/** 48 kHz, 20 ms per frame. */
const TIMESTAMP_STEP = 960;
const TAG_BYTES = 16;
const NONCE_COUNTER_BYTES = 4;
const HEADER_BYTES = 12;

/** The modes this build can use, most preferred first. */
export function supportedTransportModes(): TransportMode[] {
  const modes: TransportMode[] = [];
  if (getCiphers().includes('aes-256-gcm')) modes.push('aead_aes256_gcm_rtpsize');
  modes.push('aead_xchacha20_poly1305_rtpsize');
  return modes;
}

/** The first mode of ours the server offers (Ready `modes`), else null. */
export function chooseTransportMode(offered: readonly string[]): TransportMode | null {
  return supportedTransportModes().find((mode) => offered.includes(mode)) ?? null;
}

function nonceFor(mode: TransportMode, counter: Uint8Array): Buffer {
  const nonce = Buffer.alloc(mode === 'aead_aes256_gcm_rtpsize' ? 12 : 24);
  nonce.set(counter, 0);
  return nonce;
}

// eslint-disable-next-line max-params -- an AEAD's inputs
function seal(
  mode: TransportMode,
  key: Uint8Array,
  nonce: Buffer,
  aad: Uint8Array,
  plain: Uint8Array,
): Uint8Array {
  if (mode === 'aead_aes256_gcm_rtpsize') {
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(aad);
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  }
  return xchacha20poly1305(key, nonce, aad).encrypt(plain);
}

/** Opens a sealed payload (ciphertext then tag); null when it does not authenticate. */
// eslint-disable-next-line max-params -- an AEAD's inputs
function open(
  mode: TransportMode,
  key: Uint8Array,
  nonce: Buffer,
  aad: Uint8Array,
  sealed: Uint8Array,
): Uint8Array | null {
  if (sealed.length < TAG_BYTES) return null;
  try {
    if (mode === 'aead_aes256_gcm_rtpsize') {
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAAD(aad);
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]);
    }
    return xchacha20poly1305(key, nonce, aad).decrypt(sealed);
  } catch {
    return null;
  }
}

/**
 * Seals the player's packets under the transport key: one nonce counter for all the connection's
 * streams (audio, camera, screen), as the server keeps one replay window per member.
 */
export class TransportSealer {
  readonly #mode: TransportMode;
  readonly #key: Uint8Array;
  #nonce = 0;

  constructor(mode: TransportMode, key: Uint8Array) {
    this.#mode = mode;
    this.#key = key;
  }

  /** The packet of an RTP header and its payload: header, sealed payload, nonce counter. */
  seal(header: Buffer, payload: Uint8Array): Buffer {
    this.#nonce = (this.#nonce + 1) >>> 0;
    const counter = Buffer.alloc(NONCE_COUNTER_BYTES);
    counter.writeUInt32BE(this.#nonce, 0);
    const sealed = seal(this.#mode, this.#key, nonceFor(this.#mode, counter), header, payload);
    return Buffer.concat([header, sealed, counter]);
  }
}

/** One RTP stream of the player's (RFC 3550): its ssrc, payload type and sequence numbers. */
export class RtpStream {
  readonly ssrc: number;
  readonly #payloadType: number;
  readonly #sealer: TransportSealer;
  #sequence: number;

  constructor(options: {
    ssrc: number;
    payloadType: number;
    sealer: TransportSealer;
    random: (bits: number) => number;
  }) {
    this.ssrc = options.ssrc;
    this.#payloadType = options.payloadType;
    this.#sealer = options.sealer;
    this.#sequence = options.random(16);
  }

  /** The next packet: `payload` at `timestamp`, the marker bit set when `marker`. */
  packet(payload: Uint8Array, timestamp: number, marker = false): Buffer {
    const header = Buffer.alloc(HEADER_BYTES);
    header[0] = 0x80;
    header[1] = (marker ? 0x80 : 0) | this.#payloadType;
    header.writeUInt16BE(this.#sequence, 2);
    header.writeUInt32BE(timestamp >>> 0, 4);
    header.writeUInt32BE(this.ssrc, 8);
    this.#sequence = (this.#sequence + 1) & 0xffff;
    return this.#sealer.seal(header, payload);
  }
}

/** The player's audio: one Opus frame per packet, the timestamp 20 ms further each time. */
export class RtpSender {
  readonly #stream: RtpStream;
  #timestamp: number;

  constructor(options: {
    ssrc: number;
    sealer: TransportSealer;
    random: (bits: number) => number;
  }) {
    this.#stream = new RtpStream({ ...options, payloadType: RTP_OPUS_PAYLOAD_TYPE });
    this.#timestamp = options.random(32);
  }

  /** The next packet for a payload (a DAVE frame, or the silence frame). */
  packet(payload: Uint8Array): Buffer {
    const packet = this.#stream.packet(payload, this.#timestamp);
    this.#timestamp = (this.#timestamp + TIMESTAMP_STEP) >>> 0;
    return packet;
  }
}

export interface OpenedRtp {
  ssrc: number;
  /** The RTP payload type: Opus, or the session's video codec. */
  payloadType: number;
  /** The marker bit: a video frame's last packet. */
  marker: boolean;
  sequence: number;
  timestamp: number;
  /** The media frame (the DAVE frame, or silence), without extension data and padding. */
  payload: Uint8Array;
}

/** The ssrc of a sealed RTP packet, or null for anything else (keepalive echoes and the like). */
export function rtpSsrc(packet: Uint8Array): number | null {
  if (packet.length < HEADER_BYTES + TAG_BYTES + NONCE_COUNTER_BYTES) return null;
  const view = Buffer.from(packet.buffer, packet.byteOffset, packet.length);
  if (view.readUInt8(0) >> 6 !== 2) return null;
  return view.readUInt32BE(8);
}

/** Authenticates and decrypts a received packet; null when malformed or it does not authenticate. */
export function openRtp(
  packet: Uint8Array,
  mode: TransportMode,
  key: Uint8Array,
): OpenedRtp | null {
  const ssrc = rtpSsrc(packet);
  if (ssrc === null) return null;
  const view = Buffer.from(packet.buffer, packet.byteOffset, packet.length);
  const first = view.readUInt8(0);
  const csrcCount = first & 0x0f;
  const hasExtension = (first & 0x10) !== 0;
  const hasPadding = (first & 0x20) !== 0;
  let headerBytes = HEADER_BYTES + 4 * csrcCount;
  const extensionAt = headerBytes;
  if (hasExtension) headerBytes += 4;
  if (view.length < headerBytes + TAG_BYTES + NONCE_COUNTER_BYTES) return null;
  const counter = view.subarray(view.length - NONCE_COUNTER_BYTES);
  const sealed = view.subarray(headerBytes, view.length - NONCE_COUNTER_BYTES);
  let payload = open(mode, key, nonceFor(mode, counter), view.subarray(0, headerBytes), sealed);
  if (payload === null) return null;
  if (hasPadding) {
    const padding = payload[payload.length - 1] ?? 0;
    if (padding === 0 || padding > payload.length) return null;
    payload = payload.subarray(0, payload.length - padding);
  }
  if (hasExtension) {
    // The extension's data (its length in 32-bit words) was encrypted with the payload.
    const words = view.readUInt16BE(extensionAt + 2);
    if (4 * words > payload.length) return null;
    payload = payload.subarray(4 * words);
  }
  const second = view.readUInt8(1);
  return {
    ssrc,
    payloadType: second & 0x7f,
    marker: (second & 0x80) !== 0,
    sequence: view.readUInt16BE(2),
    timestamp: view.readUInt32BE(4),
    payload,
  };
}

/** Whether a frame is the Opus silence frame. */
export function isSilenceFrame(frame: Uint8Array): boolean {
  return frame.length === 3 && frame[0] === 0xf8 && frame[1] === 0xff && frame[2] === 0xfe;
}
