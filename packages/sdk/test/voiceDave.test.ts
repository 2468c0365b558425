/**
 * Two SDK clients in one lobby call, end-to-end encrypted: the stand-in voice server
 * (voiceFake.ts) with the server's real DAVE delivery service (`DaveCall`) as its MLS delivery
 * service, so both clients' davey sessions form a group, encrypt and decrypt for real.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/src/domain/clock.js';
import { DaveCall } from '../../server/src/voice/dave/index.js';
import {
  AuthorizationTokenType,
  type Call,
  CallError,
  CallStatus,
  Client,
  ClientStatus,
  LoggingSeverity,
} from '../src/node.js';
import { FakeGateway, FakeVoiceServer, LOBBY_ID, OTHER, PLAYER, until } from './voiceFake.js';

/** Waits for the event loop to run until a condition holds (no clock involved). */
async function settle(check: () => boolean): Promise<void> {
  while (!check()) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** One frame of a list (a test's own, always there). */
function at(list: Uint8Array[], i: number): Uint8Array {
  const frame = list[i];
  if (frame === undefined) throw new Error(`no frame ${i}`);
  return frame;
}

/** Distinct, Opus-shaped frames (a TOC byte, then bytes that tell them apart). */
function frames(count: number, seed: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) =>
    Uint8Array.from({ length: 60 + i }, (_, j) =>
      j === 0 ? 0x78 : (seed * 31 + i * 7 + j) & 0xff,
    ),
  );
}

describe('SDK voice: two clients, DAVE for real', () => {
  let gateway: FakeGateway;
  let voice: FakeVoiceServer;
  const clients: Client[] = [];
  const logs: string[] = [];

  async function player(token: string): Promise<Client> {
    const client = new Client({ apiBase: gateway.apiBase });
    clients.push(client);
    client.addLogCallback((line) => logs.push(line), LoggingSeverity.Verbose);
    await client.updateToken(AuthorizationTokenType.Bearer, token);
    await new Promise<void>((resolve) => {
      client.setStatusChangedCallback((status) => {
        if (status === ClientStatus.Ready) resolve();
      });
      client.connect();
    });
    return client;
  }

  /** Joins; resolves at Connected with the statuses and the privacy code Connected found. */
  async function join(
    client: Client,
  ): Promise<{ call: Call; statuses: CallStatus[]; codeAtConnected: string }> {
    const call = await client.startCall(LOBBY_ID);
    const statuses: CallStatus[] = [await call.getStatus()];
    let codeAtConnected = '';
    call.setStatusChangedCallback((status) => {
      statuses.push(status);
      if (status === CallStatus.Connected) codeAtConnected = call.getStats().privacyCode;
    });
    await settle(() => statuses.includes(CallStatus.Connected));
    return { call, statuses, codeAtConnected };
  }

  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await voice.close();
    await gateway.close();
    expect(logs.join('\n')).not.toMatch(/voice-token-secret/);
  });

  it('forms one group; one sends Opus frames, the other receives exactly them; mute; leave', async () => {
    gateway = await FakeGateway.start();
    voice = await FakeVoiceServer.start({
      dave: new DaveCall({ channelId: LOBBY_ID, clock: systemClock }),
    });
    gateway.voiceEndpoint = voice.endpoint;
    const ada = await player('main-token');
    const bea = await player('other-token');

    const a = await join(ada);
    expect(a.statuses).toEqual([
      CallStatus.Joining,
      CallStatus.Connecting,
      CallStatus.SignalingConnected,
      CallStatus.Connected,
    ]);
    // Alone: connected, but with no group to encrypt for, audio is held back.
    expect(a.call.sendOpusFrame(at(frames(1, 9), 0))).toBe('e2eePending');

    const b = await join(bea);
    // Bea is Connected only once the group holds both (a commit, a welcome, a transition).
    expect(b.statuses).toEqual(a.statuses);
    expect(b.codeAtConnected).toMatch(/^\d{30}$/);
    await settle(() => a.call.getStats().privacyCode !== '');
    expect(a.call.getStats().privacyCode).toBe(b.codeAtConnected);
    expect(await b.call.getParticipants()).toEqual([PLAYER.id, OTHER.id]);
    // The commit/welcome went through the delivery service (ops 26 from both, 28 from Ada).
    expect(
      voice.binary
        .filter((m) => m.op === 26)
        .map((m) => m.from)
        .sort(),
    ).toEqual([PLAYER.id, OTHER.id].sort());
    expect(voice.binary.filter((m) => m.op === 28).map((m) => m.from)).toEqual([PLAYER.id]);

    const got: { userId: string; frame: number[] }[] = [];
    // Every frame but the silence that ends each burst (F8 FF FE, which DAVE leaves alone).
    b.call.setOpusFrameReceivedCallback((userId, frame) => {
      if (frame.length > 3) got.push({ userId, frame: [...frame] });
    });
    const speaking: [string, boolean][] = [];
    b.call.setSpeakingStatusChangedCallback((userId, on) => speaking.push([userId, on]));
    const sent = frames(10, 1);
    for (const frame of sent) expect(a.call.sendOpusFrame(frame)).toBe('sent');
    await settle(() => got.length === sent.length);
    expect(got).toEqual(sent.map((frame) => ({ userId: PLAYER.id, frame: [...frame] })));
    expect(speaking[0]).toEqual([PLAYER.id, true]);
    // What crossed the server is DAVE ciphertext with its trailer, never the frame itself.
    const relayed = voice.received.filter((r) => r.payload.length > 3);
    expect(relayed).toHaveLength(sent.length);
    for (const [i, packet] of relayed.entries()) {
      expect(packet.payload.subarray(-2)).toEqual(Buffer.from([0xfa, 0xfa]));
      expect(packet.payload.includes(Buffer.from(at(sent, i).subarray(1, 40)))).toBe(false);
    }

    // Muted: nothing more goes out.
    await a.call.setSelfMute(true);
    expect(a.call.sendOpusFrame(at(sent, 0))).toBe('muted');
    await a.call.setSelfMute(false);
    // Bea deafened: Ada's frames still arrive, but are not delivered.
    await b.call.setSelfDeaf(true);
    expect(a.call.sendOpusFrame(at(sent, 1))).toBe('sent');
    // Every packet Ada sent (her frames, and the silence that ends each burst) reached Bea.
    await until(
      voice,
      () => voice.received.filter((r) => r.payload.length > 3).length === sent.length + 1,
    );
    await settle(() => {
      const stats = b.call.getStats();
      return stats.framesReceived + stats.packetsDropped === voice.received.length;
    });
    expect(b.call.getStats().packetsDropped).toBe(0);
    expect(got).toHaveLength(sent.length);
    await b.call.setSelfDeaf(false);

    // Ada leaves: she ends Disconnected, Bea sees her go.
    const left: [string, boolean][] = [];
    b.call.setParticipantChangedCallback((userId, added) => left.push([userId, added]));
    await ada.endCall(LOBBY_ID);
    expect(a.statuses.slice(-2)).toEqual([CallStatus.Disconnecting, CallStatus.Disconnected]);
    await settle(() => left.length === 1);
    expect(left).toEqual([[PLAYER.id, false]]);
    expect(await b.call.getParticipants()).toEqual([OTHER.id]);
    await until(voice, () => voice.member(PLAYER.id) === null);
    expect((await b.call.getStatus()) === CallStatus.Connected).toBe(true);
    expect(b.call.getError()).toEqual({ error: CallError.None, errorDetail: 0 });
  });
  it('carries PCM: a 440 Hz tone sent with sendPcmFrame is heard at 440 Hz', async () => {
    gateway = await FakeGateway.start();
    voice = await FakeVoiceServer.start({
      dave: new DaveCall({ channelId: LOBBY_ID, clock: systemClock }),
    });
    gateway.voiceEndpoint = voice.endpoint;
    const ada = await player('main-token');
    const bea = await player('other-token');
    const a = await join(ada);
    const heard: Int16Array[] = [];
    const call = await bea.startCallWithAudioCallbacks(
      LOBBY_ID,
      (audio) => {
        // The tone's frames (not the silence that ends a burst, which decodes to zeros).
        if (audio.userId === PLAYER.id && audio.data.some((x) => x !== 0)) heard.push(audio.data);
      },
      () => undefined,
    );
    await settle(() => call.getStats().privacyCode !== '' && a.call.getStats().privacyCode !== '');
    await bea.setOutputVolume(50);

    const frameCount = 25; // half a second
    let phase = 0;
    for (let f = 0; f < frameCount; f += 1) {
      const pcm = new Int16Array(1920);
      for (let i = 0; i < 960; i += 1) {
        const sample = Math.round(12000 * Math.sin(phase));
        pcm[2 * i] = sample;
        pcm[2 * i + 1] = sample;
        phase += (2 * Math.PI * 440) / 48000;
      }
      expect(await a.call.sendPcmFrame(pcm)).toBe('sent');
    }
    await settle(() => heard.length === frameCount);
    // The left channel of the frames after the codec's start-up, as one signal.
    const left = heard.slice(5).flatMap((frame) => Array.from(frame.filter((_, i) => i % 2 === 0)));
    let crossings = 0;
    for (let i = 1; i < left.length; i += 1) {
      if ((left[i - 1] ?? 0) < 0 && (left[i] ?? 0) >= 0) crossings += 1;
    }
    const hz = crossings / (left.length / 48000);
    expect(hz).toBeGreaterThan(430);
    expect(hz).toBeLessThan(450);
    // Output volume 50: about half the amplitude sent.
    const peak = Math.max(...left.map(Math.abs));
    expect(peak).toBeGreaterThan(4000);
    expect(peak).toBeLessThan(8000);
  });
});
