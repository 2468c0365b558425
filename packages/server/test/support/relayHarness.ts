/**
 * The media relay's test harness: a relay on 127.0.0.1, UDP endpoints that queue what they get,
 * members as a client sees itself (ssrc, key, RTP state), DAVE-shaped and plaintext frames. The
 * relays and endpoints a test opens are closed after it.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import type { VoiceEncryptionMode } from '@guildhall/protocol';
import { pino } from 'pino';
import { afterEach, expect } from 'vitest';
import { systemClock, type Clock } from '../../src/domain/clock.js';
import { discoveryRequest } from '../../src/voice/relay/ipDiscovery.js';
import { MediaRelay } from '../../src/voice/relay/mediaRelay.js';
import type { MediaRelayOptions } from '../../src/voice/relay/relayOptions.js';
import { rtpsizeHeaderBytes, TransportCipher } from '../../src/voice/relay/transportCrypto.js';

export const SILENCE = Buffer.from([0xf8, 0xff, 0xfe]);

/** A DAVE-shaped frame: opaque "ciphertext", then 12 bytes of supplemental data and 0xFAFA. */
export function daveFrame(bytes = 80): Buffer {
  const frame = randomBytes(bytes);
  frame[bytes - 3] = 12;
  frame[bytes - 2] = 0xfa;
  frame[bytes - 1] = 0xfa;
  return frame;
}

/** A plaintext 20 ms Opus frame (CELT fullband TOC), as a client without DAVE would send. */
export function plainOpus(): Buffer {
  return Buffer.concat([Buffer.from([0xfc]), randomBytes(60), Buffer.from([0x01, 0x02])]);
}

/** A UDP endpoint on 127.0.0.1 that queues what it receives. */
export class Endpoint {
  readonly received: Buffer[] = [];
  #waiters: ((packet: Buffer) => void)[] = [];

  readonly socket: Socket;
  readonly relayPort: number;

  private constructor(socket: Socket, relayPort: number) {
    this.socket = socket;
    this.relayPort = relayPort;
    socket.on('message', (packet) => {
      const waiter = this.#waiters.shift();
      if (waiter) waiter(packet);
      else this.received.push(packet);
    });
  }

  static async open(relayPort: number): Promise<Endpoint> {
    const socket = createSocket('udp4');
    socket.bind(0, '127.0.0.1');
    await once(socket, 'listening');
    return new Endpoint(socket, relayPort);
  }

  get port(): number {
    return this.socket.address().port;
  }

  send(packet: Uint8Array): void {
    this.socket.send(packet, this.relayPort, '127.0.0.1');
  }

  next(): Promise<Buffer> {
    const queued = this.received.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  close(): void {
    this.socket.close();
  }
}

/** A call member as a client sees itself: its ssrc, key, socket, and RTP state. */
export interface Member {
  ssrc: number;
  cipher: TransportCipher;
  endpoint: Endpoint;
  sequence: number;
  counter: number;
}

export function rtpPacket(member: Member, payload: Uint8Array, firstByte = 0x80): Buffer {
  const header = Buffer.alloc(12);
  header[0] = firstByte;
  header[1] = 0x78;
  member.sequence += 1;
  header.writeUInt16BE(member.sequence & 0xffff, 2);
  header.writeUInt32BE((member.sequence * 960) >>> 0, 4);
  header.writeUInt32BE(member.ssrc, 8);
  member.counter += 1;
  return member.cipher.seal(header, payload, member.counter);
}

export function opened(member: Member, packet: Buffer): Buffer {
  const payload = member.cipher.open(packet, rtpsizeHeaderBytes(packet));
  if (payload === null) throw new Error('the packet did not open under the receiver’s key');
  return Buffer.from(payload);
}

const relays: MediaRelay[] = [];
const endpoints: Endpoint[] = [];
afterEach(async () => {
  for (const endpoint of endpoints.splice(0)) endpoint.close();
  for (const relay of relays.splice(0)) await relay.close();
});

export async function startRelay(
  options: Partial<MediaRelayOptions> & { clock?: Clock } = {},
): Promise<MediaRelay> {
  const relay = await MediaRelay.listen({
    host: '127.0.0.1',
    port: 0,
    publicIp: '127.0.0.1',
    maxPacketBytes: 1400,
    logger: pino({ level: 'silent' }),
    clock: systemClock,
    ...options,
  });
  relays.push(relay);
  return relay;
}

export async function endpoint(relay: MediaRelay): Promise<Endpoint> {
  const opened = await Endpoint.open(relay.port);
  endpoints.push(opened);
  return opened;
}

export async function join(
  relay: MediaRelay,
  callId: string,
  mode: VoiceEncryptionMode = 'aead_aes256_gcm_rtpsize',
): Promise<Member> {
  const { ssrc } = relay.addMember(callId, `user-${callId}-${Math.random()}`);
  const { secretKey } = relay.selectProtocol(ssrc, mode);
  const socket = await endpoint(relay);
  socket.send(discoveryRequest(ssrc));
  const answer = await socket.next();
  expect(answer.readUInt16BE(0)).toBe(2);
  return {
    ssrc,
    cipher: new TransportCipher(mode, secretKey),
    endpoint: socket,
    sequence: 0,
    counter: 0,
  };
}
