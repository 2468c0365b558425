import { beforeEach, describe, expect, it } from 'vitest';
import { uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import { createSessionStartLimit } from './sessionStartLimit.js';
import { MemoryRateLimitStore } from '../../sharedState/memory/index.js';
import { manualClock } from '../../domain/clock.js';

describe('GET /gateway and /gateway/bot', () => {
  let server: TestServer;
  let seed: Awaited<ReturnType<typeof seedDeveloper>>;
  const shared = useFileServer({ listen: true });
  beforeEach(async () => {
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
  });

  it('gives the WebSocket URL of this server to anyone', async () => {
    const res = await server.app.http.inject({ method: 'GET', url: '/api/v10/gateway' });
    expectOpenApiResponse(res, 'GET', '/gateway');
    expect(res.json()).toEqual({ url: `${server.baseUrl.replace('http', 'ws')}/gateway` });
  });

  it('gives a bot its shard count and session start budget', async () => {
    const { guild } = await server.app.services.guilds.create({
      ownerId: seed.userId,
      name: 'G',
      channels: [],
    });
    await server.app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: seed.applicationId,
      permissions: 0n,
    });
    const res = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/gateway/bot',
      headers: { authorization: `Bot ${seed.botToken}` },
    });
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'GET', '/gateway/bot');
    expect(res.json()).toEqual({
      url: `${server.baseUrl.replace('http', 'ws')}/gateway`,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
    });
    const asUser = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/gateway/bot',
      headers: { authorization: seed.userToken },
    });
    expect(asUser.statusCode).toBe(403);
  });
});

describe('session start limit', () => {
  it('counts starts down over a day and resets', async () => {
    const clock = manualClock(0);
    const limit = createSessionStartLimit({
      store: new MemoryRateLimitStore(),
      clock,
      totalPerDay: 2,
      maxConcurrency: 1,
    });
    expect(await limit.spend('bot')).toBe(true);
    clock.advance(1000);
    expect(await limit.read('bot')).toEqual({
      total: 2,
      remaining: 1,
      reset_after: 86_399_000,
      max_concurrency: 1,
    });
    expect(await limit.spend('bot')).toBe(true);
    expect(await limit.spend('bot')).toBe(false);
    expect(await limit.read('other')).toMatchObject({ remaining: 2, reset_after: 0 });
    clock.advance(86_400_000);
    expect(await limit.spend('bot')).toBe(true);
  });
});
