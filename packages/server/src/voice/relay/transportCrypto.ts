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
 * AES-256-GCM, 24 for XChaCha20-Poly1305).
 *
 * AES-256-GCM is node:crypto's (OpenSSL). XChaCha20-Poly1305 is built the standard way
 * (draft-irtf-cfrg-xchacha §2.3, as libsodium does): HChaCha20 from @noble/ciphers derives a
 * subkey from the key and the nonce's first 16 bytes, then OpenSSL's ChaCha20-Poly1305 (RFC 8439)
 * runs under it with the nonce `0x00000000 ‖ nonce[16..24]` — all zeros here, since the counter
 * sits in the first 4 bytes. That is about half the CPU of @noble/ciphers' pure-JS
 * `xchacha20poly1305` per packet (docs/benchmarks.md, "Voice relay"); the tests check it against
 * that function and against @discordjs/voice.
 *
 * @module
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { VoiceEncryptionMode } from '@guildhall/protocol';
import { hchacha } from '@noble/ciphers/chacha.js';

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

const AEAD_NONCE_BYTES = 12;
const TRAILER_BYTES = TRANSPORT_TAG_BYTES + TRANSPORT_NONCE_BYTES;
/** "expand 32-byte k" as little-endian words: ChaCha's constant. */
const CHACHA_SIGMA = new Uint32Array([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);

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
 * receives. Not safe to share between concurrent users (it keeps scratch nonces), which the
 * single-threaded relay never is.
 */
export class TransportCipher {
  readonly mode: VoiceEncryptionMode;
  readonly #key: Buffer;
  /** The 12-byte AEAD nonce: the counter in its first 4 bytes for AES-GCM; all zeros for ChaCha. */
  readonly #nonce = Buffer.alloc(AEAD_NONCE_BYTES);
  /** XChaCha20 only: the key as words, HChaCha20's input and output, and the subkey's bytes. */
  readonly #keyWords = new Uint32Array(8);
  readonly #hchachaNonce = new Uint32Array(4);
  readonly #subkeyWords = new Uint32Array(8);
  readonly #subkey = Buffer.alloc(TRANSPORT_KEY_BYTES);

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
    for (let i = 0; i < 8; i += 1) this.#keyWords[i] = this.#key.readUInt32LE(4 * i);
  }

  /**
   * Authenticates and decrypts `packet`, whose clear part is `headerBytes` long
   * ({@link rtpsizeHeaderBytes}); answers the decrypted payload (extension body, frame, padding)
   * or null when the packet does not authenticate under this key.
   */
  open(packet: Uint8Array, headerBytes: number): Buffer | null {
    const end = packet.length;
    const cipherEnd = end - TRANSPORT_NONCE_BYTES;
    const tagStart = cipherEnd - TRANSPORT_TAG_BYTES;
    if (headerBytes < RTP_FIXED_HEADER_BYTES || tagStart < headerBytes) return null;
    const counter =
      ((packet[cipherEnd] ?? 0) * 0x100_0000 +
        (((packet[cipherEnd + 1] ?? 0) << 16) |
          ((packet[cipherEnd + 2] ?? 0) << 8) |
          (packet[cipherEnd + 3] ?? 0))) >>>
      0;
    try {
      const decipher =
        this.mode === 'aead_aes256_gcm_rtpsize'
          ? createDecipheriv('aes-256-gcm', this.#key, this.#aesNonce(counter), {
              authTagLength: TRANSPORT_TAG_BYTES,
            })
          : createDecipheriv('chacha20-poly1305', this.#xchachaSubkey(counter), this.#nonce, {
              authTagLength: TRANSPORT_TAG_BYTES,
            });
      decipher.setAAD(packet.subarray(0, headerBytes));
      decipher.setAuthTag(packet.subarray(tagStart, cipherEnd));
      const plain = decipher.update(packet.subarray(headerBytes, tagStart));
      // Throws when the tag does not match: nothing of `plain` is used then.
      decipher.final();
      return plain;
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
    const cipher =
      this.mode === 'aead_aes256_gcm_rtpsize'
        ? createCipheriv('aes-256-gcm', this.#key, this.#aesNonce(counter), {
            authTagLength: TRANSPORT_TAG_BYTES,
          })
        : createCipheriv('chacha20-poly1305', this.#xchachaSubkey(counter), this.#nonce, {
            authTagLength: TRANSPORT_TAG_BYTES,
          });
    cipher.setAAD(header);
    out.set(cipher.update(payload), headerBytes);
    // Neither mode pads: final() adds nothing.
    cipher.final();
    out.set(cipher.getAuthTag(), cipherEnd - TRANSPORT_TAG_BYTES);
    return out;
  }

  /** The AES-GCM nonce: `counter` big-endian, then 8 zero bytes. */
  #aesNonce(counter: number): Buffer {
    this.#nonce.writeUInt32BE(counter, 0);
    return this.#nonce;
  }

  /**
   * The XChaCha20 subkey for a 24-byte nonce of `counter` big-endian and 20 zero bytes:
   * HChaCha20(key, nonce[0..16]), the nonce read as little-endian words.
   */
  #xchachaSubkey(counter: number): Buffer {
    const words = this.#hchachaNonce;
    words[0] =
      ((counter >>> 24) & 0xff) |
      (((counter >>> 16) & 0xff) << 8) |
      (((counter >>> 8) & 0xff) << 16) |
      ((counter & 0xff) << 24);
    hchacha(CHACHA_SIGMA, this.#keyWords, words, this.#subkeyWords);
    const subkey = this.#subkey;
    for (let i = 0; i < 8; i += 1) subkey.writeUInt32LE((this.#subkeyWords[i] ?? 0) >>> 0, 4 * i);
    return subkey;
  }
}
