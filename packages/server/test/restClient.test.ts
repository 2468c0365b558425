import { DiscordAPIError, REST, RESTEvents } from '@discordjs/rest';
import { Routes, type APIUser, type RESTGetAPIGatewayBotResult } from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uniqueName, useFileServer } from './support/fileServer.js';
import { seedDeveloper, type TestServer } from './support/testServer.js';

/** @discordjs/rest, the REST client of discord.js, against a real socket with only its base URL changed. */
describe('@discordjs/rest as a client', () => {
  let server: TestServer;
  let rest: REST;
  let seed: Awaited<ReturnType<typeof seedDeveloper>>;

  const shared = useFileServer({
    listen: true,
    defaultRouteBucket: { limit: 2, windowMs: 1000 },
  });
  beforeEach(async () => {
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('djs'), 'djs app');
    rest = new REST({ api: `${server.baseUrl}/api`, version: '10', retries: 0 }).setToken(
      seed.botToken,
    );
  });
  afterEach(() => {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  });

  it('reads the current user and the gateway', async () => {
    const me = (await rest.get(Routes.user('@me'))) as APIUser;
    expect(me).toMatchObject({ id: seed.botUserId, bot: true });
    const gateway = (await rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
    expect(gateway.url).toBe(`${server.baseUrl.replace('http', 'ws')}/gateway`);
    expect(gateway.session_start_limit.max_concurrency).toBe(1);
  });

  it('surfaces platform errors as DiscordAPIError with code, status and field errors', async () => {
    const unknown = await rest.get(Routes.user('1')).catch((err: unknown) => err);
    expect(unknown).toBeInstanceOf(DiscordAPIError);
    expect(unknown).toMatchObject({ code: 10013, status: 404, message: 'Unknown User' });

    const invalid = await rest
      .patch(Routes.user('@me'), { body: { username: 7 } })
      .catch((err: unknown) => err);
    expect(invalid).toBeInstanceOf(DiscordAPIError);
    expect(invalid).toMatchObject({ code: 50035, status: 400 });
    expect((invalid as DiscordAPIError).message).toContain('username[STRING_TYPE_CONVERT]');
  });

  it('reads the bucket headers and waits out the limit instead of failing', async () => {
    const limited: number[] = [];
    rest.on(RESTEvents.RateLimited, (info) => limited.push(info.limit));
    const results = await Promise.all([0, 1, 2, 3].map(() => rest.get(Routes.user('@me'))));
    expect(results).toHaveLength(4);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]).toBe(2);
  });
});
