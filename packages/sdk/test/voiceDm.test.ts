/**
 * DM calls through the SDK's `Call` against a real Guildhall (docs/sdk.md, Voice): `startCall`
 * with a DM's channel id joins its call through op 4 (starting it rings the other player), the
 * voice node lets both in with DAVE, Opus frames cross end-to-end encrypted, and `endCall`
 * leaves it; the last to leave ends the call. Nothing in between is a stand-in.
 */
import { expect, it } from 'vitest';
import { CallStatus, type Call, type Client } from '../src/node.js';
import { describeDrivers, useSdkWorld } from './support.js';

/** Waits for the event loop to run until a condition holds (no clock involved). */
async function settle(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function connected(client: Client, channelId: string): Promise<Call> {
  const call = await client.startCall(channelId);
  const statuses: CallStatus[] = [await call.getStatus()];
  call.setStatusChangedCallback((status) => statuses.push(status));
  await settle(
    () => statuses.includes(CallStatus.Connected) || statuses.includes(CallStatus.Disconnected),
  );
  expect(statuses.at(-1)).toBe(CallStatus.Connected);
  return call;
}

describeDrivers('SDK DM calls with a real Guildhall voice node ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('two players call each other in their DM: rung, joined, frames across, ended', async () => {
    const [ada, bea] = await Promise.all([world().player('Ada'), world().player('Bea')]);
    for (const p of [ada, bea]) {
      await world().server.app.storage.relationships.setMessagePolicy(p.id, 'everyone');
    }
    const adas = await world().readyClient(ada);
    const beas = await world().readyClient(bea);
    // A lobby-only call refuses a channel the player has not got.
    await expect(adas.startCall('1234567890123')).rejects.toThrow(/DMs or group DMs/);
    const messageId = await adas.sendUserMessage(bea.id, 'call me');
    const dmId = adas.getMessageHandle(messageId)?.channelId() ?? '';
    await settle(() => beas.getMessageHandle(messageId) !== null);

    const app = world().server.app;
    const a = await connected(adas, dmId);
    const call = await app.storage.calls.findCall(dmId);
    expect(call?.ringing).toEqual([bea.id]);
    const b = await connected(beas, dmId);
    expect((await app.storage.calls.findCall(dmId))?.ringing).toEqual([]);
    await settle(() => a.getStats().privacyCode !== '');
    expect(b.getStats().privacyCode).toBe(a.getStats().privacyCode);
    await settle(async () => (await b.getParticipants()).length === 2);

    const got: number[][] = [];
    b.setOpusFrameReceivedCallback((userId, frame) => {
      if (userId === ada.id && frame.length > 3) got.push([...frame]);
    });
    const sent = Array.from({ length: 8 }, (_, i) =>
      Uint8Array.from({ length: 40 + i }, (_, j) => (j === 0 ? 0x78 : (i * 31 + j * 7) & 0xff)),
    );
    for (const frame of sent) expect(a.sendOpusFrame(frame)).toBe('sent');
    await settle(() => got.length === sent.length);
    expect(got).toEqual(sent.map((frame) => [...frame]));

    await adas.endCall(dmId);
    await settle(async () => (await b.getParticipants()).length === 1);
    await beas.endCall(dmId);
    await settle(async () => (await app.storage.calls.findCall(dmId)) === null);
    const message = await app.storage.messages.findById(dmId, call?.messageId ?? '');
    expect(message?.call?.participants).toEqual([ada.id, bea.id]);
    expect(message?.call?.endedAt).not.toBeNull();
  });
});
