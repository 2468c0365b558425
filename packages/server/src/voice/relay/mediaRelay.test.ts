import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import type { VoiceEncryptionMode } from '@guildhall/protocol';
import { VoiceUDPSocket } from '@discordjs/voice';
import { describe, expect, it, vi } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import {
  SILENCE,
  daveFrame,
  endpoint,
  join,
  opened,
  plainOpus,
  rtpPacket,
  startRelay,
  type Member,
} from '../../../test/support/relayHarness.js';
import { discoveryRequest } from './ipDiscovery.js';
import { transportNonceOf } from './transportCrypto.js';

describe('MediaRelay: IP discovery and keepalives', () => {
  it('answers @discordjs/voice’s own IP discovery with the address it came from', async () => {
    const relay = await startRelay();
    const { ssrc } = relay.addMember('call', 'bot');
    const udp = new VoiceUDPSocket({ ip: '127.0.0.1', port: relay.port });
    try {
      const seen = await udp.performIPDiscovery(ssrc);
      expect(seen.ip).toBe('127.0.0.1');
      expect(seen.port).toBeGreaterThan(0);
    } finally {
      udp.destroy();
    }
  });

  it('binds a member to one address: another address is refused, the same one answered again', async () => {
    const relay = await startRelay();
    const { ssrc } = relay.addMember('call', 'alice');
    const first = await endpoint(relay);
    first.send(discoveryRequest(ssrc));
    const answer = await first.next();
    expect(answer.length).toBe(74);
    expect(answer.readUInt32BE(4)).toBe(ssrc);
    expect(answer.subarray(8, answer.indexOf(0, 8)).toString()).toBe('127.0.0.1');
    expect(answer.readUInt16BE(72)).toBe(first.port);

    const intruder = await endpoint(relay);
    intruder.send(discoveryRequest(ssrc));
    intruder.send(discoveryRequest((ssrc ^ 1) >>> 0 || 2));
    await vi.waitFor(() => {
      expect(relay.stats().dropped).toMatchObject({ bindingRefused: 1, unknownSsrc: 1 });
    });
    expect(intruder.received).toEqual([]);

    first.send(discoveryRequest(ssrc));
    expect((await first.next()).readUInt16BE(72)).toBe(first.port);
  });

  it('refuses a second member on an address already bound, and a wrong length field', async () => {
    const relay = await startRelay();
    const a = relay.addMember('call', 'a').ssrc;
    const b = relay.addMember('call', 'b').ssrc;
    const socket = await endpoint(relay);
    socket.send(discoveryRequest(a));
    await socket.next();
    const bad = discoveryRequest(b);
    bad.writeUInt16BE(69, 2);
    socket.send(bad);
    socket.send(discoveryRequest(b));
    await vi.waitFor(() => {
      expect(relay.stats().dropped).toMatchObject({ addressInUse: 1, malformed: 1 });
    });
    expect(socket.received).toEqual([]);
  });

  it('echoes keepalives from a bound address only', async () => {
    const relay = await startRelay();
    const stranger = await endpoint(relay);
    stranger.send(Buffer.from('0100000000000000', 'hex'));
    const member = await join(relay, 'call');
    const keepalive = Buffer.from('2a00000000000000', 'hex');
    member.endpoint.send(keepalive);
    expect(await member.endpoint.next()).toEqual(keepalive);
    await vi.waitFor(() => {
      expect(relay.stats().dropped.unbound).toBe(1);
    });
    expect(stranger.received).toEqual([]);
  });
});

describe('MediaRelay: forwarding', () => {
  it('forwards DAVE frames to the rest of the call, re-sealed per receiver, header kept', async () => {
    const relay = await startRelay();
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call', 'aead_xchacha20_poly1305_rtpsize');
    const carol = await join(relay, 'call');
    const elsewhere = await join(relay, 'other call');

    const frames = [daveFrame(), daveFrame(200), SILENCE, daveFrame(40)];
    const sent = frames.map((frame) => rtpPacket(alice, frame));
    for (const packet of sent) alice.endpoint.send(packet);
    for (const receiver of [bob, carol]) {
      for (const [i, frame] of frames.entries()) {
        const packet = await receiver.endpoint.next();
        // The sender's RTP header, byte for byte (ssrc, sequence, timestamp).
        expect(packet.subarray(0, 12)).toEqual(sent[i]?.subarray(0, 12));
        expect(packet.readUInt32BE(8)).toBe(alice.ssrc);
        // The receiver's own nonce sequence, not the sender's.
        expect(transportNonceOf(packet)).toBe(i + 1);
        // What the receiver opens is exactly what the sender sealed: the DAVE layer untouched.
        expect(opened(receiver, packet)).toEqual(frame);
        // And the receiver's packet is not the sender's.
        expect(packet.equals(sent[i] ?? Buffer.alloc(0))).toBe(false);
      }
    }
    await vi.waitFor(() => {
      expect(relay.stats().packetsOut).toBe(8);
    });
    expect(alice.endpoint.received).toEqual([]);
    expect(elsewhere.endpoint.received).toEqual([]);

    // Bob's packets reach Alice with Alice's next counter.
    const reply = daveFrame(64);
    bob.endpoint.send(rtpPacket(bob, reply));
    const atAlice = await alice.endpoint.next();
    expect(transportNonceOf(atAlice)).toBe(1);
    expect(opened(alice, atAlice)).toEqual(reply);
    expect(transportNonceOf(await carol.endpoint.next())).toBe(5);
  });

  it('never relays plaintext Opus: only transport-wrapped DAVE frames leave the relay', async () => {
    const relay = await startRelay();
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call');
    const opus = plainOpus();
    alice.endpoint.send(rtpPacket(alice, opus));
    const dave = daveFrame();
    alice.endpoint.send(rtpPacket(alice, dave));
    // The first thing Bob gets is the DAVE frame: the plaintext one was dropped.
    const packet = await bob.endpoint.next();
    expect(opened(bob, packet)).toEqual(dave);
    expect(packet.indexOf(opus.subarray(1, 40))).toBe(-1);
    expect(relay.stats().dropped.notE2ee).toBe(1);
  });

  it('keeps extension bodies and padding, checking the frame between them', async () => {
    const relay = await startRelay();
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call');
    const header = Buffer.alloc(16);
    header[0] = 0xb0; // version 2, padding, extension
    header[1] = 0x78;
    header.writeUInt32BE(alice.ssrc, 8);
    header.writeUInt16BE(0xbede, 12);
    header.writeUInt16BE(1, 14);
    const dave = daveFrame(50);
    const payload = Buffer.concat([Buffer.from([0x10, 0xaa, 0, 0]), dave, Buffer.from([0, 2])]);
    alice.endpoint.send(alice.cipher.seal(header, payload, 1));
    // The same with a plaintext frame in the middle: dropped.
    const plain = Buffer.concat([
      Buffer.from([0x10, 0xaa, 0, 0]),
      plainOpus(),
      Buffer.from([0, 2]),
    ]);
    alice.endpoint.send(alice.cipher.seal(header, plain, 2));
    // A padding count beyond the frame: dropped.
    const badPadding = Buffer.concat([Buffer.from([0x10, 0xaa, 0, 0]), dave, Buffer.from([200])]);
    alice.endpoint.send(alice.cipher.seal(header, badPadding, 3));
    alice.counter = 3;
    const last = daveFrame();
    alice.endpoint.send(rtpPacket(alice, last));

    const first = await bob.endpoint.next();
    expect(first.subarray(0, 16)).toEqual(header);
    expect(opened(bob, first)).toEqual(payload);
    expect(opened(bob, await bob.endpoint.next())).toEqual(last);
    expect(relay.stats().dropped).toMatchObject({ notE2ee: 1, malformed: 1 });
  });

  it('drops forgeries, replays, spoofed ssrcs, other payload types and oversized datagrams', async () => {
    const relay = await startRelay({ maxPacketBytes: 300 });
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call');

    const good = rtpPacket(alice, daveFrame());
    alice.endpoint.send(good);
    expect(opened(bob, await bob.endpoint.next()).length).toBe(80);

    alice.endpoint.send(good); // replay
    const tampered = rtpPacket(alice, daveFrame());
    tampered[20] = (tampered[20] ?? 0) ^ 1;
    alice.endpoint.send(tampered);
    // Bob's ssrc from Alice's address.
    const spoof = { ...bob, endpoint: alice.endpoint };
    alice.endpoint.send(rtpPacket(spoof, daveFrame()));
    // Alice's ssrc from an unbound address.
    const stranger = await endpoint(relay);
    stranger.send(rtpPacket({ ...alice }, daveFrame()));
    const rtcp = rtpPacket(alice, daveFrame());
    rtcp[1] = 0xc9;
    alice.endpoint.send(rtcp);
    alice.endpoint.send(rtpPacket(alice, daveFrame(400)));
    alice.endpoint.send(Buffer.from([0x80, 0x78, 0, 1])); // too short for RTP
    const final = daveFrame(33);
    alice.endpoint.send(rtpPacket(alice, final));

    expect(opened(bob, await bob.endpoint.next())).toEqual(final);
    expect(relay.stats().dropped).toMatchObject({
      replay: 1,
      decrypt: 1,
      unbound: 2,
      notOpus: 1,
      oversize: 1,
      malformed: 1,
    });
    expect(relay.stats().packetsOut).toBe(2);
  });

  it('survives garbage from members and strangers alike, and keeps relaying', async () => {
    const relay = await startRelay({ maxPacketsPerSecond: 10_000 });
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call');
    const stranger = await endpoint(relay);
    const shapes = [
      (n: number) => randomBytes(n),
      // RTP-looking: version 2, Opus, Alice's ssrc, random flags and body.
      (n: number) => {
        const packet = randomBytes(Math.max(n, 12));
        packet[0] = 0x80 | ((packet[0] ?? 0) & 0x3f);
        packet[1] = 0x78;
        packet.writeUInt32BE(alice.ssrc, 8);
        return packet;
      },
      // Discovery-sized with random contents.
      () => {
        const packet = randomBytes(74);
        packet.writeUInt16BE(1, 0);
        return packet;
      },
    ];
    let sent = 0;
    for (let i = 0; i < 300; i += 1) {
      const shape = shapes[i % shapes.length] ?? shapes[0];
      // Mostly small, every 50th over the size limit; paced so no socket buffer overflows.
      const packet = shape?.(i % 50 === 49 ? 1500 : 1 + ((i * 37) % 200)) ?? Buffer.alloc(1);
      (i % 2 === 0 ? alice.endpoint : stranger).send(packet);
      sent += 1;
      if (i % 20 === 19) {
        await vi.waitFor(() => {
          expect(relay.stats().packetsIn).toBe(sent + 2);
        });
      }
    }
    const frame = daveFrame();
    alice.endpoint.send(rtpPacket(alice, frame));
    sent += 1;
    expect(opened(bob, await bob.endpoint.next())).toEqual(frame);
    await vi.waitFor(() => {
      expect(relay.stats().packetsIn).toBe(sent + 2);
    });
    expect(relay.stats().packetsOut).toBe(1);
  });

  it('drops media before Select Protocol and sends none to a member without a key', async () => {
    const relay = await startRelay();
    const alice = await join(relay, 'call');
    const { ssrc } = relay.addMember('call', 'keyless');
    const keyless = await endpoint(relay);
    keyless.send(discoveryRequest(ssrc));
    await keyless.next();
    const bob = await join(relay, 'call');
    const fake: Member = { ssrc, cipher: alice.cipher, endpoint: keyless, sequence: 0, counter: 0 };
    keyless.send(rtpPacket(fake, daveFrame()));
    const frame = daveFrame();
    alice.endpoint.send(rtpPacket(alice, frame));
    expect(opened(bob, await bob.endpoint.next())).toEqual(frame);
    expect(relay.stats().dropped.noKey).toBe(1);
    expect(relay.stats().packetsOut).toBe(1);
    expect(keyless.received).toEqual([]);
  });

  it('sends nothing to a deafened member until it is undeafened', async () => {
    const relay = await startRelay();
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call');
    const carol = await join(relay, 'call');
    relay.setDeaf(bob.ssrc, true);
    const muted = daveFrame();
    alice.endpoint.send(rtpPacket(alice, muted));
    expect(opened(carol, await carol.endpoint.next())).toEqual(muted);
    relay.setDeaf(bob.ssrc, false);
    const heard = daveFrame();
    alice.endpoint.send(rtpPacket(alice, heard));
    expect(opened(bob, await bob.endpoint.next())).toEqual(heard);
    // A deafened member still speaks.
    relay.setDeaf(bob.ssrc, true);
    const spoken = daveFrame();
    bob.endpoint.send(rtpPacket(bob, spoken));
    expect(opened(alice, await alice.endpoint.next())).toEqual(spoken);
  });

  it('forwards nothing a muted member sends until it is unmuted; it still hears', async () => {
    const relay = await startRelay();
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call');
    relay.setMuted(alice.ssrc, true);
    alice.endpoint.send(rtpPacket(alice, daveFrame()));
    await vi.waitFor(() => {
      expect(relay.stats().dropped.muted).toBe(1);
    });
    const toAlice = daveFrame();
    bob.endpoint.send(rtpPacket(bob, toAlice));
    expect(opened(alice, await alice.endpoint.next())).toEqual(toAlice);
    relay.setMuted(alice.ssrc, false);
    const spoken = daveFrame();
    alice.endpoint.send(rtpPacket(alice, spoken));
    expect(opened(bob, await bob.endpoint.next())).toEqual(spoken);
    expect(bob.endpoint.received).toEqual([]);
  });

  it('caps each member’s packets per second', async () => {
    const clock = manualClock(1_000_000);
    const relay = await startRelay({ clock, maxPacketsPerSecond: 3 });
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call');
    for (let i = 0; i < 5; i += 1) alice.endpoint.send(rtpPacket(alice, daveFrame()));
    await vi.waitFor(() => {
      expect(relay.stats().dropped.rateLimited).toBe(2);
    });
    // Keepalives and repeated discovery count too: nothing is echoed over the cap.
    alice.endpoint.send(Buffer.alloc(8));
    alice.endpoint.send(discoveryRequest(alice.ssrc));
    await vi.waitFor(() => {
      expect(relay.stats().dropped.rateLimited).toBe(4);
    });
    clock.advance(1000);
    alice.endpoint.send(Buffer.alloc(8, 7));
    expect(await alice.endpoint.next()).toEqual(Buffer.alloc(8, 7));
    const later = daveFrame();
    alice.endpoint.send(rtpPacket(alice, later));
    for (let i = 0; i < 3; i += 1) await bob.endpoint.next();
    expect(opened(bob, await bob.endpoint.next())).toEqual(later);
  });
});

describe('MediaRelay: members and calls', () => {
  it('gives unique non-zero ssrcs and 32-byte keys, and refuses unknown ssrcs and modes', async () => {
    const relay = await startRelay();
    const ssrcs = new Set<number>();
    for (let i = 0; i < 200; i += 1) ssrcs.add(relay.addMember(`call-${i % 3}`, `u${i}`).ssrc);
    expect(ssrcs.size).toBe(200);
    expect(ssrcs.has(0)).toBe(false);
    const [first] = ssrcs;
    const { secretKey } = relay.selectProtocol(first ?? 0, 'aead_xchacha20_poly1305_rtpsize');
    expect(secretKey.length).toBe(32);
    expect(relay.selectProtocol(first ?? 0, 'aead_aes256_gcm_rtpsize').secretKey).not.toEqual(
      secretKey,
    );
    expect(() => relay.selectProtocol(12345, 'aead_aes256_gcm_rtpsize')).toThrow(TypeError);
    expect(() =>
      relay.selectProtocol(first ?? 0, 'xsalsa20_poly1305' as VoiceEncryptionMode),
    ).toThrow(TypeError);
    expect(relay.stats()).toMatchObject({ calls: 3, members: 200 });
  });

  it('enforces the per-call and per-relay member limits', async () => {
    const relay = await startRelay({ maxMembersPerCall: 2, maxMembers: 3 });
    relay.addMember('a', '1');
    relay.addMember('a', '2');
    expect(() => relay.addMember('a', '3')).toThrow(RangeError);
    relay.addMember('b', '3');
    expect(() => relay.addMember('c', '4')).toThrow(RangeError);
    expect(relay.stats()).toMatchObject({ calls: 2, members: 3 });
  });

  it('frees a member’s address at once on removal; the call goes with its last member', async () => {
    const relay = await startRelay();
    const alice = await join(relay, 'call');
    const bob = await join(relay, 'call');
    relay.removeMember(alice.ssrc);
    relay.removeMember(alice.ssrc); // twice is harmless
    expect(relay.stats()).toMatchObject({ calls: 1, members: 1 });

    // Her media and keepalives are now strangers'.
    alice.endpoint.send(rtpPacket(alice, daveFrame()));
    alice.endpoint.send(Buffer.alloc(8));
    await vi.waitFor(() => {
      expect(relay.stats().dropped.unbound).toBe(2);
    });
    // The address can be bound again, by a new member.
    const { ssrc } = relay.addMember('call', 'alice again');
    alice.endpoint.send(discoveryRequest(ssrc));
    expect((await alice.endpoint.next()).readUInt32BE(4)).toBe(ssrc);

    relay.removeMember(ssrc);
    relay.removeMember(bob.ssrc);
    expect(relay.stats()).toMatchObject({ calls: 0, members: 0 });
    expect(bob.endpoint.received).toEqual([]);
  });

  it('closes its socket', async () => {
    const relay = await startRelay();
    const member = await join(relay, 'call');
    await relay.close();
    await relay.close();
    member.endpoint.send(Buffer.alloc(8));
    // The port is free again: a socket can take it.
    const reuse = createSocket('udp4');
    reuse.bind(relay.port, '127.0.0.1');
    await once(reuse, 'listening');
    reuse.close();
    expect(relay.stats().members).toBe(0);
  });

  it('binds to a host name, resolved to IPv4 first', async () => {
    const relay = await startRelay({ host: 'localhost' });
    const member = await join(relay, 'call');
    member.endpoint.send(Buffer.alloc(8, 1));
    expect(await member.endpoint.next()).toEqual(Buffer.alloc(8, 1));
  });

  it('refuses a public address that is not IPv4 and a tiny packet limit', async () => {
    await expect(startRelay({ publicIp: 'voice.example' })).rejects.toThrow(TypeError);
    await expect(startRelay({ maxPacketBytes: 12 })).rejects.toThrow(TypeError);
  });

  it('refuses to listen on a port in use, with the socket’s error', async () => {
    const relay = await startRelay();
    await expect(startRelay({ port: relay.port })).rejects.toThrow(/EADDRINUSE/);
  });
});
