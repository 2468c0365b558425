import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { uniqueName, useFileServer } from '../../test/support/fileServer.js';
import { seedDeveloper, startTestServer, type TestServer } from '../../test/support/testServer.js';
import { parseCorsOrigins } from '../domain/corsOrigins.js';
import { apiRequest } from '../../test/support/inject.js';

const GAME = 'https://game.example.test';

describe('CORS for the API', () => {
  // The default setting's server; the tests of other settings start their own.
  const byDefault = useFileServer({ storage: 'sqlite' });
  const developer = (s: TestServer) => seedDeveloper(s.app, uniqueName('dev'), 'dev app');

  const preflight = (s: TestServer, url: string, origin = GAME) =>
    s.app.http.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  it('by default any origin may call the API with a token, without credentials', async () => {
    const s = byDefault.server;
    const dev = await developer(s);
    const pre = await preflight(s, '/api/v10/users/@me/channels');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': expect.stringContaining('PATCH') as unknown,
      'access-control-allow-headers': expect.stringMatching(/Authorization/i) as unknown,
    });
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    // The preflight needs no token and counts against no bucket: the answer comes before both.
    expect(pre.body).toBe('');

    const me = await s.app.http.inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { origin: GAME, authorization: `Bot ${dev.botToken}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.headers['access-control-allow-origin']).toBe('*');
    expect(me.headers['access-control-expose-headers']).toMatch(/Retry-After/);
    expect(me.headers['access-control-allow-credentials']).toBeUndefined();

    // Errors are readable too (the SDK shows their message), on the unversioned /api as well.
    const refused = await s.app.http.inject({
      method: 'POST',
      url: '/api/oauth2/token',
      headers: { origin: GAME, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token&refresh_token=nope',
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    const noToken = await s.app.http.inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { origin: GAME },
    });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.headers['access-control-allow-origin']).toBe('*');
  });

  it('never on the cookie-based OAuth2 pages, nor outside /api', async () => {
    const s = byDefault.server;
    const dev = await developer(s);
    for (const url of ['/api/v10/oauth2/authorize', '/api/oauth2/authorize', '/oauth2/authorize']) {
      const pre = await preflight(s, url);
      expect(pre.headers['access-control-allow-origin'], url).toBeUndefined();
      const page = await s.app.http.inject({
        method: 'GET',
        url: `${url}?client_id=${dev.applicationId}&scope=identify`,
        headers: { origin: GAME, cookie: `guildhall_session=${dev.userToken}` },
      });
      expect(page.headers['access-control-allow-origin'], url).toBeUndefined();
    }
    const decision = await s.app.http.inject({
      method: 'POST',
      url: '/api/v10/oauth2/authorize',
      headers: { origin: GAME, authorization: dev.userToken },
      payload: { client_id: dev.applicationId, scope: 'identify', authorize: true },
    });
    expect(decision.headers['access-control-allow-origin']).toBeUndefined();
    const login = await s.app.http.inject({
      method: 'GET',
      url: '/activate',
      headers: { origin: GAME },
    });
    expect(login.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('with a list, only those origins, and Vary: Origin', async () => {
    await using s = await startTestServer({
      storage: 'sqlite',
      config: { corsOrigins: [GAME, 'http://127.0.0.1:5173'] },
    });
    const dev = await developer(s);
    const ok = await preflight(s, '/api/v10/users/@me', 'http://127.0.0.1:5173');
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('http://127.0.0.1:5173');
    expect(ok.headers.vary).toMatch(/Origin/);
    const other = await preflight(s, '/api/v10/users/@me', 'https://evil.example.test');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const me = (origin: string) =>
      apiRequest(s.app, 'GET /users/@me', { auth: `Bot ${dev.botToken}`, headers: { origin } });
    expect((await me(GAME)).headers['access-control-allow-origin']).toBe(GAME);
    const evil = await me('https://evil.example.test');
    expect(evil.statusCode).toBe(200);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    expect(evil.headers.vary).toMatch(/Origin/);
  });

  it('off: no CORS header anywhere', async () => {
    await using s = await startTestServer({ storage: 'sqlite', config: { corsOrigins: null } });
    const pre = await preflight(s, '/api/v10/users/@me');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.statusCode).not.toBe(204);
  });

  it('the setting: *, off, or origins', () => {
    expect(loadConfig({}).corsOrigins).toBe('*');
    expect(loadConfig({ GUILDHALL_CORS_ORIGINS: 'off' }).corsOrigins).toBeNull();
    expect(
      loadConfig({}, ['--cors-origins', `${GAME}, http://127.0.0.1:5173`]).corsOrigins,
    ).toEqual([GAME, 'http://127.0.0.1:5173']);
    for (const bad of ['game.example.test', `${GAME}/`, `${GAME}/path`, 'ftp://x.test', '*,x']) {
      expect(parseCorsOrigins(bad), bad).toBeUndefined();
    }
    expect(() => loadConfig({ GUILDHALL_CORS_ORIGINS: 'nope' })).toThrow(/GUILDHALL_CORS_ORIGINS/);
  });
});
