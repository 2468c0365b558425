import { beforeEach, expect, it, onTestFinished } from 'vitest';
import { uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { startInteractionEndpoint } from '../../../test/support/interactionEndpoint.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import { apiRequest } from '../../../test/support/inject.js';

describeDrivers('applications on $driver', (driver) => {
  let server: TestServer;
  let seed: Awaited<ReturnType<typeof seedDeveloper>>;

  const shared = useFileServer({ storage: driver, config: { allowLocalWebhooks: true } });
  beforeEach(async () => {
    // Endpoint URLs on 127.0.0.1 (the interactions endpoint check below).
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('lin'), 'lin app');
  });

  type Method = 'GET' | 'PATCH' | 'POST';
  const call = (method: Method, url: string, authorization: string) =>
    apiRequest(server.app, `${method} ${url}`, { auth: authorization });
  const send = (method: Method, url: string, request: { authorization: string; payload: object }) =>
    apiRequest(server.app, `${method} ${url}`, {
      auth: request.authorization,
      payload: request.payload,
    });

  it('GET /applications/@me describes the bot application', async () => {
    const res = await call('GET', '/applications/@me', `Bot ${seed.botToken}`);
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'GET', '/applications/@me');
    const app = res.json<Record<string, unknown>>();
    expect(app).toMatchObject({
      id: seed.applicationId,
      name: 'lin app',
      flags: 0,
      flags_new: '0',
      owner: { id: seed.userId, username: seed.username },
      bot: { id: seed.botUserId, bot: true },
      approximate_guild_count: 0,
    });
    expect(app['verify_key']).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(app)).not.toContain(seed.clientSecret);
  });

  it('splits flags beyond bit 30 into flags_new', async () => {
    await server.app.storage.applications.update(seed.applicationId, {
      flags: (1n << 40n) | (1n << 19n),
    });
    const res = await call('GET', '/applications/@me', `Bot ${seed.botToken}`);
    expect(res.json()).toMatchObject({
      flags: 1 << 19,
      flags_new: String((1n << 40n) | (1n << 19n)),
    });
  });

  it('PATCH /applications/@me changes what an app may change, and nothing else', async () => {
    // An interactions endpoint that passes the PING checks (resources/interactions).
    const verifyKey = (await call('GET', '/applications/@me', `Bot ${seed.botToken}`)).json<{
      verify_key: string;
    }>().verify_key;
    const endpoint = await startInteractionEndpoint(verifyKey, () => ({ status: 500 }));
    onTestFinished(() => endpoint.close());
    const res = await send('PATCH', '/applications/@me', {
      authorization: `Bot ${seed.botToken}`,
      payload: {
        description: 'A helpful bot',
        flags: 1 << 19,
        tags: ['fun', 'fun', 'games'],
        interactions_endpoint_url: endpoint.url,
      },
    });
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'PATCH', '/applications/@me');
    expect(res.json()).toMatchObject({
      description: 'A helpful bot',
      flags: 1 << 19,
      tags: ['fun', 'games'],
      interactions_endpoint_url: endpoint.url,
    });

    const privileged = await send('PATCH', '/applications/@me', {
      authorization: `Bot ${seed.botToken}`,
      payload: {
        flags: 1 << 18,
      },
    });
    expect(privileged.statusCode).toBe(400);
    expect(privileged.json()).toMatchObject({
      code: 50035,
      errors: { flags: { _errors: [expect.anything()] } },
    });

    const badUrl = await send('PATCH', '/applications/@me', {
      authorization: `Bot ${seed.botToken}`,
      payload: {
        interactions_endpoint_url: 'javascript:alert(1)',
      },
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toMatchObject({
      errors: { interactions_endpoint_url: { _errors: [{ code: 'URL_TYPE_INVALID_URL' }] } },
    });
  });

  it('only bots use /applications/@me; only their owner manages an application', async () => {
    const asUser = await call('GET', '/applications/@me', seed.userToken);
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toMatchObject({ code: 20002 });

    const other = await seedDeveloper(server.app, uniqueName('mallory'), 'mallory app');
    const foreign = await call('GET', `/applications/${seed.applicationId}`, other.userToken);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 10002 });
    const mine = await call('GET', `/applications/${seed.applicationId}`, seed.userToken);
    expect(mine.statusCode).toBe(200);
    const asBot = await call(
      'POST',
      `/applications/${seed.applicationId}/reset`,
      `Bot ${seed.botToken}`,
    );
    expect(asBot.statusCode).toBe(403);
    expect(asBot.json()).toMatchObject({ code: 20001 });
  });

  it('a developer creates an app and sees its secrets once', async () => {
    const res = await send('POST', '/applications', {
      authorization: seed.userToken,
      payload: { name: 'Second' },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<{ id: string; bot_token: string; client_secret: string }>();
    const bot = await call('GET', '/applications/@me', `Bot ${created.bot_token}`);
    expect(bot.json()).toMatchObject({ id: created.id, name: 'Second' });
    for (const name of ['@everyone', 'x', 'bad\u0000name', 'a#b']) {
      const refused = await send('POST', '/applications', {
        authorization: seed.userToken,
        payload: { name },
      });
      expect(refused.statusCode, name).toBe(400);
      expect(refused.json<{ code: number; errors: object }>()).toMatchObject({ code: 50035 });
      expect(Object.keys(refused.json<{ errors: object }>().errors)).toEqual(['name']);
    }
    const list = await call('GET', '/applications', seed.userToken);
    expect(list.json<{ id: string }[]>().map((a) => a.id)).toEqual([
      seed.applicationId,
      created.id,
    ]);
    const listed = JSON.stringify(list.json());
    expect(listed).not.toContain(created.client_secret);
    expect(listed).not.toContain(created.bot_token);
  });

  it('resetting the bot token revokes the old one at once', async () => {
    expect((await call('GET', '/users/@me', `Bot ${seed.botToken}`)).statusCode).toBe(200);
    const reset = await call(
      'POST',
      `/applications/${seed.applicationId}/bot/reset`,
      seed.userToken,
    );
    expect(reset.statusCode).toBe(200);
    const { token } = reset.json<{ token: string }>();
    expect(token).not.toBe(seed.botToken);
    expect((await call('GET', '/users/@me', `Bot ${seed.botToken}`)).statusCode).toBe(401);
    expect((await call('GET', '/users/@me', `Bot ${token}`)).statusCode).toBe(200);
  });

  it('resetting the client secret stores only its hash', async () => {
    const reset = await call('POST', `/applications/${seed.applicationId}/reset`, seed.userToken);
    const { secret } = reset.json<{ secret: string }>();
    expect(secret).toHaveLength(43);
    const stored = await server.app.storage.applications.findById(seed.applicationId);
    expect(stored?.clientSecretHash).not.toContain(secret);
    expect(stored?.clientSecretHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
