/**
 * Transport encryption of the voice UDP media: the `_rtpsize` AEAD modes the v8 voice gateway
 * offers (`aead_aes256_gcm_rtpsize`, `aead_xchacha20_poly1305_rtpsize`), in the packet layout
 * @discordjs/voice 0.19 writes and reads (Networking.ts `createAudioPacket`, receive/VoiceReceiver.ts):
 *
 * ```
 * | RTP header 12 B | CSRCs 4·CC B | extension header 4 B if X | ciphertext | tag 16 B | nonce 4 B |
 *   └──────────── sent in the clear, authenticated (AAD) ────────┘
 * ```
 *
 * The ciphertext covers the extension body (if any), the media frame and any RTP padding. The
 * AEAD nonce is the 4-byte big-endian counter at the packet's end followed by zeros (12 bytes for
 * AES-256-GCM, 24 for XChaCha20-Poly1305). AES-GCM comes from node:crypto (OpenSSL),
 * XChaCha20-Poly1305 from @noble/ciphers.
 *
 * @module
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { VoiceEncryptionMode } from '@guildhall/protocol';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';

/** The fixed RTP header (RFC 3550 §5.1). */
export const RTP_FIXED_HEADER_BYTES = 12;
/** The AEAD tag of both modes. */
export const TRANSPORT_TAG_BYTES = 16;
/** The nonce counter appended to every packet. */
export const TRANSPORT_NONCE_BYTES = 4;
/** The secret key of both modes (Session Description `secret_key`). */
export const TRANSPORT_KEY_BYTES = 32;
/** The largest nonce counter; a sender must not go past it under one key. */
export const MAX_TRANSPORT_NONCE = 0xffff_ffff;

const AES_NONCE_BYTES = 12;
const XCHACHA_NONCE_BYTES = 24;
const TRAILER_BYTES = TRANSPORT_TAG_BYTES + TRANSPORT_NONCE_BYTES;

/**
 * The length of the part of an `_rtpsize` packet sent in the clear: the fixed header, the CSRC
 * list and, when the X bit is set, the 4-byte extension header (profile and length; the
 * extension body is encrypted). -1 when the packet is not RTP version 2 or is too short to hold
 * that much plus the tag and the nonce.
 */
export function rtpsizeHeaderBytes(packet: Uint8Array): number {
  if (packet.length < RTP_FIXED_HEADER_BYTES + TRAILER_BYTES) return -1;
  const first = packet[0] ?? 0;
  if (first >> 6 !== 2) return -1;
  let bytes = RTP_FIXED_HEADER_BYTES + 4 * (first & 0x0f);
  if ((first & 0x10) !== 0) bytes += 4;
  return packet.length >= bytes + TRAILER_BYTES ? bytes : -1;
}

/**
 * The length of the extension body at the start of the decrypted payload: 4 × the extension
 * header's length field, 0 without the X bit. `headerBytes` is {@link rtpsizeHeaderBytes}'s answer.
 */
export function rtpExtensionBodyBytes(packet: Uint8Array, headerBytes: number): number {
  if (((packet[0] ?? 0) & 0x10) === 0) return 0;
  return 4 * (((packet[headerBytes - 2] ?? 0) << 8) | (packet[headerBytes - 1] ?? 0));
}

/** The nonce counter a packet carries (its last 4 bytes, big-endian). */
export function transportNonceOf(packet: Uint8Array): number {
  const end = packet.length;
  return (
    ((packet[end - 4] ?? 0) * 0x100_0000 +
      (((packet[end - 3] ?? 0) << 16) | ((packet[end - 2] ?? 0) << 8) | (packet[end - 1] ?? 0))) >>>
    0
  );
}

/**
 * One member's transport key in one mode: opens what the member sends and seals what it
 * receives. Not safe to share between concurrent users (it keeps a scratch nonce), which the
 * single-threaded relay never is.
 */
export class TransportCipher {
  readonly mode: VoiceEncryptionMode;
  readonly #key: Buffer;
  /** The AEAD nonce: the counter in its first 4 bytes, zeros after. Reused for every packet. */
  readonly #nonce: Buffer;

  /**
   * @param mode - the mode Select Protocol chose
   * @param key - the 32-byte secret key; copied
   */
  constructor(mode: VoiceEncryptionMode, key: Uint8Array) {
    if (key.length !== TRANSPORT_KEY_BYTES) {
      throw new TypeError(`A transport key has ${TRANSPORT_KEY_BYTES} bytes; got ${key.length}.`);
    }
    this.mode = mode;
    this.#key = Buffer.from(key);
    this.#nonce = Buffer.alloc(
      mode === 'aead_aes256_gcm_rtpsize' ? AES_NONCE_BYTES : XCHACHA_NONCE_BYTES,
    );
  }

  /**
   * Authenticates and decrypts `packet`, whose clear part is `headerBytes` long
   * ({@link rtpsizeHeaderBytes}); answers the decrypted payload (extension body, frame, padding)
   * or null when the packet does not authenticate under this key. `scratch`, when given and
   * large enough, receives the XChaCha20 plaintext instead of a new buffer (the answer is then a
   * view of it, valid until the next call).
   */
  open(packet: Uint8Array, headerBytes: number, scratch?: Uint8Array): Uint8Array | null {
    const end = packet.length;
    const cipherEnd = end - TRANSPORT_NONCE_BYTES;
    const tagStart = cipherEnd - TRANSPORT_TAG_BYTES;
    if (headerBytes < RTP_FIXED_HEADER_BYTES || tagStart < headerBytes) return null;
    const nonce = this.#nonce;
    nonce[0] = packet[cipherEnd] ?? 0;
    nonce[1] = packet[cipherEnd + 1] ?? 0;
    nonce[2] = packet[cipherEnd + 2] ?? 0;
    nonce[3] = packet[cipherEnd + 3] ?? 0;
    const header = packet.subarray(0, headerBytes);
    try {
      if (this.mode === 'aead_aes256_gcm_rtpsize') {
        const decipher = createDecipheriv('aes-256-gcm', this.#key, nonce, {
          authTagLength: TRANSPORT_TAG_BYTES,
        });
        decipher.setAAD(header);
        decipher.setAuthTag(packet.subarray(tagStart, cipherEnd));
        const plain = decipher.update(packet.subarray(headerBytes, tagStart));
        // Throws when the tag does not match: nothing of `plain` is used then.
        decipher.final();
        return plain;
      }
      const plainBytes = tagStart - headerBytes;
      const output =
        scratch !== undefined && scratch.length >= plainBytes
          ? scratch.subarray(0, plainBytes)
          : undefined;
      return xchacha20poly1305(this.#key, nonce, header).decrypt(
        packet.subarray(headerBytes, cipherEnd),
        output,
      );
    } catch {
      return null;
    }
  }

  /**
   * Builds a packet: `header` in the clear (as AAD), `payload` encrypted, the tag, and `counter`
   * (0 … {@link MAX_TRANSPORT_NONCE}) as the nonce. The caller never reuses a counter under one key.
   */
  seal(header: Uint8Array, payload: Uint8Array, counter: number): Buffer {
    const headerBytes = header.length;
    const out = Buffer.allocUnsafe(headerBytes + payload.length + TRAILER_BYTES);
    out.set(header, 0);
    const cipherEnd = out.length - TRANSPORT_NONCE_BYTES;
    out.writeUInt32BE(counter, cipherEnd);
    const nonce = this.#nonce;
    nonce.writeUInt32BE(counter, 0);
    if (this.mode === 'aead_aes256_gcm_rtpsize') {
      const cipher = createCipheriv('aes-256-gcm', this.#key, nonce, {
        authTagLength: TRANSPORT_TAG_BYTES,
      });
      cipher.setAAD(header);
      const encrypted = cipher.update(payload);
      out.set(encrypted, headerBytes);
      // GCM has no block padding: final() adds nothing.
      cipher.final();
      out.set(cipher.getAuthTag(), cipherEnd - TRANSPORT_TAG_BYTES);
    } else {
      xchacha20poly1305(this.#key, nonce, header).encrypt(
        payload,
        out.subarray(headerBytes, cipherEnd),
      );
    }
    return out;
  }
}
