/**
 * Lobby calls against a real Guildhall server's main gateway (lobbies, op 4, VOICE_STATE_UPDATE,
 * VOICE_SERVER_UPDATE with a real voice token), its endpoint pointed at the stand-in voice node
 * of voiceFake.ts driven by the server's real DAVE delivery service (`DaveCall`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../server/src/config.js';
import { systemClock } from '../../server/src/domain/clock.js';
import { DaveCall } from '../../server/src/voice/dave/index.js';
import { CallError, CallStatus, LoggingSeverity, type Call, type Client } from '../src/node.js';
import { useSdkWorld } from './support.js';
import { FakeVoiceServer, until } from './voiceFake.js';

async function settle(check: () => boolean): Promise<void> {
  while (!check()) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function joined(
  client: Client,
  lobbyId: string,
): Promise<{ call: Call; statuses: CallStatus[] }> {
  const call = await client.startCall(lobbyId);
  const statuses: CallStatus[] = [await call.getStatus()];
  call.setStatusChangedCallback((status) => statuses.push(status));
  await settle(
    () => statuses.includes(CallStatus.Connected) || statuses.includes(CallStatus.Disconnected),
  );
  return { call, statuses };
}

describe('SDK voice with a real Guildhall gateway', () => {
  const config: Partial<Config> = {};
  let voice: FakeVoiceServer;
  let daveCalls: DaveCall[] = [];

  beforeAll(async () => {
    voice = await FakeVoiceServer.start({
      dave: {
        // The test's call (made once the lobby exists: its id is the MLS group's).
        addMember: (userId) => current().addMember(userId),
        removeMember: (userId) => current().removeMember(userId),
        keyPackage: (userId, payload) => current().keyPackage(userId, payload),
        commitWelcome: (userId, payload) => current().commitWelcome(userId, payload),
        transitionReady: (userId, id) => current().transitionReady(userId, id),
        invalidCommitWelcome: (userId, id) => current().invalidCommitWelcome(userId, id),
      },
    });
    config.voiceEndpoint = voice.endpoint;
  });
  afterAll(async () => {
    await voice.close();
  });

  function current(): DaveCall {
    const last = daveCalls.at(-1);
    if (last === undefined) throw new Error('no call');
    return last;
  }

  const world = useSdkWorld('sqlite', { config });

  it('two players: op 4, both Connected, frames across, mute, endCall and the leave seen', async () => {
    const [ada, bea] = await Promise.all([world().player('Ada'), world().player('Bea')]);
    const adas = await world().readyClient(ada);
    const beas = await world().readyClient(bea);
    const logs: string[] = [];
    for (const client of [adas, beas])
      client.addLogCallback((line) => logs.push(line), LoggingSeverity.Verbose);
    const lobbyId = await adas.createOrJoinLobby('voice-room');
    expect(await beas.createOrJoinLobby('voice-room')).toBe(lobbyId);
    daveCalls = [new DaveCall({ channelId: lobbyId, clock: systemClock })];

    const lobbyVoice: [string, string, boolean][] = [];
    beas.setVoiceParticipantChangedCallback((lobby, user, added) =>
      lobbyVoice.push([lobby, user, added]),
    );

    const a = await joined(adas, lobbyId);
    expect(a.statuses).toEqual([
      CallStatus.Joining,
      CallStatus.Connecting,
      CallStatus.SignalingConnected,
      CallStatus.Connected,
    ]);
    // The real gateway's VOICE_SERVER_UPDATE: Identify carries its token, the session's id.
    const identify = voice.member(ada.id)?.identify;
    expect(identify?.['server_id']).toBe(lobbyId);
    expect(identify?.['user_id']).toBe(ada.id);
    expect(typeof identify?.['token']).toBe('string');
    expect(String(identify?.['token']).length).toBeGreaterThan(20);
    await settle(() => lobbyVoice.length === 1);
    expect(lobbyVoice).toEqual([[lobbyId, ada.id, true]]);

    const b = await joined(beas, lobbyId);
    expect(b.statuses.at(-1)).toBe(CallStatus.Connected);
    expect(await b.call.getParticipants()).toEqual(expect.arrayContaining([ada.id, bea.id]));
    await settle(() => a.call.getStats().privacyCode !== '');
    expect(b.call.getStats().privacyCode).toBe(a.call.getStats().privacyCode);

    const got: number[][] = [];
    b.call.setOpusFrameReceivedCallback((userId, frame) => {
      if (userId === ada.id) got.push([...frame]);
    });
    const sent = Array.from({ length: 8 }, (_, i) =>
      Uint8Array.from({ length: 50 + i }, (_, j) => (i * 13 + j) & 0xff),
    );
    for (const frame of sent) expect(a.call.sendOpusFrame(frame)).toBe('sent');
    await settle(() => got.length === sent.length);
    expect(got).toEqual(sent.map((frame) => [...frame]));

    await a.call.setSelfMute(true);
    expect(a.call.sendOpusFrame(sent[0] ?? new Uint8Array(1))).toBe('muted');
    // The mute reached Bea through the real gateway's VOICE_STATE_UPDATE.
    const handle = async (): Promise<boolean> =>
      (await b.call.getVoiceStateHandle(ada.id))?.selfMute() ?? false;
    while (!(await handle())) await new Promise<void>((resolve) => setImmediate(resolve));

    const left: [string, boolean][] = [];
    b.call.setParticipantChangedCallback((userId, added) => left.push([userId, added]));
    await adas.endCall(lobbyId);
    expect(a.statuses.slice(-2)).toEqual([CallStatus.Disconnecting, CallStatus.Disconnected]);
    expect(a.call.getError()).toEqual({ error: CallError.None, errorDetail: 0 });
    await settle(() => left.length === 1);
    expect(left).toEqual([[ada.id, false]]);
    expect(lobbyVoice.at(-1)).toEqual([lobbyId, ada.id, false]);
    await until(voice, () => voice.member(ada.id) === null);
    expect(await b.call.getStatus()).toBe(CallStatus.Connected);
    expect(logs.join('\n')).not.toContain(String(identify?.['token']));
  });
});
