import { beforeEach, expect, it } from 'vitest';
import { uniqueName, useFileServer } from '../../test/support/fileServer.js';
import { describeDrivers } from '../../test/support/drivers.js';
import { seedDeveloper, type TestServer } from '../../test/support/testServer.js';
import { apiRequest } from '../../test/support/inject.js';

type Seed = Awaited<ReturnType<typeof seedDeveloper>>;

describeDrivers('local authorize (activities and RPC) on $driver', (driver) => {
  let server: TestServer;
  let seed: Seed;

  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('ada'), 'ada app');
  });

  const local = (
    method: 'GET' | 'POST',
    payload: Record<string, string>,
    token = seed.userToken,
  ) =>
    method === 'GET'
      ? apiRequest(
          server.app,
          `GET /oauth2/authorize/local?${new URLSearchParams(payload).toString()}`,
          { auth: token },
        )
      : apiRequest(server.app, 'POST /oauth2/authorize/local', { auth: token, payload });
  const exchange = (code: string) =>
    server.app.http.inject({
      method: 'POST',
      url: '/api/v10/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: seed.applicationId,
        client_secret: seed.clientSecret,
      }).toString(),
    });

  it('shows the consent facts, issues a code the app exchanges without a redirect_uri', async () => {
    const asked = { client_id: seed.applicationId, scope: 'identify rpc', response_type: 'code' };
    const facts = await local('GET', asked);
    expect(facts.statusCode).toBe(200);
    expect(facts.json()).toMatchObject({
      application: { id: seed.applicationId },
      scopes: ['identify', 'rpc'],
      authorized: false,
    });

    const decided = await local('POST', { ...asked, authorize: 'true', state: 's1' });
    expect(decided.statusCode).toBe(200);
    const { code, state } = decided.json<{ code: string; state: string }>();
    expect(state).toBe('s1');
    const token = await exchange(code);
    expect(token.statusCode).toBe(200);
    const access = token.json<{ access_token: string; scope: string }>();
    expect(access.scope.split(' ').sort()).toEqual(['identify', 'rpc']);

    const me = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/oauth2/@me',
      headers: { authorization: `Bearer ${access.access_token}` },
    });
    expect(me.json()).toMatchObject({ user: { id: seed.userId }, scopes: ['identify', 'rpc'] });
    // Now authorized: the dialog can be skipped, and prompt=none answers without one.
    expect((await local('GET', asked)).json()).toMatchObject({ authorized: true });
    const silent = await local('POST', { ...asked, prompt: 'none' });
    expect(silent.statusCode).toBe(200);
    // A code is good once (and its reuse revokes what it granted, RFC 6749 §4.1.2).
    expect((await exchange(code)).statusCode).toBe(400);
  });

  it('refuses a denial, prompt=none without consent, redirects, bots and strangers', async () => {
    const asked = { client_id: seed.applicationId, scope: 'identify', response_type: 'code' };
    const denied = await local('POST', { ...asked, authorize: 'false' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ error: 'access_denied' });

    const silent = await local('POST', { ...asked, prompt: 'none' });
    expect(silent.json()).toMatchObject({ error: 'access_denied' });

    const redirect = await local('POST', {
      ...asked,
      redirect_uri: 'http://127.0.0.1/cb',
      authorize: 'true',
    });
    expect(redirect.json()).toMatchObject({ error: 'invalid_request' });
    // A bot is added only through the authorize page (oauth/scopeGrants.ts).
    const bot = await local('POST', { ...asked, scope: 'bot', authorize: 'true' });
    expect(bot.statusCode).toBe(400);
    expect(bot.json()).toMatchObject({ error: 'invalid_scope' });
    const unknown = await local('POST', { ...asked, client_id: '1', authorize: 'true' });
    expect(unknown.json()).toMatchObject({ error: 'invalid_request' });
    const badScope = await local('POST', { ...asked, scope: 'identify nope', authorize: 'true' });
    expect(badScope.json()).toMatchObject({ error: 'invalid_scope' });

    const anonymous = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/oauth2/authorize/local',
      payload: { ...asked, authorize: 'true' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 0 });
  });
});
