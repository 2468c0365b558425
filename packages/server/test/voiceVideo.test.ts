/**
 * Video and screen share on the voice gateway (docs/voice.md#video-and-screen-share): Identify's
 * `streams` get their ssrcs in Ready, Select Protocol's `codecs` name the session's video codec,
 * op 12 (Video) goes to the others with the sender's `user_id` (and to whoever joins later) and
 * may name only the sender's own ssrcs, op 15 (Media Sink Wants) is taken, op 16 (Voice Backend
 * Version) is answered. The relay's side (whole DAVE video frames, per receiver) is in
 * src/voice/relay/videoRelay.test.ts.
 */
import { VoiceCloseCodes as Close, VoiceOpcodes as VOp } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { connectVoice, type VoiceClient } from './support/voiceClient.js';
import { voiceCalls, type CallSeat } from './support/voiceCalls.js';

const CODECS = [
  { name: 'opus', type: 'audio', priority: 1000, payload_type: 120 },
  { name: 'VP8', type: 'video', priority: 2000, payload_type: 103, rtx_payload_type: 104 },
  { name: 'H264', type: 'video', priority: 1000, payload_type: 101, rtx_payload_type: 102 },
];

interface ReadyStream {
  type: string;
  rid: string;
  quality: number;
  ssrc: number;
  rtx_ssrc: number;
  active: boolean;
}

describeDrivers('video on the voice gateway ($driver)', (driver) => {
  const gw = useGatewayFixture({ driver });
  const { voiceChannel, joinCall } = voiceCalls(gw);

  /** Identify (with `streams`), Ready, Select Protocol (with codecs), Session Description. */
  const connect = async (who: CallSeat, streams: object[]) => {
    const voice = gw.track(await connectVoice(who.server.endpoint));
    await voice.op(VOp.HELLO);
    voice.send(VOp.IDENTIFY, {
      server_id: who.server.guild_id,
      user_id: who.userId,
      session_id: who.sessionId,
      token: who.server.token,
      max_dave_protocol_version: 1,
      video: true,
      streams,
    });
    const ready = (await voice.op(VOp.READY)).d as { ssrc: number; streams: ReadyStream[] };
    voice.send(VOp.SELECT_PROTOCOL, {
      protocol: 'udp',
      data: { address: '127.0.0.1', port: 40_000, mode: 'aead_aes256_gcm_rtpsize' },
      codecs: CODECS,
    });
    const description = (await voice.op(VOp.SESSION_DESCRIPTION)).d as { video_codec: unknown };
    return { voice, ready, description };
  };

  const videoOf = (client: VoiceClient) => client.op(VOp.VIDEO);

  it('gives streams their ssrcs, names the video codec and carries op 12 to the others', async () => {
    const channelId = await voiceChannel();
    const bot = await joinCall(gw.guild.bot.token, channelId);
    const owner = await joinCall(gw.guild.owner.token, channelId);
    const camera = { type: 'video', rid: '100', quality: 100 };
    const sender = await connect(bot, [camera, { type: 'screen', rid: '50', quality: 50 }]);
    expect(
      sender.ready.streams.map((s) => [s.type, s.rid, s.quality, s.active, typeof s.ssrc]),
    ).toEqual([
      [camera.type, camera.rid, camera.quality, false, 'number'],
      ['screen', '50', 50, false, 'number'],
    ]);
    const ssrcs = sender.ready.streams.flatMap((s) => [s.ssrc, s.rtx_ssrc]);
    expect(new Set([sender.ready.ssrc, ...ssrcs]).size).toBe(5);
    // The offered video codec of best priority.
    expect(sender.description.video_codec).toBe('H264');

    const receiver = await connect(owner, []);
    expect(receiver.ready.streams).toEqual([]);
    const [stream] = sender.ready.streams;
    const video = {
      audio_ssrc: sender.ready.ssrc,
      video_ssrc: stream?.ssrc,
      rtx_ssrc: stream?.rtx_ssrc,
      streams: [
        {
          type: 'video',
          rid: '100',
          ssrc: stream?.ssrc,
          rtx_ssrc: stream?.rtx_ssrc,
          active: true,
          quality: 100,
          max_bitrate: 2_500_000,
          max_framerate: 30,
          max_resolution: { type: 'fixed', width: 1280, height: 720 },
        },
      ],
    };
    sender.voice.send(VOp.VIDEO, video);
    expect((await videoOf(receiver.voice)).d).toEqual({ user_id: bot.userId, ...video });

    // Whoever joins later hears of it; op 15 is taken; op 16 is answered.
    const later = await joinCall((await gw.guild.join('late')).token, channelId);
    const third = await connect(later, []);
    expect((await videoOf(third.voice)).d).toEqual({ user_id: bot.userId, ...video });
    third.voice.send(VOp.MEDIA_SINK_WANTS, { any: 0, [String(stream?.ssrc)]: 100 });
    third.voice.send(VOp.VOICE_BACKEND_VERSION, {});
    const version = (await third.voice.op(VOp.VOICE_BACKEND_VERSION)).d as Record<string, unknown>;
    expect(Object.keys(version).sort()).toEqual(['rtc_worker', 'voice']);

    // Another member's ssrc in op 12: refused (4020).
    receiver.voice.send(VOp.VIDEO, { ...video, audio_ssrc: receiver.ready.ssrc });
    expect((await receiver.voice.closed).code).toBe(Close.BAD_REQUEST);
  });

  it('refuses more than four streams and a malformed sink wants (4002)', async () => {
    const channelId = await voiceChannel();
    const bot = await joinCall(gw.guild.bot.token, channelId);
    const voice = gw.track(await connectVoice(bot.server.endpoint));
    await voice.op(VOp.HELLO);
    voice.send(VOp.IDENTIFY, {
      server_id: bot.server.guild_id,
      user_id: bot.userId,
      session_id: bot.sessionId,
      token: bot.server.token,
      max_dave_protocol_version: 1,
      streams: Array.from({ length: 5 }, () => ({ type: 'video' })),
    });
    expect((await voice.closed).code).toBe(Close.FAILED_TO_DECODE);
    const again = await joinCall(gw.guild.bot.token, channelId);
    const { voice: second } = await connect(again, []);
    second.send(VOp.MEDIA_SINK_WANTS, { everyone: 'all' });
    expect((await second.closed).code).toBe(Close.FAILED_TO_DECODE);
  });
});
