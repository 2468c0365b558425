import { PermissionFlags as P } from '@guildhall/protocol';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { DAY_MS, SPLIT_MS, botWith, seedGuild } from '../../../test/support/expressionFixtures.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { recordDispatches, type DispatchRecorder } from '../../../test/support/dispatchRecorder.js';
import { apiCaller, dataUri, mp3, oggOpus } from '../../../test/support/voiceFixture.js';
import { readAudio } from './audio.js';

interface Sound {
  sound_id: string;
  name: string;
  volume: number;
  user?: { id: string };
}

describeDrivers('soundboard on $driver', (driver) => {
  let server: TestServer;
  let fx: Awaited<ReturnType<typeof seedGuild>>;
  let events: DispatchRecorder;
  let call: ReturnType<typeof apiCaller>;
  // The worker's server of the clocked API files: its route bucket is ROOMY_LIMITS' already (the
  // test server's default), and these refusals are far from its invalid request limit.
  const shared = useClockedServer({ storage: driver }, 'api-clock', {
    from: SPLIT_MS + DAY_MS,
    until: CHANNEL_LIST_VISIBILITY_FROM_MS,
  });
  const { clock } = shared;

  beforeAll(async () => {
    server = shared.server;
    events = await recordDispatches(server.app);
    call = apiCaller(server.app);
  });
  // The server outlives the file: its collector stops with the file.
  afterAll(() => {
    events.stop();
  });
  // A guild of the test's own: a sound made, edited or deleted by one test is not another's.
  beforeEach(async () => {
    fx = await seedGuild(server.app);
  });

  const base = () => `/guilds/${fx.guildId}/soundboard-sounds`;
  const upload = (body: Record<string, unknown>, auth = fx.ownerAuth) =>
    call('POST', base(), { auth, body: { name: 'boop', ...body } });

  it('checks what an upload is and how long it plays', async () => {
    const cases: [Record<string, unknown>, number, number][] = [
      [{ sound: 'not a data uri' }, 400, 50035],
      [{ sound: dataUri('audio/mpeg', Buffer.from('plain text, not audio')) }, 400, 50046],
      // 200 frames of 26 ms: 5.22 s, over the 5.2 s limit.
      [{ sound: dataUri('audio/mpeg', mp3(200)) }, 400, 50192],
      [{ sound: dataUri('audio/ogg', oggOpus(6)) }, 400, 50192],
      [{ sound: dataUri('audio/mpeg', mp3(1300)) }, 400, 50035],
      [{ sound: dataUri('audio/mpeg', mp3(10)), name: 'x' }, 400, 50035],
      [{ sound: dataUri('audio/mpeg', mp3(10)), volume: 2 }, 400, 50035],
      [{ sound: dataUri('audio/mpeg', mp3(10)), emoji_id: '12345' }, 400, 50035],
    ];
    for (const [body, status, code] of cases) {
      const res = await upload(body);
      expect(
        [res.statusCode, res.json<{ code: number }>().code],
        JSON.stringify(body).slice(0, 80),
      ).toEqual([status, code]);
    }
    // A page whose checksum does not match is not an Ogg stream; a cut MP3 frame neither.
    const broken = oggOpus(1);
    broken.writeUInt8(broken.readUInt8(40) ^ 1, 40);
    expect(readAudio(broken)).toBeNull();
    expect(readAudio(mp3(10).subarray(0, 4000))).toBeNull();
    expect(readAudio(mp3(10, { id3: true }))).toEqual({
      contentType: 'audio/mpeg',
      durationSeconds: (10 * 1152) / 44_100,
    });
    const listener = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'listener',
      permissions: P.VIEW_CHANNEL,
    });
    const refused = await upload({ sound: dataUri('audio/mpeg', mp3(10)) }, listener.auth);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50013 });
    expect(await server.app.storage.soundboard.listByGuild(fx.guildId)).toEqual([]);
  });

  it('uploads, lists, serves, edits and deletes sounds with events and audit entries', async () => {
    await events.take();
    const created = await call('POST', base(), {
      auth: fx.ownerAuth,
      body: {
        name: 'boop',
        sound: dataUri('audio/mpeg', mp3(40, { id3: true })),
        volume: 0.5,
        emoji_name: '🔔',
      },
      reason: 'fun',
    });
    expect(created.statusCode).toBe(201);
    const sound = created.json<Sound>();
    expect(sound).toMatchObject({
      name: 'boop',
      volume: 0.5,
      emoji_id: null,
      emoji_name: '🔔',
      guild_id: fx.guildId,
      available: true,
      user: { id: fx.owner.userId },
    });
    const ogg = await upload({ name: 'chime', sound: dataUri('audio/ogg', oggOpus(2.5)) });
    expect(ogg.statusCode).toBe(201);
    const chime = ogg.json<Sound>();

    const list = await call('GET', base(), { auth: fx.ownerAuth });
    expect(list.json<{ items: Sound[] }>().items.map((s) => s.name)).toEqual(['boop', 'chime']);
    const one = await call('GET', `${base()}/${sound.sound_id}`, { auth: fx.ownerAuth });
    expect(one.json()).toEqual(sound);
    const file = await server.app.http.inject({ url: `/soundboard-sounds/${chime.sound_id}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('audio/ogg');
    expect(file.rawPayload.equals(oggOpus(2.5))).toBe(true);

    const edited = await call('PATCH', `${base()}/${sound.sound_id}`, {
      auth: fx.ownerAuth,
      body: { name: 'beep', volume: 1 },
    });
    expect(edited.json()).toMatchObject({ name: 'beep', volume: 1 });
    const unknown = await call('PATCH', `${base()}/123`, { auth: fx.ownerAuth, body: {} });
    expect(unknown.json()).toMatchObject({ code: 10097 });
    const deleted = await call('DELETE', `${base()}/${chime.sound_id}`, { auth: fx.ownerAuth });
    expect(deleted.statusCode).toBe(204);
    const gone = await call('GET', `${base()}/${chime.sound_id}`, { auth: fx.ownerAuth });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 10097 });
    const goneFile = await server.app.http.inject({ url: `/soundboard-sounds/${chime.sound_id}` });
    expect(goneFile.statusCode).toBe(404);

    const seen = (await events.take()).filter((e) => e.type.startsWith('GUILD_SOUNDBOARD'));
    expect(seen.map((e) => [e.type, (e.data as Record<string, unknown>)['sound_id']])).toEqual([
      ['GUILD_SOUNDBOARD_SOUND_CREATE', sound.sound_id],
      ['GUILD_SOUNDBOARD_SOUND_CREATE', chime.sound_id],
      ['GUILD_SOUNDBOARD_SOUND_UPDATE', sound.sound_id],
      ['GUILD_SOUNDBOARD_SOUND_DELETE', chime.sound_id],
    ]);
    expect(seen[3]?.data).toEqual({ sound_id: chime.sound_id, guild_id: fx.guildId });
    const audit = await server.app.storage.auditLog.list(fx.guildId, { limit: 10 });
    expect(audit.map((e) => e.actionType).slice(0, 4)).toEqual([132, 131, 130, 130]);
    expect(audit[3]?.reason).toBe('fun');
  });

  it('offers default sounds with real audio, and plays sounds in voice', async () => {
    const defaults = await call('GET', '/soundboard-default-sounds', { auth: fx.ownerAuth });
    expect(defaults.statusCode).toBe(200);
    const [quack] = defaults.json<Sound[]>();
    expect(quack).toEqual({
      name: 'quack',
      sound_id: '1',
      volume: 1,
      emoji_id: null,
      emoji_name: '🦆',
      available: true,
    });
    const quackFile = await server.app.http.inject({ url: '/soundboard-sounds/1' });
    expect(quackFile.headers['content-type']).toBe('audio/mpeg');
    expect(readAudio(quackFile.rawPayload)?.durationSeconds).toBeGreaterThan(0.4);

    const made = await upload({ sound: dataUri('audio/mpeg', mp3(40)), emoji_name: '🔔' });
    expect(made.statusCode).toBe(201);
    const sound = made.json<Sound>();
    const send = (body: unknown, channelId = fx.voiceId, auth = fx.ownerAuth) =>
      call('POST', `/channels/${channelId}/send-soundboard-sound`, { auth, body });
    const away = await send({ sound_id: sound.sound_id });
    expect(away.json()).toMatchObject({ code: 40032 });
    await server.app.storage.gateway.putVoiceState({
      guildId: fx.guildId,
      userId: fx.owner.userId,
      channelId: fx.voiceId,
      sessionId: 'owner-session',
      selfMute: false,
      selfDeaf: false,
      selfVideo: false,
      joinedAt: clock.now(),
      suppress: false,
      requestToSpeakAt: null,
    });
    await events.take();
    expect((await send({ sound_id: sound.sound_id })).statusCode).toBe(204);
    expect((await send({ sound_id: '1' })).statusCode).toBe(204);
    expect((await send({ sound_id: '99999' })).json()).toMatchObject({ code: 10097 });
    expect((await send({ sound_id: sound.sound_id }, fx.textId)).json()).toMatchObject({
      code: 50024,
    });
    expect((await send({})).json()).toMatchObject({ code: 50035, errors: { sound_id: {} } });
    const effects = (await events.take()).filter((e) => e.type === 'VOICE_CHANNEL_EFFECT_SEND');
    expect(effects.map((e) => [e.channelId, e.data])).toEqual([
      [
        fx.voiceId,
        {
          channel_id: fx.voiceId,
          guild_id: fx.guildId,
          user_id: fx.owner.userId,
          sound_id: sound.sound_id,
          sound_volume: 1,
          emoji: { id: null, name: '🔔' },
        },
      ],
      [
        fx.voiceId,
        {
          channel_id: fx.voiceId,
          guild_id: fx.guildId,
          user_id: fx.owner.userId,
          sound_id: '1',
          sound_volume: 1,
          emoji: { id: null, name: '🦆' },
        },
      ],
    ]);
    // A server-muted member plays nothing.
    await server.app.storage.members.update(fx.guildId, fx.owner.userId, { mute: true });
    expect((await send({ sound_id: '1' })).json()).toMatchObject({ code: 50013 });
  });
});
