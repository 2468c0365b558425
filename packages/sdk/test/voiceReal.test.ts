/**
 * Lobby calls against a real Guildhall, whole: its main gateway (lobbies, op 4), its voice node
 * (the v8 voice gateway, the DAVE delivery service) and its media relay (UDP, transport
 * encryption per member). Nothing in between is a stand-in.
 */
import { expect, it, onTestFailed } from 'vitest';
import { CallError, CallStatus, LoggingSeverity, type Call, type Client } from '../src/node.js';
import { describeDrivers, useSdkWorld } from './support.js';

/** Waits for the event loop to run until a condition holds (no clock involved). */
async function settle(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Starts a call and waits until it is Connected (or ended); its statuses from Joining on. */
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

/** Distinct, Opus-shaped frames. */
function frames(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) =>
    Uint8Array.from({ length: 40 + i }, (_, j) => (j === 0 ? 0x78 : (i * 29 + j * 3) & 0xff)),
  );
}

describeDrivers('SDK voice with a real Guildhall voice node ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('two players: Connected, Opus frames across exactly, mute stops them, endCall and the leave', async () => {
    expect(world().server.app.voice).not.toBeNull();
    const [ada, bea] = await Promise.all([world().player('Ada'), world().player('Bea')]);
    const adas = await world().readyClient(ada);
    const beas = await world().readyClient(bea);
    const logs: string[] = [];
    for (const [name, client] of [
      ['ada', adas],
      ['bea', beas],
    ] as const) {
      client.addLogCallback((line) => logs.push(`${name}: ${line}`), LoggingSeverity.Verbose);
    }
    // A failure shows what both clients logged (their voice lines included).
    onTestFailed(() => {
      process.stderr.write(`${logs.join('\n')}\n`);
    });
    const lobbyId = await adas.createOrJoinLobby('voice-room');
    expect(await beas.createOrJoinLobby('voice-room')).toBe(lobbyId);

    const a = await joined(adas, lobbyId);
    expect(a.statuses).toEqual([
      CallStatus.Joining,
      CallStatus.Connecting,
      CallStatus.SignalingConnected,
      CallStatus.Connected,
    ]);
    const b = await joined(beas, lobbyId);
    expect(b.statuses).toEqual(a.statuses);
    // One MLS group: the same privacy code on both sides.
    await settle(() => a.call.getStats().privacyCode !== '');
    expect(b.call.getStats().privacyCode).toBe(a.call.getStats().privacyCode);
    await settle(async () => (await a.call.getParticipants()).length === 2);
    expect((await b.call.getParticipants()).sort()).toEqual([ada.id, bea.id].sort());

    const got: number[][] = [];
    b.call.setOpusFrameReceivedCallback((userId, frame) => {
      // Every frame but the silence that ends each burst (F8 FF FE).
      if (userId === ada.id && frame.length > 3) got.push([...frame]);
    });
    const speaking: [string, boolean][] = [];
    b.call.setSpeakingStatusChangedCallback((userId, on) => speaking.push([userId, on]));
    const sent = frames(12);
    for (const frame of sent) expect(a.call.sendOpusFrame(frame)).toBe('sent');
    await settle(() => got.length === sent.length);
    expect(got).toEqual(sent.map((frame) => [...frame]));
    expect(speaking).toContainEqual([ada.id, true]);

    // Muted: the frame is not sent, the relay gets nothing, and Bea's view shows the mute.
    await a.call.setSelfMute(true);
    const sentBefore = a.call.getStats().framesSent;
    for (const frame of sent) expect(a.call.sendOpusFrame(frame)).toBe('muted');
    expect(a.call.getStats().framesSent).toBe(sentBefore);
    await settle(async () => (await b.call.getVoiceStateHandle(ada.id))?.selfMute() === true);
    await a.call.setSelfMute(false);
    // Unmuted: frames flow again, and none of the muted ones ever arrived.
    const after = frames(3).map((frame) => frame.map((x) => x ^ 0x55));
    for (const frame of after) expect(a.call.sendOpusFrame(frame)).toBe('sent');
    await settle(() => got.length === sent.length + after.length);
    expect(got.slice(sent.length)).toEqual(after.map((frame) => [...frame]));

    const left: [string, boolean][] = [];
    b.call.setParticipantChangedCallback((userId, added) => left.push([userId, added]));
    await adas.endCall(lobbyId);
    expect(a.statuses.slice(-2)).toEqual([CallStatus.Disconnecting, CallStatus.Disconnected]);
    expect(a.call.getError()).toEqual({ error: CallError.None, errorDetail: 0 });
    await settle(() => left.length === 1);
    expect(left).toEqual([[ada.id, false]]);
    expect(await b.call.getParticipants()).toEqual([bea.id]);
    expect(await b.call.getStatus()).toBe(CallStatus.Connected);
    expect(logs.join('\n')).not.toContain(ada.token);
  });
  it('leaving the lobby ends the call (the voice state goes with the membership)', async () => {
    const ada = await world().player('Ada');
    const adas = await world().readyClient(ada);
    const lobbyId = await adas.createOrJoinLobby('short-room');
    const a = await joined(adas, lobbyId);
    expect(a.statuses.at(-1)).toBe(CallStatus.Connected);
    await adas.leaveLobby(lobbyId);
    await settle(() => a.statuses.at(-1) === CallStatus.Disconnected);
    // The server ended the voice state (VOICE_STATE_UPDATE) and closed the voice WebSocket
    // (4014), whichever the client heard first.
    expect([CallError.None, CallError.Forbidden]).toContain(a.call.getError().error);
    expect(a.statuses).not.toContain(CallStatus.Reconnecting);
  });
});
