import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeAll, expect, it, onTestFinished } from 'vitest';
import { uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { GIF_1X1, PNG_1X1, botWith, seedGuild } from '../../../test/support/expressionFixtures.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import { apiCaller } from '../../../test/support/voiceFixture.js';

type Dev = Awaited<ReturnType<typeof seedDeveloper>>;

/** A multipart body with one `file` part. */
function fileForm(name: string, data: Buffer, type: string) {
  const boundary = 'guildhall-app-data';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describeDrivers('application data and OAuth2 membership on $driver', (driver) => {
  let server: TestServer;
  let call: ReturnType<typeof apiCaller>;
  let dev: Dev;
  let other: Dev;
  let bot: string;

  // The worker's plain server (its route bucket is ROOMY_LIMITS' already, and these refusals are
  // far from its invalid request limit): the file's tests share two developers of their own.
  const shared = useFileServer({ storage: driver }, 'api');
  beforeAll(async () => {
    server = shared.server;
    call = apiCaller(server.app);
    dev = await seedDeveloper(server.app, uniqueName('maker'), 'maker app');
    other = await seedDeveloper(server.app, uniqueName('other'), 'other app');
    bot = `Bot ${dev.botToken}`;
  });

  /** A user's OAuth2 access token for `app` with `scopes`. */
  const bearer = async (userId: string, applicationId: string, scopes: string[]) => {
    const tokens = await server.app.services.oauth.issueTokens({
      userId,
      applicationId,
      scopes,
      refresh: false,
    });
    return tokens.access_token;
  };

  it('reads and edits its own application with its bot token', async () => {
    const read = await call('GET', `/applications/${dev.applicationId}`, { auth: bot });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: dev.applicationId, name: 'maker app' });
    const edited = await call('PATCH', `/applications/${dev.applicationId}`, {
      auth: bot,
      body: { description: 'Edited by its bot' },
    });
    expect(edited.json()).toMatchObject({ description: 'Edited by its bot' });
    const theirs = await call('GET', `/applications/${other.applicationId}`, { auth: bot });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 10002 });
    const bad = await call('PATCH', `/applications/${dev.applicationId}`, {
      auth: bot,
      body: { description: 'x'.repeat(401) },
    });
    expect(bad.json()).toMatchObject({ code: 50035 });
  });

  it('keeps application emojis, served at the emoji CDN path', async () => {
    const base = `/applications/${dev.applicationId}/emojis`;
    const created = await call('POST', base, {
      auth: bot,
      body: { name: 'spark', image: PNG_1X1 },
    });
    expect(created.statusCode).toBe(201);
    const emoji = created.json<{ id: string }>();
    expect(emoji).toMatchObject({
      name: 'spark',
      animated: false,
      roles: [],
      user: { id: dev.botUserId },
    });
    const gif = await call('POST', base, { auth: bot, body: { name: 'wiggle', image: GIF_1X1 } });
    expect(gif.json()).toMatchObject({ animated: true });
    const taken = await call('POST', base, { auth: bot, body: { name: 'spark', image: PNG_1X1 } });
    expect(taken.json()).toMatchObject({ code: 50035, errors: { name: {} } });
    const badImage = await call('POST', base, {
      auth: bot,
      body: { name: 'nope', image: 'data:x' },
    });
    expect(badImage.json()).toMatchObject({ code: 50035, errors: { image: {} } });
    const list = await call('GET', base, { auth: bot });
    expect(list.json<{ items: { name: string }[] }>().items.map((e) => e.name)).toEqual([
      'spark',
      'wiggle',
    ]);
    const renamed = await call('PATCH', `${base}/${emoji.id}`, {
      auth: bot,
      body: { name: 'flash' },
    });
    expect(renamed.json()).toMatchObject({ id: emoji.id, name: 'flash' });
    expect((await call('GET', `${base}/${emoji.id}`, { auth: bot })).json()).toMatchObject({
      name: 'flash',
    });
    const image = await server.app.http.inject({ url: `/emojis/${emoji.id}.png` });
    expect(image.statusCode).toBe(200);
    const stranger = await call('GET', base, { auth: `Bot ${other.botToken}` });
    expect(stranger.json()).toMatchObject({ code: 10002 });
    expect((await call('DELETE', `${base}/${emoji.id}`, { auth: bot })).statusCode).toBe(204);
    const gone = await call('GET', `${base}/${emoji.id}`, { auth: bot });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 10014 });
  });

  it('keeps role connection metadata and each user role connection', async () => {
    const metadata = `/applications/${dev.applicationId}/role-connections/metadata`;
    const records = [
      { type: 2, key: 'level', name: 'Level', description: 'Player level at least' },
      { type: 7, key: 'verified', name: 'Verified', description: 'Has a verified account' },
    ];
    const put = await call('PUT', metadata, { auth: bot, body: records });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual(records);
    expect((await call('GET', metadata, { auth: bot })).json()).toEqual(records);
    const dup = await call('PUT', metadata, { auth: bot, body: [records[0], records[0]] });
    expect(dup.json()).toMatchObject({ code: 50035 });
    const tooMany = await call('PUT', metadata, {
      auth: bot,
      body: Array.from({ length: 6 }, (_, i) => ({ ...records[0], key: `k${String(i)}` })),
    });
    expect(tooMany.json()).toMatchObject({ code: 50035 });

    const path = `/users/@me/applications/${dev.applicationId}/role-connection`;
    const token = `Bearer ${await bearer(other.userId, dev.applicationId, ['role_connections.write'])}`;
    const empty = await call('GET', path, { auth: token });
    expect(empty.json()).toEqual({ platform_username: null, metadata: {} });
    const set = await call('PUT', path, {
      auth: token,
      body: {
        platform_name: 'Arena',
        platform_username: 'ot',
        metadata: { level: '12', verified: '1' },
      },
    });
    expect(set.json()).toEqual({
      platform_name: 'Arena',
      platform_username: 'ot',
      metadata: { level: '12', verified: '1' },
    });
    expect((await call('GET', path, { auth: token })).json()).toEqual(set.json());
    const unknownKey = await call('PUT', path, { auth: token, body: { metadata: { rank: '3' } } });
    expect(unknownKey.json()).toMatchObject({ code: 50035, errors: { metadata: { rank: {} } } });
    const badValue = await call('PUT', path, {
      auth: token,
      body: { metadata: { level: 'high' } },
    });
    expect(badValue.json()).toMatchObject({ code: 50035 });
    const noScope = `Bearer ${await bearer(other.userId, dev.applicationId, ['identify'])}`;
    const refused = await call('GET', path, { auth: noScope });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50026 });
    const otherApp = await call(
      'GET',
      `/users/@me/applications/${other.applicationId}/role-connection`,
      {
        auth: token,
      },
    );
    expect(otherApp.json()).toMatchObject({ code: 10002 });
    expect((await call('DELETE', path, { auth: token })).statusCode).toBe(204);
    expect((await call('GET', path, { auth: token })).json()).toMatchObject({ metadata: {} });
  });

  it('uploads an activity attachment and serves it at its signed URL', async () => {
    const png = Buffer.from(PNG_1X1.split(',')[1] ?? '', 'base64');
    const form = fileForm('shot.png', png, 'image/png');
    const res = await call('POST', `/applications/${dev.applicationId}/attachment`, {
      auth: bot,
      body: form.body,
      headers: { 'content-type': form.type },
    });
    expect(res.statusCode).toBe(200);
    const { attachment } = res.json<{ attachment: { url: string; size: number; width: number } }>();
    expect(attachment).toMatchObject({
      filename: 'shot.png',
      size: png.length,
      width: 1,
      height: 1,
    });
    const url = new URL(attachment.url);
    const file = await server.app.http.inject({ url: `${url.pathname}${url.search}` });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(png)).toBe(true);
    const unsigned = await server.app.http.inject({ url: url.pathname });
    expect(unsigned.statusCode).toBe(404);
    const empty = fileForm('none.txt', Buffer.alloc(0), 'text/plain');
    const refused = await call('POST', `/applications/${other.applicationId}/attachment`, {
      auth: bot,
      body: form.body,
      headers: { 'content-type': form.type },
    });
    expect(refused.json()).toMatchObject({ code: 10002 });
    const nothing = await call('POST', `/applications/${dev.applicationId}/attachment`, {
      auth: bot,
      body: empty.body,
      headers: { 'content-type': empty.type },
    });
    expect(nothing.json()).toMatchObject({ code: 50046 });
  });

  it('adds a user with a guilds.join token and reads a member with guilds.members.read', async () => {
    const fx = await seedGuild(server.app);
    const events = await recordDispatches(server.app);
    onTestFinished(events.stop);
    await server.app.services.guilds.addBot({
      guildId: fx.guildId,
      applicationId: dev.applicationId,
      permissions: P.CREATE_INSTANT_INVITE | P.MANAGE_NICKNAMES,
    });
    const joiner = await seedDeveloper(server.app, uniqueName('joiner'), 'joiner app');
    const path = `/guilds/${fx.guildId}/members/${joiner.userId}`;
    const wrongScope = await bearer(joiner.userId, dev.applicationId, ['identify']);
    const noJoin = await call('PUT', path, { auth: bot, body: { access_token: wrongScope } });
    expect(noJoin.json()).toMatchObject({ code: 50026 });
    const foreign = await bearer(joiner.userId, other.applicationId, ['guilds.join']);
    const notOurs = await call('PUT', path, { auth: bot, body: { access_token: foreign } });
    expect(notOurs.json()).toMatchObject({ code: 50035, errors: { access_token: {} } });
    const token = await bearer(joiner.userId, dev.applicationId, [
      'guilds.join',
      'guilds.members.read',
    ]);
    const withRoles = await call('PUT', path, {
      auth: bot,
      body: { access_token: token, roles: [fx.guildId] },
    });
    expect(withRoles.json()).toMatchObject({ code: 50013 });
    await events.take();
    const added = await call('PUT', path, {
      auth: bot,
      body: { access_token: token, nick: 'New' },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ nick: 'New', user: { id: joiner.userId }, roles: [] });
    const joined = (await events.take()).filter((e) => e.type === 'GUILD_MEMBER_ADD');
    expect(joined.map((e) => e.guildId)).toContain(fx.guildId);
    const again = await call('PUT', path, { auth: bot, body: { access_token: token } });
    expect(again.statusCode).toBe(204);
    const limited = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'limited',
      permissions: P.VIEW_CHANNEL,
    });
    // Another application's bot cannot use this application's token.
    const refused = await call('PUT', path, { auth: limited.auth, body: { access_token: token } });
    expect(refused.json()).toMatchObject({ code: 50035, errors: { access_token: {} } });
    const userSession = await call('PUT', path, {
      auth: fx.ownerAuth,
      body: { access_token: token },
    });
    expect(userSession.statusCode).toBe(403);

    const mine = await call('GET', `/users/@me/guilds/${fx.guildId}/member`, {
      auth: `Bearer ${token}`,
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ nick: 'New', user: { id: joiner.userId } });
    const notIn = await call('GET', '/users/@me/guilds/1234/member', { auth: `Bearer ${token}` });
    expect(notIn.json()).toMatchObject({ code: 10004 });
    const readScope = `Bearer ${await bearer(joiner.userId, dev.applicationId, ['identify'])}`;
    const noRead = await call('GET', `/users/@me/guilds/${fx.guildId}/member`, { auth: readScope });
    expect(noRead.json()).toMatchObject({ code: 50026 });
  });
});
