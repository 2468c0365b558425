/**
 * The voice gateway's connections before Identify, kept as the main gateway keeps its own
 * (http/unidentified.ts): at most a few open per client address, over TLS or not (more get HTTP
 * 429 before any WebSocket exists), identified ones not counted, and one that has not identified
 * in time closed with 4003. The node's periodic pass runs when the test fires it, on the clock the
 * test moves. Its development certificate is made at the first TLS connection, not at start.
 */
import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { VoiceCloseCodes as Close, VoiceOpcodes as VOp } from '@guildhall/protocol';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_VOICE_NODE_OPTIONS } from '../src/voice/gateway.js';
import { firedTimers } from './support/firedTimers.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { connectVoice, type VoiceClient } from './support/voiceClient.js';
import { voiceCalls } from './support/voiceCalls.js';

const CAP = 2;

describe('voice connections before Identify', () => {
  const passes = firedTimers();
  const gw = useGatewayFixture({
    gateway: { identifiesPerBucket: 1000 },
    voice: { options: { maxUnidentifiedPerAddress: CAP }, timers: passes.timers },
  });
  const { voiceChannel, joinCall, identify } = voiceCalls(gw);
  const opened: VoiceClient[] = [];

  const voiceNode = () => {
    const voice = gw.server.app.voice;
    if (voice === null) throw new Error('no voice node');
    return voice;
  };
  const endpoint = () => voiceNode().endpoint();
  /** A voice connection, once Hello arrived; closed after the test. */
  const connect = async (options: Parameters<typeof connectVoice>[1] = {}) => {
    const voice = await connectVoice(endpoint(), options);
    opened.push(voice);
    await voice.op(VOp.HELLO);
    return voice;
  };
  const closeAll = () => {
    for (const voice of opened.splice(0)) voice.raw.terminate();
  };

  it('makes its development certificate at the first TLS connection, and serves it', async () => {
    const certFile = join(gw.server.app.config.dataDir, 'voice-tls', 'cert.pem');
    expect(existsSync(certFile)).toBe(false);
    const [host = '', port = ''] = endpoint().split(/:(?=\d+$)/);
    const socket = connectTls({ host, port: Number(port), rejectUnauthorized: false });
    await once(socket, 'secureConnect');
    const served = socket.getPeerCertificate().raw;
    socket.destroy();
    expect(existsSync(certFile)).toBe(true);
    const { cert, development } = await voiceNode().tls();
    expect(development).toBe(true);
    expect(served.equals(new X509Certificate(cert).raw)).toBe(true);
  });

  it('caps unidentified connections per address, TLS ones too; identified ones do not count', async () => {
    try {
      const channelId = await voiceChannel();
      const bot = await joinCall(gw.guild.bot.token, channelId);
      const first = await connect();
      const second = await connect();
      await expect(connectVoice(endpoint())).rejects.toThrow(/HTTP 429/);
      // TLS on the same port is the same client address.
      const ca = (await voiceNode().tls()).cert;
      await expect(connectVoice(endpoint(), { tls: { ca } })).rejects.toThrow(/HTTP 429/);

      // Identified, the first no longer counts: one more may open, and no more.
      identify(first, bot);
      await first.op(VOp.READY);
      const third = await connect({ tls: { ca } });
      await expect(connectVoice(endpoint())).rejects.toThrow(/HTTP 429/);

      // A closed one frees its place.
      second.raw.close(1000);
      await second.closed;
      await vi.waitFor(async () => {
        opened.push(await connectVoice(endpoint()));
      });
      expect(third.raw.readyState).toBe(third.raw.OPEN);
      expect(first.raw.readyState).toBe(first.raw.OPEN);
    } finally {
      closeAll();
    }
  });

  it('closes a connection that has not identified in time with 4003, not an identified one', async () => {
    try {
      const channelId = await voiceChannel();
      const bot = await joinCall(gw.guild.bot.token, channelId);
      const member = await connect();
      identify(member, bot);
      await member.op(VOp.READY);
      const late = await connect();

      gw.clock.advance(DEFAULT_VOICE_NODE_OPTIONS.identifyTimeoutMs + 1);
      passes.fire();
      expect((await late.closed).code).toBe(Close.NOT_AUTHENTICATED);
      member.send(VOp.HEARTBEAT, { t: 7, seq_ack: -1 });
      expect((await member.op(VOp.HEARTBEAT_ACK)).d).toEqual({ t: 7 });
      // Its place is free again.
      await connect();
    } finally {
      closeAll();
    }
  });
});
