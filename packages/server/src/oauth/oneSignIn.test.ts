import { describe, expect, it } from 'vitest';
import { REDIRECT, useOAuthFixture } from '../../test/support/oauthFixture.js';

/**
 * One sign-in for the browser pages (docs/web.md#one-sign-in): a login of the web client or the
 * portal (`/auth/*`) also signs in the consent pages, through their HttpOnly session cookie, and a
 * consent-page login hands its session to the client through POST /auth/session.
 */
describe('one sign-in across the client, the portal and the consent pages', () => {
  const fx = useOAuthFixture('sqlite');
  const consentUrl = () =>
    `/oauth2/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: fx.seed.applicationId,
      scope: 'identify',
      redirect_uri: REDIRECT,
    }).toString()}`;
  /** The `name=value` of a Set-Cookie header, and the header itself. */
  const cookieOf = (header: unknown) => {
    const value = String(header);
    return { pair: value.split(';')[0] ?? '', header: value };
  };
  const consentPageWith = (cookie: string) =>
    fx.inject({ method: 'GET', url: consentUrl(), headers: { cookie } });
  const askSession = (cookie?: string) =>
    fx.inject({
      method: 'POST',
      url: '/api/v10/auth/session',
      headers: { 'content-type': 'application/json', ...(cookie === undefined ? {} : { cookie }) },
      payload: {},
    });

  it("the client's password login signs the consent page in", async () => {
    const login = await fx.inject({
      method: 'POST',
      url: '/api/v10/auth/login',
      payload: { login: fx.seed.username, password: 'correct horse battery' },
    });
    expect(login.statusCode).toBe(200);
    const { token } = login.json<{ token: string }>();
    const cookie = cookieOf(login.headers['set-cookie']);
    expect(cookie.pair).toBe(`guildhall_session=${token}`);
    expect(cookie.header).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/);

    const page = await consentPageWith(cookie.pair);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ada app');
    expect(page.body).not.toContain('action="/oauth2/login"');
  });

  it('a login link signs the consent page in too', async () => {
    const { code } = await fx.server.app.services.auth.createLoginLink(fx.seed.userId);
    const used = await fx.inject({
      method: 'POST',
      url: '/api/v10/auth/login-link',
      payload: { code },
    });
    expect(used.statusCode).toBe(200);
    const page = await consentPageWith(cookieOf(used.headers['set-cookie']).pair);
    expect(page.body).not.toContain('action="/oauth2/login"');
  });

  it("a consent-page login hands its session to the client, and only a person's session", async () => {
    const login = await fx.pageLogin(consentUrl());
    expect(login.statusCode).toBe(303);
    const session = cookieOf(login.headers['set-cookie']).pair;

    const handed = await askSession(session);
    expect(handed.statusCode).toBe(200);
    const { token, user_id } = handed.json<{ token: string; user_id: string }>();
    expect(user_id).toBe(fx.seed.userId);
    const me = await fx.inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: token },
    });
    expect(me.json<{ id: string }>().id).toBe(fx.seed.userId);

    // No session: 204, no body (a page asks on every anonymous load; not an error).
    const none = await askSession();
    expect({ status: none.statusCode, body: none.body }).toEqual({ status: 204, body: '' });
    // A cookie planted twice (another host's), a bot token, garbage: no session alike.
    const tossed = await askSession(`${session}; guildhall_session=other`);
    expect(tossed.statusCode).toBe(204);
    const bot = await askSession(`guildhall_session=${fx.seed.botToken}`);
    expect(bot.statusCode).toBe(204);
    expect((await askSession('guildhall_session=nonsense')).statusCode).toBe(204);
  });

  it('logging out of the client clears the cookie, and the consent page asks again', async () => {
    const login = await fx.inject({
      method: 'POST',
      url: '/api/v10/auth/login',
      payload: { login: fx.seed.username, password: 'correct horse battery' },
    });
    const { token } = login.json<{ token: string }>();
    const session = cookieOf(login.headers['set-cookie']).pair;
    const out = await fx.inject({
      method: 'POST',
      url: '/api/v10/auth/logout',
      headers: { authorization: token, cookie: session },
    });
    expect(out.statusCode).toBe(204);
    const cleared = cookieOf(out.headers['set-cookie']);
    expect(cleared.pair).toBe('guildhall_session=');
    expect(cleared.header).toContain('Max-Age=0');
    // The old cookie, kept by a browser that missed the clearing, no longer signs anything in.
    expect((await consentPageWith(session)).body).toContain('action="/oauth2/login"');
  });
});
