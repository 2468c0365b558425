/**
 * DM calls through the SDK's `Call` against a real Guildhall (docs/sdk.md, Voice): `startCall`
 * with a DM's channel id joins its call through op 4 (starting it rings the other player), the
 * voice node lets both in with DAVE, Opus frames cross end-to-end encrypted, and `endCall`
 * leaves it; the last to leave ends the call. Video and screen share cross the same way: whole
 * VP8 frames over several packets each, DAVE-encrypted, through the voice node's relay, which
 * honours what each receiver wants (op 15). Nothing in between is a stand-in.
 */
import { expect, it } from 'vitest';
import {
  CallStatus,
  MAX_VIDEO_FRAME_BYTES,
  type Call,
  type Client,
  type VideoFrameInfo,
  type VideoStreamState,
} from '../src/node.js';
import { describeDrivers, useSdkWorld, type SdkWorld } from './support.js';

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

/** Two players with a DM between them, each a Ready client. */
async function twoInADm(world: SdkWorld) {
  const [ada, bea] = await Promise.all([world.player('Ada'), world.player('Bea')]);
  for (const p of [ada, bea]) {
    await world.server.app.storage.relationships.setMessagePolicy(p.id, 'everyone');
  }
  const adas = await world.readyClient(ada);
  const beas = await world.readyClient(bea);
  const messageId = await adas.sendUserMessage(bea.id, 'call me');
  const dmId = adas.getMessageHandle(messageId)?.channelId() ?? '';
  await settle(() => beas.getMessageHandle(messageId) !== null);
  return { ada, bea, adas, beas, dmId };
}

/**
 * A VP8 frame as an encoder makes one (RFC 6386 §9.1): the frame tag (P, its lowest bit, clear
 * on a key frame), and on a key frame the start code and the size; then `size` bytes in all.
 */
function vp8Frame(size: number, keyframe: boolean, seed: number): Uint8Array {
  const frame = Uint8Array.from({ length: size }, (_, i) => (seed * 131 + i * 7) & 0xff);
  frame[0] = keyframe ? 0x10 : 0x11;
  if (keyframe) frame.set([0x9d, 0x01, 0x2a, 0x80, 0x02, 0x68, 0x01], 3);
  return frame;
}

describeDrivers('SDK DM calls with a real Guildhall voice node ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('two players call each other in their DM: rung, joined, frames across, ended', async () => {
    const { ada, bea, adas, beas, dmId } = await twoInADm(world());
    // A lobby-only call refuses a channel the player has not got.
    await expect(adas.startCall('1234567890123')).rejects.toThrow(/DMs or group DMs/);

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

  it('carries camera and screen frames whole, DAVE-encrypted, as each receiver wants', async () => {
    const { ada, bea, adas, beas, dmId } = await twoInADm(world());
    const a = await connected(adas, dmId);
    const b = await connected(beas, dmId);
    await settle(() => a.getStats().privacyCode !== '' && b.getStats().privacyCode !== '');
    const streams: VideoStreamState[][] = [];
    b.setVideoStreamsChangedCallback((userId, said) => {
      if (userId === ada.id) streams.push([...said]);
    });
    const got: { frame: number[]; info: VideoFrameInfo }[] = [];
    b.setVideoFrameReceivedCallback((userId, frame, info) => {
      if (userId === ada.id) got.push({ frame: [...frame], info });
    });
    const heard: number[] = [];
    b.setOpusFrameReceivedCallback((userId, frame) => {
      if (userId === ada.id && frame.length > 3) heard.push(frame.length);
    });

    // Nothing leaves before the stream is started, nor a frame over the limit.
    const key = vp8Frame(5000, true, 1);
    expect(a.sendVideoFrame(key)).toBe('notStreaming');
    expect(a.startVideo()).toBe('ok');
    expect(a.sendVideoFrame(new Uint8Array(MAX_VIDEO_FRAME_BYTES + 1))).toBe('tooLarge');
    await settle(() => streams.some((s) => s.some((x) => x.type === 'video' && x.active)));
    expect(a.getVideoStreams(bea.id)).toEqual([]);
    expect(b.getVideoStreams(ada.id)).toContainEqual({ type: 'video', active: true });
    // The camera is in Ada's voice state (self_video), as Bea's client sees it.
    await settle(async () => (await b.getVoiceStateHandle(ada.id))?.selfVideo() === true);

    // A key frame over five packets, a delta frame, and a screen's frame once it is started.
    const delta = vp8Frame(2400, false, 2);
    const screen = vp8Frame(30_000, true, 3);
    expect(a.sendVideoFrame(key)).toBe('sent');
    expect(a.sendVideoFrame(delta)).toBe('sent');
    expect(a.sendVideoFrame(screen, 'screen')).toBe('notStreaming');
    expect(a.startVideo('screen')).toBe('ok');
    expect(a.sendVideoFrame(screen, 'screen')).toBe('sent');
    await settle(() => got.length === 3);
    expect(got.map((g) => g.frame)).toEqual([key, delta, screen].map((f) => [...f]));
    expect(got.map((g) => [g.info.stream, g.info.keyframe])).toEqual([
      ['video', true],
      ['video', false],
      ['screen', true],
    ]);
    expect(got[0]?.info.ssrc).not.toBe(got[2]?.info.ssrc);
    expect(a.getStats().videoFramesSent).toBe(3);
    expect(b.getStats().videoFramesReceived).toBe(3);

    // Bea wants none of Ada's video: the relay sends her none. Her Speaking (op 5) follows her op
    // 15 on the voice WebSocket, so once Ada hears it the relay has her wants; Ada's audio frame
    // leaves after her video frame on one socket, so once Bea hears it the video was not sent.
    const speaking = new Set<string>();
    a.setSpeakingStatusChangedCallback((userId, on) => {
      if (on) speaking.add(userId);
    });
    b.setVideoWanted(ada.id, false);
    expect(b.sendOpusFrame(Uint8Array.of(0x78, 1, 2, 3))).toBe('sent');
    await settle(() => speaking.has(bea.id));
    const dropped = b.getStats().packetsDropped;
    expect(a.sendVideoFrame(delta)).toBe('sent');
    expect(a.sendOpusFrame(Uint8Array.of(0x78, 4, 5, 6))).toBe('sent');
    await settle(() => heard.length === 1);
    expect(got).toHaveLength(3);
    // Not sent and dropped here: not sent at all.
    expect(b.getStats().packetsDropped).toBe(dropped);

    // Stopping the camera: the others hear of it, in the stream list and the voice state.
    expect(a.stopVideo()).toBe('ok');
    await settle(() => streams.at(-1)?.find((s) => s.type === 'video')?.active === false);
    expect(streams.at(-1)).toContainEqual({ type: 'screen', active: true });
    await settle(async () => (await b.getVoiceStateHandle(ada.id))?.selfVideo() === false);
    expect(a.sendVideoFrame(delta)).toBe('notStreaming');
  });
});
