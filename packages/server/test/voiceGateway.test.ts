/**
 * The voice gateway, spoken to frame by frame: op 4 on the main gateway hands out the voice
 * server, Identify's checks and refusals (4017 without DAVE, 4004, 4006), Ready, Select Protocol,
 * Session Description and DAVE's external sender, Clients Connect / Disconnect, Speaking,
 * Resume, TLS on the same port, and a voice state that leaves the call closing its member (4014).
 * The full DAVE exchange and media run with real clients in voiceClients.test.ts.
 */
import {
  VOICE_ENCRYPTION_MODES,
  VoiceCloseCodes as Close,
  VoiceOpcodes as VOp,
} from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { connectVoice } from './support/voiceClient.js';
import { voiceCalls, type CallSeat } from './support/voiceCalls.js';

describeDrivers('the voice gateway on $driver', (driver) => {
  const gw = useGatewayFixture({ driver });
  const { voiceChannel, joinCall, identify } = voiceCalls(gw);

  /** Hello → Identify → Ready → Select Protocol → Session Description. */
  const connect = async (who: CallSeat) => {
    const voice = gw.track(await connectVoice(who.server.endpoint));
    await voice.op(VOp.HELLO);
    identify(voice, who);
    const ready = (await voice.op(VOp.READY)).d as { ssrc: number; ip: string; port: number };
    voice.send(VOp.SELECT_PROTOCOL, {
      protocol: 'udp',
      data: { address: '127.0.0.1', port: 40_000, mode: 'aead_aes256_gcm_rtpsize' },
    });
    const description = (await voice.op(VOp.SESSION_DESCRIPTION)).d as {
      mode: string;
      secret_key: number[];
      dave_protocol_version: number;
    };
    return { voice, ready, description };
  };

  it('op 4 hands out the voice server; Identify, Ready, Session Description and DAVE follow', async () => {
    const channelId = await voiceChannel();
    const bot = await joinCall(gw.guild.bot.token, channelId);
    expect(bot.server.guild_id).toBe(gw.guild.guildId);
    expect(bot.server.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);

    const voice = gw.track(await connectVoice(bot.server.endpoint));
    const hello = (await voice.op(VOp.HELLO)).d as { heartbeat_interval: number };
    expect(hello.heartbeat_interval).toBeGreaterThan(0);
    voice.send(VOp.HEARTBEAT, { t: 1234, seq_ack: -1 });
    expect((await voice.op(VOp.HEARTBEAT_ACK)).d).toEqual({ t: 1234 });
    identify(voice, bot);
    const ready = (await voice.op(VOp.READY)).d as { ssrc: number; port: number; ip: string };
    expect(ready).toMatchObject({ ip: '127.0.0.1', modes: [...VOICE_ENCRYPTION_MODES] });
    expect(ready.ssrc).toEqual(expect.any(Number));
    expect(ready.port).toBe(Number(bot.server.endpoint.split(':')[1]));

    voice.send(VOp.SELECT_PROTOCOL, {
      protocol: 'udp',
      data: { address: '127.0.0.1', port: 40_000, mode: 'aead_xchacha20_poly1305_rtpsize' },
    });
    const description = (await voice.op(VOp.SESSION_DESCRIPTION)).d as { secret_key: number[] };
    expect(description).toMatchObject({
      mode: 'aead_xchacha20_poly1305_rtpsize',
      dave_protocol_version: 1,
    });
    expect(description.secret_key).toHaveLength(32);
    // DAVE: the MLS external sender (the voice node's signature key) arrives as a binary frame.
    const external = await voice.op(VOp.DAVE_MLS_EXTERNAL_SENDER);
    expect(external.payload?.length).toBeGreaterThan(64);
    expect(external.seq).toBeGreaterThan(0);

    // A second member: each is told of the other.
    const owner = await joinCall(gw.guild.owner.token, channelId);
    const second = await connect(owner);
    expect((await voice.op(VOp.CLIENTS_CONNECT)).d).toEqual({ user_ids: [owner.userId] });
    expect((await second.voice.op(VOp.CLIENTS_CONNECT)).d).toEqual({ user_ids: [bot.userId] });
    expect(second.ready.ssrc).not.toBe(ready.ssrc);
    const metrics = await gw.server.app.http.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('\nguildhall_voice_calls 1\n');
    expect(metrics.body).toContain('\nguildhall_voice_members 2\n');
    expect(metrics.body).toMatch(/\nguildhall_voice_packets_dropped_total\{reason="notE2ee"\} 0\n/);

    // Speaking reaches the other member with the speaker's user id; another ssrc is refused.
    voice.send(VOp.SPEAKING, { speaking: 1, delay: 0, ssrc: ready.ssrc });
    expect((await second.voice.op(VOp.SPEAKING)).d).toEqual({
      user_id: bot.userId,
      ssrc: ready.ssrc,
      speaking: 1,
    });

    // The bot leaves on the main gateway: its voice connection is closed, the other is told.
    bot.client.send(4, {
      guild_id: gw.guild.guildId,
      channel_id: null,
      self_mute: false,
      self_deaf: false,
    });
    expect((await voice.closed).code).toBe(Close.DISCONNECTED);
    expect((await second.voice.op(VOp.CLIENT_DISCONNECT)).d).toEqual({ user_id: bot.userId });
  });

  it('refuses clients without DAVE (4017), forged tokens (4004) and stale voice states (4006)', async () => {
    const channelId = await voiceChannel();
    const bot = await joinCall(gw.guild.bot.token, channelId);

    const plain = gw.track(await connectVoice(bot.server.endpoint));
    identify(plain, bot, 0);
    const refused = await plain.closed;
    expect(refused.code).toBe(Close.E2EE_REQUIRED);
    expect(refused.reason).toMatch(/end-to-end encrypted/);

    const forged = gw.track(await connectVoice(bot.server.endpoint));
    identify(forged, {
      ...bot,
      server: { ...bot.server, token: `${bot.server.token.slice(0, -2)}AA` },
    });
    expect((await forged.closed).code).toBe(Close.AUTHENTICATION_FAILED);

    const someoneElse = gw.track(await connectVoice(bot.server.endpoint));
    identify(someoneElse, { ...bot, userId: gw.guild.owner.userId });
    expect((await someoneElse.closed).code).toBe(Close.AUTHENTICATION_FAILED);

    const early = gw.track(await connectVoice(bot.server.endpoint));
    early.send(VOp.SELECT_PROTOCOL, {
      protocol: 'udp',
      data: { address: '1', port: 1, mode: 'x' },
    });
    expect((await early.closed).code).toBe(Close.NOT_AUTHENTICATED);

    // The voice state left before Identify: the token alone does not let it in.
    const seen = gw.lastSeq(bot.client);
    bot.client.send(4, {
      guild_id: gw.guild.guildId,
      channel_id: null,
      self_mute: false,
      self_deaf: false,
    });
    await bot.client.next((f) => f.t === 'VOICE_STATE_UPDATE' && (f.s ?? 0) > seen);
    const stale = gw.track(await connectVoice(bot.server.endpoint));
    identify(stale, bot);
    expect((await stale.closed).code).toBe(Close.SESSION_NO_LONGER_VALID);
  });

  it('refuses unknown modes (4016), opcodes (4001), malformed frames (4002) and other versions', async () => {
    const channelId = await voiceChannel();
    const bot = await joinCall(gw.guild.bot.token, channelId);
    const voice = gw.track(await connectVoice(bot.server.endpoint));
    identify(voice, bot);
    await voice.op(VOp.READY);
    voice.send(VOp.SELECT_PROTOCOL, {
      protocol: 'udp',
      data: { address: '127.0.0.1', port: 1, mode: 'xsalsa20_poly1305' },
    });
    expect((await voice.closed).code).toBe(Close.UNKNOWN_ENCRYPTION_MODE);

    const again = await joinCall(gw.guild.bot.token, channelId);
    const unknown = gw.track(await connectVoice(again.server.endpoint));
    identify(unknown, again);
    await unknown.op(VOp.READY);
    unknown.send(99, {});
    expect((await unknown.closed).code).toBe(Close.UNKNOWN_OPCODE);

    const garbage = gw.track(await connectVoice(again.server.endpoint));
    garbage.raw.send('{"op": 0, "d": ');
    expect((await garbage.closed).code).toBe(Close.FAILED_TO_DECODE);

    await expect(connectVoice(again.server.endpoint, { path: '/?v=4' })).rejects.toThrow(
      'HTTP 400',
    );
  });

  it('resumes a dropped connection and replays what it missed; speaks TLS on the same port', async () => {
    const channelId = await voiceChannel();
    const bot = await joinCall(gw.guild.bot.token, channelId);
    const first = await connect(bot);
    await first.voice.op(VOp.DAVE_MLS_EXTERNAL_SENDER);
    const acked = first.voice.lastSeq();
    first.voice.raw.terminate();

    // While it is away someone joins: Clients Connect waits for the resume.
    const voice = gw.server.app.voice;
    if (voice === null) throw new Error('no voice node');
    // The development certificate is made on first use: here, before the first TLS connection.
    const { cert: ca } = await voice.tls();
    const owner = await joinCall(gw.guild.owner.token, channelId);
    const secure = gw.track(await connectVoice(owner.server.endpoint, { tls: { ca } }));
    await secure.op(VOp.HELLO);
    identify(secure, owner);
    await secure.op(VOp.READY);
    secure.send(VOp.SELECT_PROTOCOL, {
      protocol: 'udp',
      data: { address: '127.0.0.1', port: 40_001, mode: 'aead_aes256_gcm_rtpsize' },
    });
    await secure.op(VOp.SESSION_DESCRIPTION);

    const back = gw.track(await connectVoice(bot.server.endpoint));
    back.send(VOp.RESUME, {
      server_id: gw.guild.guildId,
      session_id: bot.sessionId,
      token: bot.server.token,
      seq_ack: acked,
    });
    await back.op(VOp.RESUMED);
    const connected = await back.op(VOp.CLIENTS_CONNECT);
    // Resumed comes before what is replayed (DAVE's frames count only once the client is ready).
    expect(back.frames.findIndex((f) => f.op === VOp.RESUMED)).toBeLessThan(
      back.frames.indexOf(connected),
    );
    expect(connected.d).toEqual({ user_ids: [owner.userId] });
    expect(connected.seq).toBe(acked + 1);
    // Nothing it had acknowledged comes again.
    expect(back.frames.filter((f) => f.op === VOp.SESSION_DESCRIPTION)).toHaveLength(0);

    // A resume naming a session the node does not hold is refused.
    const stranger = gw.track(await connectVoice(bot.server.endpoint));
    stranger.send(VOp.RESUME, {
      server_id: gw.guild.guildId,
      session_id: 'no-such-session',
      token: bot.server.token,
      seq_ack: 0,
    });
    expect((await stranger.closed).code).toBe(Close.SESSION_NO_LONGER_VALID);
  });

  it('a second Identify of the same user replaces the first, alone or not; a kick ends its place', async () => {
    const channelId = await voiceChannel();
    const bot = await joinCall(gw.guild.bot.token, channelId);
    const first = await connect(bot);
    // Alone in the call, the bot identifies again (a client starting over): the call goes on.
    const again = await connect(bot);
    expect((await first.voice.closed).code).toBe(Close.DISCONNECTED);
    const owner = await joinCall(gw.guild.owner.token, channelId);
    const ownerVoice = await connect(owner);
    expect((await again.voice.op(VOp.CLIENTS_CONNECT)).d).toEqual({ user_ids: [owner.userId] });
    expect((await ownerVoice.voice.op(VOp.CLIENTS_CONNECT)).d).toEqual({ user_ids: [bot.userId] });
    const metrics = await gw.server.app.http.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('\nguildhall_voice_calls 1\n');
    expect(metrics.body).toContain('\nguildhall_voice_members 2\n');

    // The owner kicks the bot: its voice connection ends, the owner is told.
    const kicked = await gw.guild.call(
      'DELETE',
      `/guilds/${gw.guild.guildId}/members/${gw.guild.bot.userId}`,
      { auth: gw.guild.owner.token },
    );
    expect(kicked.statusCode).toBe(204);
    expect((await again.voice.closed).code).toBe(Close.DISCONNECTED);
    expect((await ownerVoice.voice.op(VOp.CLIENT_DISCONNECT)).d).toEqual({ user_id: bot.userId });
  });
});
