import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uniqueName, useFileServer } from '../../test/support/fileServer.js';
import { seedDeveloper, startTestServer, type TestServer } from '../../test/support/testServer.js';
import { createLogger } from '../logger.js';

describe('HTTP plumbing', () => {
  let server: TestServer;
  let bot: string;

  /** What the server logs (errors), for the test of the 500 answer. */
  let logged = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  const shared = useFileServer({
    config: { maxBodyBytes: 2048 },
    logger: createLogger('error', sink),
  });
  // A route that fails as a bug would, for the test of the 500 answer: added before the server's
  // first request, after which Fastify takes no new routes.
  beforeAll(() => {
    shared.server.app.http.get('/api/v10/__explode', { config: { auth: 'none' } }, () => {
      throw new Error('secret internals at /srv/app.js:1');
    });
  });
  beforeEach(async () => {
    server = shared.server;
    bot = `Bot ${(await seedDeveloper(server.app, uniqueName('dev'), 'dev app')).botToken}`;
  });

  const inject = (options: InjectOptions) => server.app.http.inject(options);

  it('serves v10, v9 and the unversioned prefix alike, and refuses v3 to v5 with 400', async () => {
    for (const prefix of ['/api/v10', '/api/v9', '/api', '/api/v8']) {
      const res = await inject({ method: 'GET', url: `${prefix}/gateway` });
      expect(res.statusCode, prefix).toBe(200);
    }
    for (const version of [3, 4, 5, 11]) {
      const res = await inject({ method: 'GET', url: `/api/v${version}/gateway` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 0, message: 'Invalid API version' });
    }
  });

  it('accepts percent-encoded segments and a trailing slash', async () => {
    for (const url of ['/api/v10/users/%40me', '/api/v10/users/@me/', '/api/v10//users/@me']) {
      const res = await inject({ method: 'GET', url, headers: { authorization: bot } });
      expect(res.statusCode, url).toBe(200);
    }
  });

  it('answers an unknown route 404 and a known route with the wrong method 405', async () => {
    const missing = await inject({ method: 'GET', url: '/api/v10/nothing/here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 0, message: '404: Not Found' });
    const badEncoding = await inject({ method: 'GET', url: '/api/v10/users/%zz' });
    expect(badEncoding.statusCode).toBe(404);
    expect(badEncoding.json()).toEqual({ code: 0, message: '404: Not Found' });
    const longParam = await inject({
      method: 'GET',
      url: `/api/v10/users/${'1'.repeat(3 * 1024 + 1)}`,
    });
    expect(longParam.json()).toEqual({ code: 0, message: '404: Not Found' });
    const slashed = await inject({ method: 'DELETE', url: '/api/v10/gateway/' });
    expect(slashed.statusCode).toBe(405);
    const wrongMethod = await inject({ method: 'DELETE', url: '/api/v10/gateway' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.json()).toEqual({ code: 0, message: '405: Method Not Allowed' });
    expect(wrongMethod.headers.allow).toBe('GET');
  });

  it('answers HEAD as the GET of its path: its status, headers and length, and no body', async () => {
    const get = await inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: bot },
    });
    const head = await inject({
      method: 'HEAD',
      url: '/api/v10/users/@me',
      headers: { authorization: bot },
    });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(get.rawPayload.length));
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['x-ratelimit-limit']).toBe(get.headers['x-ratelimit-limit']);
    // Refused as the GET is: no token, an unknown path, a path without GET.
    expect((await inject({ method: 'HEAD', url: '/api/v10/users/@me' })).statusCode).toBe(401);
    expect((await inject({ method: 'HEAD', url: '/api/v10/nothing/here' })).statusCode).toBe(404);
    const postOnly = await inject({ method: 'HEAD', url: '/api/v10/auth/login' });
    expect(postOnly.statusCode).toBe(405);
    expect(postOnly.body).toBe('');
  });

  it('answers 401 for a missing, malformed, unknown or wrong-kind token', async () => {
    const headers = [
      undefined,
      'Bot ',
      'Basic abc',
      'Bot not-a-real-token',
      bot.replace('Bot ', 'Bearer '),
      bot.slice(4),
    ];
    for (const authorization of headers) {
      const res = await inject({
        method: 'GET',
        url: '/api/v10/users/@me',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toEqual({ code: 0, message: '401: Unauthorized' });
    }
  });

  it('answers malformed JSON with 50109 and an oversized body with 413', async () => {
    const malformed = await inject({
      method: 'PATCH',
      url: '/api/v10/users/@me',
      headers: { authorization: bot, 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 50109 });

    const oversized = await inject({
      method: 'PATCH',
      url: '/api/v10/users/@me',
      headers: { authorization: bot, 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(4096) }),
    });
    expect(oversized.statusCode).toBe(413);
    expect(oversized.json()).toMatchObject({ code: 40005 });
  });

  it('reads form-encoded bodies and refuses plain text with 50035', async () => {
    const form = await inject({
      method: 'PATCH',
      url: '/api/v10/users/@me',
      headers: { authorization: bot, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=Form%20Bot',
    });
    expect(form.statusCode).toBe(200);
    expect(form.json()).toMatchObject({ username: 'Form Bot' });
    const text = await inject({
      method: 'PATCH',
      url: '/api/v10/users/@me',
      headers: { authorization: bot, 'content-type': 'text/plain' },
      payload: 'username=x',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({
      code: 50035,
      errors: { _errors: [{ code: 'CONTENT_TYPE_INVALID' }] },
    });
  });

  it('refuses NUL characters in bodies and queries with 50035, whatever the route', async () => {
    const body = await inject({
      method: 'PATCH',
      url: '/api/v10/users/@me',
      headers: { authorization: bot },
      payload: { username: 'ok', nested: [{ deep: 'a\u0000b' }] },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toMatchObject({
      code: 50035,
      errors: { nested: { '0': { deep: { _errors: [{ code: 'STRING_TYPE_INVALID' }] } } } },
    });
    const query = await inject({
      method: 'GET',
      url: '/api/v10/gateway?x=%00',
      headers: { authorization: bot },
    });
    expect(query.statusCode).toBe(400);
    const me = await inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: bot },
    });
    expect(me.json<{ username: string }>().username).not.toBe('ok');
  });

  it('answers a body of the wrong type with 50035 and a nested error tree', async () => {
    const res = await inject({
      method: 'PATCH',
      url: '/api/v10/users/@me',
      headers: { authorization: bot },
      payload: { username: 42, avatar: ['x'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        username: {
          _errors: [
            { code: 'STRING_TYPE_CONVERT', message: 'Could not interpret "42" as string.' },
          ],
        },
        avatar: { _errors: [expect.objectContaining({ code: 'STRING_TYPE_CONVERT' })] },
      },
    });
  });

  it('turns a bug into a 500 with code 0 and a request id, logged with its cause, never a stack', async () => {
    const loggedBefore = logged.length;
    const res = await inject({ method: 'GET', url: '/api/v10/__explode' });
    expect(res.statusCode).toBe(500);
    const body = res.json<{ code: number; message: string }>();
    expect(body.code).toBe(0);
    const requestId = String(res.headers['x-request-id']);
    expect(body.message).toContain(requestId);
    expect(res.body).not.toContain('secret internals');
    const line = JSON.parse(logged.slice(loggedBefore).trim().split('\n').at(-1) ?? '{}') as {
      reqId?: string;
      err?: { message?: string; stack?: string };
    };
    expect(line.reqId).toBe(requestId);
    expect(line.err?.message).toBe('secret internals at /srv/app.js:1');
    expect(line.err?.stack).toContain('server.test.ts');
  });

  // A server of its own: Fastify takes routes only before its first request.
  it('refuses a route registered without an auth requirement', async () => {
    const app = (await startTestServer()).app;
    expect(() => app.http.get('/api/v10/__open', () => 'oops')).toThrow('has no config.auth');
    await app.close();
  });
});
