import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { VOICE_ENCRYPTION_MODES, type VoiceEncryptionMode } from '@guildhall/protocol';
import { Networking, VoiceReceiver } from '@discordjs/voice';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { describe, expect, it } from 'vitest';
import {
  MAX_TRANSPORT_NONCE,
  rtpExtensionBodyBytes,
  rtpsizeHeaderBytes,
  TransportCipher,
  transportNonceOf,
} from './transportCrypto.js';

/** The connection data @discordjs/voice keeps per connection (Networking.ts `ConnectionData`). */
interface ConnectionData {
  encryptionMode: VoiceEncryptionMode;
  nonce: number;
  nonceBuffer: Buffer;
  secretKey: Uint8Array;
  sequence: number;
  ssrc: number;
  timestamp: number;
}

// @discordjs/voice's own packet code, called on its prototypes: neither method reads `this`
// beyond encryptOpusPacket, so this is exactly what a bot sends and how it reads what it gets.
const networking = Networking.prototype as unknown as {
  createAudioPacket(this: unknown, opus: Buffer, data: ConnectionData): Buffer;
  encryptOpusPacket: unknown;
};
const receiver = VoiceReceiver.prototype as unknown as {
  decrypt(
    this: unknown,
    packet: Buffer,
    mode: string,
    nonce: Buffer,
    key: Uint8Array,
    headerBytes: number,
  ): Buffer;
};

/** @discordjs/voice loads its XChaCha20 library asynchronously at import; wait for it. */
async function withSecretbox<T>(fn: () => T): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return fn();
    } catch (err) {
      if (attempt > 200 || !String(err).includes('no valid encryption package')) throw err;
      await sleep(5);
    }
  }
}

function discordJsPacket(
  mode: VoiceEncryptionMode,
  key: Uint8Array,
  opus: Buffer,
): Promise<Buffer> {
  const data: ConnectionData = {
    encryptionMode: mode,
    nonce: 41,
    nonceBuffer: Buffer.alloc(mode === 'aead_aes256_gcm_rtpsize' ? 12 : 24),
    secretKey: key,
    sequence: 513,
    ssrc: 0xdeadbeef,
    timestamp: 96_000,
  };
  const self = { encryptOpusPacket: networking.encryptOpusPacket };
  return withSecretbox(() => networking.createAudioPacket.call(self, opus, data));
}

function discordJsOpen(
  mode: VoiceEncryptionMode,
  key: Uint8Array,
  packet: Buffer,
): Promise<Buffer> {
  const nonce = Buffer.alloc(mode === 'aead_aes256_gcm_rtpsize' ? 12 : 24);
  return withSecretbox(() =>
    receiver.decrypt.call(null, packet, mode, nonce, key, rtpsizeHeaderBytes(packet)),
  );
}

/** An RTP header: version 2, Opus, with `csrcs` CSRC entries and an extension of `extWords` words. */
function rtpHeader(options: { csrcs?: number; extWords?: number | null } = {}): Buffer {
  const csrcs = options.csrcs ?? 0;
  const ext = options.extWords ?? null;
  const header = Buffer.alloc(12 + 4 * csrcs + (ext === null ? 0 : 4));
  header[0] = 0x80 | (ext === null ? 0 : 0x10) | csrcs;
  header[1] = 0x78;
  header.writeUInt16BE(7, 2);
  header.writeUInt32BE(960, 4);
  header.writeUInt32BE(1234, 8);
  for (let i = 0; i < csrcs; i += 1) header.writeUInt32BE(1000 + i, 12 + 4 * i);
  if (ext !== null) {
    header.writeUInt16BE(0xbede, 12 + 4 * csrcs);
    header.writeUInt16BE(ext, 14 + 4 * csrcs);
  }
  return header;
}

describe.each(VOICE_ENCRYPTION_MODES)('transport crypto, %s', (mode) => {
  const key = randomBytes(32);

  it('opens a packet built exactly as @discordjs/voice builds it', async () => {
    const opus = randomBytes(120);
    const packet = await discordJsPacket(mode, key, opus);
    expect(rtpsizeHeaderBytes(packet)).toBe(12);
    expect(transportNonceOf(packet)).toBe(42);
    const opened = new TransportCipher(mode, key).open(packet, 12);
    expect(opened && Buffer.from(opened)).toEqual(opus);
  });

  it('seals what @discordjs/voice VoiceReceiver opens, keeping the header as it was', async () => {
    const header = rtpHeader();
    const payload = randomBytes(90);
    const packet = new TransportCipher(mode, key).seal(header, payload, 7);
    expect(packet.subarray(0, 12)).toEqual(header);
    expect(transportNonceOf(packet)).toBe(7);
    expect(packet.length).toBe(12 + 90 + 16 + 4);
    expect(await discordJsOpen(mode, key, packet)).toEqual(payload);
  });

  it('handles CSRC lists and extension headers: the body is encrypted, the header is AAD', async () => {
    const header = rtpHeader({ csrcs: 2, extWords: 2 });
    const body = Buffer.from('0102030405060708', 'hex');
    const frame = randomBytes(40);
    const cipher = new TransportCipher(mode, key);
    const packet = cipher.seal(header, Buffer.concat([body, frame]), 99);
    const headerBytes = rtpsizeHeaderBytes(packet);
    expect(headerBytes).toBe(12 + 8 + 4);
    expect(rtpExtensionBodyBytes(packet, headerBytes)).toBe(8);
    // The extension body does not appear in the clear.
    expect(packet.indexOf(body)).toBe(-1);
    const opened = cipher.open(packet, headerBytes);
    expect(opened && Buffer.from(opened)).toEqual(Buffer.concat([body, frame]));
    // The installed @discordjs/voice 0.19.2 counts no CSRCs in the clear part (its main branch
    // does, as here); its clients send none, so it is checked with an extension alone.
    const extOnly = cipher.seal(rtpHeader({ extWords: 2 }), Buffer.concat([body, frame]), 100);
    expect(rtpsizeHeaderBytes(extOnly)).toBe(16);
    expect(await discordJsOpen(mode, key, extOnly)).toEqual(Buffer.concat([body, frame]));

    const csrcChanged = Buffer.from(packet);
    csrcChanged[13] = (csrcChanged[13] ?? 0) ^ 1;
    expect(cipher.open(csrcChanged, headerBytes)).toBeNull();
  });

  it('refuses tampered tags, ciphertext, headers and nonces, and the wrong key', () => {
    const cipher = new TransportCipher(mode, key);
    const packet = cipher.seal(rtpHeader(), randomBytes(60), 3);
    const flip = (index: number): Buffer => {
      const copy = Buffer.from(packet);
      copy[index] = (copy[index] ?? 0) ^ 0x40;
      return copy;
    };
    expect(cipher.open(packet, 12)).not.toBeNull();
    expect(cipher.open(flip(packet.length - 5), 12)).toBeNull(); // tag
    expect(cipher.open(flip(20), 12)).toBeNull(); // ciphertext
    expect(cipher.open(flip(3), 12)).toBeNull(); // sequence, in the AAD
    expect(cipher.open(flip(packet.length - 1), 12)).toBeNull(); // nonce counter
    expect(new TransportCipher(mode, randomBytes(32)).open(packet, 12)).toBeNull();
    const otherMode = VOICE_ENCRYPTION_MODES.find((m) => m !== mode) ?? mode;
    expect(new TransportCipher(otherMode, key).open(packet, 12)).toBeNull();
  });

  it('refuses truncated packets without throwing', () => {
    const cipher = new TransportCipher(mode, key);
    const packet = cipher.seal(rtpHeader({ csrcs: 1 }), randomBytes(30), 1);
    for (const length of [0, 1, 11, 12, 16, 31, 32, 35, packet.length - 1]) {
      const truncated = packet.subarray(0, length);
      const headerBytes = rtpsizeHeaderBytes(truncated);
      if (headerBytes >= 0) expect(cipher.open(truncated, headerBytes)).toBeNull();
      expect(cipher.open(truncated, 16)).toBeNull();
    }
    expect(rtpsizeHeaderBytes(packet.subarray(0, 16 + 19))).toBe(-1);
    expect(rtpsizeHeaderBytes(packet.subarray(0, 16 + 20))).toBe(16);
    // Version 1 is not RTP as we know it.
    const v1 = Buffer.from(packet);
    v1[0] = 0x40;
    expect(rtpsizeHeaderBytes(v1)).toBe(-1);
  });

  it('writes the full range of nonce counters', async () => {
    const packet = new TransportCipher(mode, key).seal(
      rtpHeader(),
      randomBytes(10),
      MAX_TRANSPORT_NONCE,
    );
    expect(transportNonceOf(packet)).toBe(0xffff_ffff);
    expect(packet.subarray(-4)).toEqual(Buffer.from('ffffffff', 'hex'));
    expect((await discordJsOpen(mode, key, packet)).length).toBe(10);
  });
});

describe('TransportCipher', () => {
  it('is XChaCha20-Poly1305 as @noble/ciphers computes it, for any counter', () => {
    const key = randomBytes(32);
    const cipher = new TransportCipher('aead_xchacha20_poly1305_rtpsize', key);
    for (const counter of [0, 1, 255, 256, 0x0102_0304, 0x8000_0000, 0xdead_beef, 0xffff_ffff]) {
      const header = rtpHeader({ extWords: counter % 3 });
      const payload = randomBytes(1 + (counter % 300));
      const nonce = Buffer.alloc(24);
      nonce.writeUInt32BE(counter, 0);
      const reference = xchacha20poly1305(key, nonce, header).encrypt(payload);
      const packet = cipher.seal(header, payload, counter);
      expect(packet.subarray(header.length, -4)).toEqual(Buffer.from(reference));
      const opened = cipher.open(packet, header.length);
      expect(opened).toEqual(payload);
    }
  });

  it('takes 32-byte keys only', () => {
    expect(() => new TransportCipher('aead_aes256_gcm_rtpsize', randomBytes(16))).toThrow(
      TypeError,
    );
  });

  it('copies the key: changing the caller’s buffer later changes nothing', () => {
    const key = randomBytes(32);
    const cipher = new TransportCipher('aead_aes256_gcm_rtpsize', key);
    const packet = cipher.seal(rtpHeader(), randomBytes(10), 1);
    key.fill(0);
    expect(cipher.open(packet, 12)).not.toBeNull();
  });
});
