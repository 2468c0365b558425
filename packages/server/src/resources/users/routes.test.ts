import sharp from 'sharp';
import { beforeEach, expect, it } from 'vitest';
import { hashSecret } from '../../domain/credentials.js';
import { uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import { apiRequest } from '../../../test/support/inject.js';

const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describeDrivers('users on $driver', (driver) => {
  let server: TestServer;
  let seed: Awaited<ReturnType<typeof seedDeveloper>>;

  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('ada'), 'ada app');
  });

  const get = (url: string, authorization: string) =>
    apiRequest(server.app, `GET ${url}`, { auth: authorization });

  const bearer = async (scopes: string[]) => {
    const token = `bearer-${scopes.join('-')}-${Math.random()}`;
    await server.app.storage.tokens.create({
      hash: hashSecret(token),
      kind: 'bearer',
      userId: seed.userId,
      applicationId: seed.applicationId,
      scopes,
      createdAt: Date.now(),
      expiresAt: Date.now() + 60_000,
    });
    return `Bearer ${token}`;
  };

  it('GET /users/@me answers the bot with its own user', async () => {
    const res = await get('/users/@me', `Bot ${seed.botToken}`);
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'GET', '/users/@me');
    expect(res.json()).toMatchObject({
      id: seed.botUserId,
      username: 'ada app',
      bot: true,
      email: null,
      premium_type: 0,
    });
    expect(res.json<{ discriminator: string }>().discriminator).toMatch(/^\d{4}$/);
  });

  it('a session sees its email; an OAuth2 token only with the email scope', async () => {
    const session = await get('/users/@me', seed.userToken);
    expectOpenApiResponse(session, 'GET', '/users/@me');
    expect(session.json()).toMatchObject({
      id: seed.userId,
      username: seed.username,
      email: `${seed.username}@example.test`,
    });
    expect(session.json()).not.toHaveProperty('bot');

    const identify = await get('/users/@me', await bearer(['identify']));
    expect(identify.statusCode).toBe(200);
    expect(identify.json()).toMatchObject({ id: seed.userId, email: null });
    const withEmail = await get('/users/@me', await bearer(['identify', 'email']));
    expect(withEmail.json()).toMatchObject({ email: `${seed.username}@example.test` });
    const noIdentify = await get('/users/@me', await bearer(['guilds']));
    expect(noIdentify.statusCode).toBe(401);
  });

  it('premium_type reads 0 unless the grant holds identify.premium', async () => {
    await server.app.storage.users.update(seed.userId, { premiumType: 2 });
    expect((await get('/users/@me', await bearer(['identify']))).json()).toMatchObject({
      premium_type: 0,
    });
    expect(
      (await get('/users/@me', await bearer(['identify', 'identify.premium']))).json(),
    ).toMatchObject({
      premium_type: 2,
    });
  });

  it('an expired OAuth2 token is refused', async () => {
    const token = uniqueName('expired-token');
    await server.app.storage.tokens.create({
      hash: hashSecret(token),
      kind: 'bearer',
      userId: seed.userId,
      applicationId: seed.applicationId,
      scopes: ['identify'],
      createdAt: 0,
      expiresAt: Date.now() - 1,
    });
    expect((await get('/users/@me', `Bearer ${token}`)).statusCode).toBe(401);
  });

  it('GET /users/{id} shows the public user, and 10013 for an unknown or malformed id', async () => {
    const res = await get(`/users/${seed.userId}`, `Bot ${seed.botToken}`);
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'GET', `/users/${seed.userId}`);
    expect(res.json()).not.toHaveProperty('email');
    expect(res.json()).not.toHaveProperty('locale');
    for (const id of [
      '1',
      'not-a-number',
      '9223372036854775808',
      '18446744073709551615',
      '99999999999999999999999',
    ]) {
      const missing = await get(`/users/${id}`, `Bot ${seed.botToken}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ code: 10013, message: 'Unknown User' });
      expectOpenApiResponse(missing, 'GET', `/users/${id}`);
    }
  });

  it('PATCH /users/@me renames, stores an avatar served back by URL, and clears it', async () => {
    const patch = (payload: object, authorization = `Bot ${seed.botToken}`) =>
      apiRequest(server.app, 'PATCH /users/@me', { auth: authorization, payload });

    const renamed = await patch({ username: 'Ada Bot', avatar: PNG_1X1 });
    expect(renamed.statusCode).toBe(200);
    expectOpenApiResponse(renamed, 'PATCH', '/users/@me');
    const body = renamed.json<{ username: string; avatar: string }>();
    expect(body.username).toBe('Ada Bot');
    expect(body.avatar).toMatch(/^[0-9a-f]{32}$/);
    // The cached principal was forgotten: the next read sees the new name.
    expect((await get('/users/@me', `Bot ${seed.botToken}`)).json()).toMatchObject({
      username: 'Ada Bot',
    });

    const image = await server.app.http.inject({
      method: 'GET',
      url: `/avatars/${seed.botUserId}/${body.avatar}.png`,
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    // Re-encoded on upload (metadata stripped): the same image, not the same bytes.
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 1,
      height: 1,
    });

    const cleared = await patch({ avatar: null });
    expect(cleared.json()).toMatchObject({ avatar: null });
  });

  it('PATCH /users/@me refuses bad images and names, and a taken username', async () => {
    const patch = (payload: object, authorization: string) =>
      apiRequest(server.app, 'PATCH /users/@me', { auth: authorization, payload });

    const notImage = await patch(
      {
        avatar: `data:image/png;base64,${Buffer.from('<script>alert(1)</script>').toString('base64')}`,
      },
      `Bot ${seed.botToken}`,
    );
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json()).toMatchObject({
      code: 50035,
      errors: { avatar: { _errors: [{ code: 'IMAGE_INVALID' }] } },
    });

    const badHuman = await patch({ username: 'Has Spaces' }, seed.userToken);
    expect(badHuman.statusCode).toBe(400);
    expect(badHuman.json()).toMatchObject({
      code: 50035,
      errors: { username: { _errors: [{ code: 'STRING_TYPE_REGEX' }] } },
    });
    expectOpenApiResponse(badHuman, 'PATCH', '/users/@me');

    const grace = await seedDeveloper(server.app, uniqueName('grace'), 'grace app');
    const taken = await patch({ username: grace.username }, seed.userToken);
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({
      errors: { username: { _errors: [{ code: 'USERNAME_ALREADY_TAKEN' }] } },
    });
    expect((await get('/users/@me', seed.userToken)).json()).toMatchObject({
      username: seed.username,
    });
  });
});
