import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIRECT } from '../../test/support/oauthFixture.js';
import { seedDeveloper, startTestServer, type TestServer } from '../../test/support/testServer.js';

type Seed = Awaited<ReturnType<typeof seedDeveloper>>;

const QUERY = (clientId: string) =>
  new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    scope: 'identify',
    redirect_uri: REDIRECT,
    state: 'st',
  }).toString();

const CSRF_FIELD = /name="csrf_token" value="([^"]+)"/;

/**
 * The consent pages' cookies cannot be planted from another host (cookie tossing): `__Host-`
 * names over https, and a request carrying one twice is refused.
 */
describe('the consent page cookies', () => {
  /** Served over plain http, behind a trusted proxy on loopback. */
  let http: TestServer;
  /** Its public URL is https. */
  let https: TestServer;
  let ada: Seed;
  let eve: Seed;
  let secureAda: Seed;

  beforeAll(async () => {
    http = await startTestServer({ config: { trustProxy: ['127.0.0.1'] } });
    https = await startTestServer({ config: { publicUrl: 'https://chat.example.test' } });
    ada = await seedDeveloper(http.app, 'ada');
    eve = await seedDeveloper(http.app, 'eve');
    secureAda = await seedDeveloper(https.app, 'ada');
    await http.app.storage.applications.update(ada.applicationId, { redirectUris: [REDIRECT] });
    await https.app.storage.applications.update(secureAda.applicationId, {
      redirectUris: [REDIRECT],
    });
  });
  afterAll(async () => {
    await http.close();
    await https.close();
  });

  const setCookie = (res: { headers: Record<string, unknown> }) =>
    String(res.headers['set-cookie']);
  const attributes = (header: string) =>
    header
      .split(';')
      .slice(1)
      .map((part) => part.trim());

  it('over https: __Host- cookies, Secure, Path=/, no Domain; a plain name is not read', async () => {
    const inject = (options: InjectOptions) => https.app.http.inject(options);
    const url = `/oauth2/authorize?${QUERY(secureAda.applicationId)}`;
    const login = await inject({ method: 'GET', url });
    expect(login.body).toContain('action="/oauth2/login"');
    const csrfHeader = setCookie(login);
    expect(csrfHeader).toMatch(/^__Host-guildhall_csrf=[\w-]{32,};/);
    expect(attributes(csrfHeader)).toEqual(['Path=/', 'HttpOnly', 'SameSite=Strict', 'Secure']);

    const signedIn = await inject({
      method: 'POST',
      url: '/oauth2/login',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: csrfHeader.split(';')[0] ?? '',
      },
      payload: new URLSearchParams({
        login: 'ada',
        password: 'correct horse battery',
        csrf_token: CSRF_FIELD.exec(login.body)?.[1] ?? '',
        next: url,
      }).toString(),
    });
    expect(signedIn.statusCode).toBe(303);
    const sessionHeader = setCookie(signedIn);
    expect(sessionHeader).toMatch(/^__Host-guildhall_session=[^;]+;/);
    expect(attributes(sessionHeader)).toEqual([
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      'Max-Age=604800',
      'Secure',
    ]);
    const consent = await inject({
      method: 'GET',
      url,
      headers: { cookie: sessionHeader.split(';')[0] ?? '' },
    });
    expect(consent.statusCode).toBe(200);
    expect(consent.body).toContain('ada app');

    // What a sibling host can set (no prefix) signs nobody in, and is no CSRF cookie.
    const planted = await inject({
      method: 'GET',
      url,
      headers: { cookie: `guildhall_session=${secureAda.userToken}` },
    });
    expect(planted.body).toContain('action="/oauth2/login"');
    expect(planted.body).not.toContain('ada app');
    const plantedCsrf = await inject({
      method: 'POST',
      url: '/oauth2/login',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `guildhall_csrf=${'a'.repeat(32)}`,
      },
      payload: new URLSearchParams({
        login: 'ada',
        password: 'correct horse battery',
        csrf_token: 'a'.repeat(32),
      }).toString(),
    });
    expect(plantedCsrf.statusCode).toBe(403);
    expect(plantedCsrf.headers['set-cookie']).toBeUndefined();
  });

  it('an https request through a trusted proxy gets __Host- cookies; plain http keeps its names', async () => {
    const url = `/oauth2/authorize?${QUERY(ada.applicationId)}`;
    const proxied = await http.app.http.inject({
      method: 'GET',
      url,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(setCookie(proxied)).toMatch(/^__Host-guildhall_csrf=[^;]+; Path=\/;.*; Secure$/);
    const plain = await http.app.http.inject({ method: 'GET', url });
    expect(setCookie(plain)).toMatch(/^guildhall_csrf=[^;]+; Path=\/oauth2\/login; /);
    expect(setCookie(plain)).not.toContain('Secure');
  });

  it('refuses a request carrying the session or CSRF cookie twice, and changes nothing', async () => {
    const inject = (options: InjectOptions) => http.app.http.inject(options);
    const query = QUERY(ada.applicationId);
    // Eve's session planted for the parent domain beside Ada's own: which one is whose?
    const tossed = `guildhall_session=${eve.userToken}; guildhall_session=${ada.userToken}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded', cookie: tossed };
    const refusals = [
      await inject({
        method: 'GET',
        url: `/oauth2/authorize?${query}`,
        headers: { cookie: tossed },
      }),
      await inject({
        method: 'GET',
        url: `/api/v10/oauth2/authorize?${query}`,
        headers: { cookie: tossed },
      }),
      await inject({
        method: 'POST',
        url: '/oauth2/authorize',
        headers: form,
        payload: `${query}&decision=authorize&csrf_token=x`,
      }),
      await inject({ method: 'GET', url: '/activate', headers: { cookie: tossed } }),
      await inject({
        method: 'POST',
        url: '/activate',
        headers: form,
        payload: 'user_code=BCDF-GHJK&decision=authorize&csrf_token=x',
      }),
      await inject({
        method: 'POST',
        url: '/oauth2/login',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `guildhall_csrf=${'a'.repeat(32)}; guildhall_csrf=${'b'.repeat(32)}`,
        },
        payload: `login=ada&password=correct+horse+battery&csrf_token=${'a'.repeat(32)}`,
      }),
    ];
    for (const res of refusals) {
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('cookie twice');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers.location).toBeUndefined();
    }
    for (const user of [ada, eve]) {
      expect(await http.app.storage.oauth.findAuthorization(user.userId, ada.applicationId)).toBe(
        null,
      );
    }

    // One session cookie (and other cookies beside it) is served as before.
    const page = await inject({
      method: 'GET',
      url: `/oauth2/authorize?${query}`,
      headers: { cookie: `theme=dark; guildhall_session=${ada.userToken}; guildhall_x=1` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ada app');

    // Over https the __Host- cookie sent twice is refused as well.
    const secure = await https.app.http.inject({
      method: 'GET',
      url: `/oauth2/authorize?${QUERY(secureAda.applicationId)}`,
      headers: {
        cookie: `__Host-guildhall_session=${secureAda.userToken}; __Host-guildhall_session=x`,
      },
    });
    expect(secure.statusCode).toBe(400);
  });
});
