import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { advanceToNextTest, uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
} from '../../../test/support/testServer.js';
import { apiRequest } from '../../../test/support/inject.js';

const NOW = Date.UTC(2026, 10, 22, 12);

describe('rate limits', () => {
  // The server of the route bucket and refusal tests: two requests per route per 5 s, an address
  // refused after three 401/403/429 answers. Each test seeds bots of its own and moves the clock
  // an hour on, past every window of the tests before it (their answers to this address too).
  const clock = manualClock(NOW);
  const shared = useFileServer({
    clock,
    defaultRouteBucket: { limit: 2, windowMs: 5000 },
    invalidRequestLimit: { limit: 3, windowMs: 600_000 },
  });
  let server: TestServer;
  beforeEach(() => {
    advanceToNextTest(clock, NOW);
    server = shared.server;
  });
  const developer = (name: string) => seedDeveloper(server.app, uniqueName(name), `${name} app`);

  it('sends the bucket headers, then a 429 with the platform body when a route bucket is spent', async () => {
    const { botToken } = await developer('dev');
    const me = () => apiRequest(server.app, 'GET /users/@me', { auth: `Bot ${botToken}` });

    const first = await me();
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset-after': '5.000',
      'x-ratelimit-reset': ((clock.now() + 5000) / 1000).toFixed(3),
    });
    expect(first.headers['x-ratelimit-bucket']).toMatch(/^[0-9a-f]{32}$/);
    clock.advance(1000);
    expect((await me()).headers['x-ratelimit-remaining']).toBe('0');
    const limited = await me();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers).toMatchObject({ 'x-ratelimit-scope': 'user', 'retry-after': '4' });
    expect(limited.headers['x-ratelimit-global']).toBeUndefined();
    expect(limited.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: 4,
      global: false,
      code: 0,
    });
    expectOpenApiResponse(limited, 'GET', '/users/@me');

    clock.advance(4000);
    expect((await me()).statusCode).toBe(200);
  });

  it('keys buckets by caller, and the same route shares one bucket id', async () => {
    const a = await developer('aaa');
    const b = await developer('bbb');
    const get = (url: string, token: string) =>
      apiRequest(server.app, `GET ${url}`, { auth: `Bot ${token}` });
    const ra = await get(`/users/${a.userId}`, a.botToken);
    const rb = await get(`/users/${b.userId}`, b.botToken);
    expect(ra.statusCode).toBe(200);
    expect(rb.statusCode).toBe(200);
    expect(ra.headers['x-ratelimit-bucket']).toBe(rb.headers['x-ratelimit-bucket']);
    // Two a window: b's request took none of a's, and a's second user id is in its first's bucket.
    expect((await get(`/users/${b.userId}`, a.botToken)).statusCode).toBe(200);
    expect((await get(`/users/${b.userId}`, a.botToken)).statusCode).toBe(429);
  });

  // A server of its own: three requests a second in all would hold up the other tests' callers.
  it('enforces the global limit per bot across routes', async () => {
    await using server = await startTestServer({ config: { globalRateLimitPerSecond: 3 } });
    const { botToken, userId } = await seedDeveloper(server.app);
    const statuses: number[] = [];
    for (const url of ['/users/@me', `/users/${userId}`, '/gateway/bot', '/applications/@me']) {
      const res = await server.app.http.inject({
        method: 'GET',
        url: `/api/v10${url}`,
        headers: { authorization: `Bot ${botToken}` },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.headers).toMatchObject({
          'x-ratelimit-global': 'true',
          'x-ratelimit-scope': 'global',
        });
        expect(res.json()).toMatchObject({ global: true });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('refuses an address that collected too many 401, 403 and 429 answers', async () => {
    const { botToken } = await developer('dev');
    const me = (authorization: string) =>
      apiRequest(server.app, 'GET /users/@me', { auth: authorization });
    for (let i = 0; i < 3; i++) expect((await me('Bot wrong')).statusCode).toBe(401);
    const blocked = await me(`Bot ${botToken}`);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ global: true });
  });

  it('collapses unknown ids into one bucket per caller and route, so a fresh id each time is still limited', async () => {
    const a = await developer('aaa');
    const b = await developer('bbb');
    const { guild, channels } = await server.app.services.guilds.create({
      ownerId: a.userId,
      name: 'Guild',
      channels: [
        { name: 'one', type: 'text' },
        { name: 'two', type: 'text' },
      ],
    });
    await server.app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: a.applicationId,
      permissions: P.ADMINISTRATOR,
    });
    const messages = (channelId: string, token: string) =>
      apiRequest(server.app, `GET /channels/${channelId}/messages`, { auth: `Bot ${token}` });
    let next = 0;
    const freshId = () => String(900_000_000_000_000_000n + BigInt(++next) * 7919n);

    // Allowed side: known channels keep their own buckets, more requests in all than one bucket.
    for (const channel of channels) {
      for (let i = 0; i < 2; i++) {
        expect((await messages(channel.id, a.botToken)).statusCode).toBe(200);
      }
    }
    clock.advance(5000);

    // Denied side: N fresh unknown ids are answered, the N+1th is refused.
    for (let i = 0; i < 2; i++) {
      const res = await messages(freshId(), a.botToken);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 10003 });
    }
    const limited = await messages(freshId(), a.botToken);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ global: false, code: 0 });
    expect(limited.headers).toMatchObject({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-scope': 'user',
      'retry-after': '5',
    });
    expect(limited.headers['x-ratelimit-bucket']).toMatch(/^[0-9a-f]{32}$/);
    // Another caller, and another route, are not held up by it.
    expect((await messages(freshId(), b.botToken)).statusCode).toBe(404);
    const me = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: `Bot ${a.botToken}` },
    });
    expect(me.statusCode).toBe(200);
    // The window passes and the route answers again.
    clock.advance(5000);
    expect((await messages(channels[0]?.id ?? '', a.botToken)).statusCode).toBe(200);
  });

  // A server of its own: no limits at all.
  it('lifts every limit when turned off', async () => {
    await using server = await startTestServer({
      config: { rateLimits: false, globalRateLimitPerSecond: 1 },
    });
    const { botToken } = await seedDeveloper(server.app);
    for (let i = 0; i < 10; i++) {
      const res = await server.app.http.inject({
        method: 'GET',
        url: '/api/v10/users/@me',
        headers: { authorization: `Bot ${botToken}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});
