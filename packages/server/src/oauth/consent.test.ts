import { PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { expectOpenApiResponse } from '../../test/support/openapi.js';
import {
  REDIRECT,
  basic,
  challenge,
  useOAuthFixture,
  verifier,
} from '../../test/support/oauthFixture.js';
import { uniqueName } from '../../test/support/fileServer.js';
import { seedDeveloper } from '../../test/support/testServer.js';

/** The authorization endpoint: its consent page, redirects, bot installs and JSON decisions. */
describeDrivers('OAuth2 consent and redirects on $driver', (driver) => {
  const fx = useOAuthFixture(driver);
  const { inject, token, decide, codeFor } = fx;

  it('the consent page: login form, session cookie, CSRF, Authorize and Cancel', async () => {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: fx.seed.applicationId,
      scope: 'identify guilds',
      redirect_uri: REDIRECT,
      state: 'st8',
    }).toString();
    const anonymous = await inject({ method: 'GET', url: `/oauth2/authorize?${query}` });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(anonymous.body).toContain('action="/oauth2/login"');
    const csrfCookie = String(anonymous.headers['set-cookie']).split(';')[0] ?? '';
    const loginCsrf = /name="csrf_token" value="([^"]+)"/.exec(anonymous.body)?.[1] ?? '';

    const forged = await inject({
      method: 'POST',
      url: '/oauth2/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        login: fx.seed.username,
        password: 'correct horse battery',
        csrf_token: 'x',
      }).toString(),
    });
    expect(forged.statusCode).toBe(403);

    const login = await inject({
      method: 'POST',
      url: '/oauth2/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
      payload: new URLSearchParams({
        login: fx.seed.username,
        password: 'correct horse battery',
        csrf_token: loginCsrf,
        next: `/oauth2/authorize?${query}`,
      }).toString(),
    });
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe(`/oauth2/authorize?${query}`);
    const sessionCookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    expect(String(login.headers['set-cookie'])).toContain('HttpOnly');

    // Served under the API prefix as well.
    const page = await inject({
      method: 'GET',
      url: `/api/v10/oauth2/authorize?${query}`,
      headers: { cookie: sessionCookie },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ada app');
    expect(page.body).toContain('Know what servers you are in');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const form = (extra: Record<string, string>, cookie = sessionCookie) =>
      inject({
        method: 'POST',
        url: '/oauth2/authorize',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        payload: new URLSearchParams({
          ...Object.fromEntries(new URLSearchParams(query)),
          ...extra,
        }).toString(),
      });

    expect((await form({ decision: 'authorize', csrf_token: 'forged' })).statusCode).toBe(403);
    const cancel = await form({ decision: 'cancel', csrf_token: csrf });
    expect(cancel.statusCode).toBe(302);
    const denied = new URL(String(cancel.headers.location));
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('st8');

    const ok = await form({ decision: 'authorize', csrf_token: csrf });
    expect(ok.statusCode).toBe(302);
    const location = new URL(String(ok.headers.location));
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st8');
    const code = location.searchParams.get('code') ?? '';
    const res = await token(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      basic(fx.seed),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      token_type: 'Bearer',
      expires_in: 604800,
      scope: 'guilds identify',
    });
  });

  it('escapes hostile values on the consent page', async () => {
    await fx.server.app.storage.applications.update(fx.seed.applicationId, {
      name: '<script>alert("app")</script>',
    });
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: fx.seed.applicationId,
      scope: 'identify',
      redirect_uri: REDIRECT,
      state: '"><script>alert(1)</script>',
    }).toString();
    const session = `guildhall_session=${fx.seed.userToken}`;
    const page = await inject({
      method: 'GET',
      url: `/oauth2/authorize?${query}`,
      headers: { cookie: session },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('&lt;script&gt;alert(&quot;app&quot;)&lt;/script&gt;');
    expect(page.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('an unregistered redirect_uri is shown, never redirected to', async () => {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: fx.seed.applicationId,
      scope: 'identify',
      redirect_uri: 'https://evil.example.test/steal',
      state: 's',
    }).toString();
    const page = await inject({
      method: 'GET',
      url: `/oauth2/authorize?${query}`,
      headers: { cookie: `guildhall_session=${fx.seed.userToken}` },
    });
    expect(page.statusCode).toBe(400);
    expect(page.headers.location).toBeUndefined();
    expect(page.body).toContain('redirect_uri is not registered');
    const json = await decide({
      scope: 'identify',
      redirect_uri: 'https://evil.example.test/steal',
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('errors after a valid redirect go back with error and state', async () => {
    const bad = async (payload: Record<string, unknown>) => {
      const res = await decide({ redirect_uri: REDIRECT, state: 'keep', ...payload });
      expect(res.statusCode).toBe(200);
      const url = new URL(res.json<{ location: string }>().location);
      expect(url.searchParams.get('state')).toBe('keep');
      return url.searchParams.get('error');
    };
    expect(await bad({ scope: 'identify made.up' })).toBe('invalid_scope');
    expect(await bad({ scope: 'identify.premium' })).toBe('invalid_scope');
    expect(await bad({ scope: 'identify', code_challenge: challenge(verifier()) })).toBe(
      'invalid_request',
    );
    expect(
      await bad({ scope: 'identify', code_challenge: verifier(), code_challenge_method: 'plain' }),
    ).toBe('invalid_request');
    expect(await bad({ scope: 'identify', authorize: false })).toBe('access_denied');
  });

  it('a bot install adds the bot with its permissions to a guild the user manages', async () => {
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: fx.seed.userId,
      name: 'Ada guild',
      channels: [{ name: 'general', type: 'text' }],
    });
    const permissions = (P.SEND_MESSAGES | P.VIEW_CHANNEL).toString();
    const res = await decide({
      scope: 'bot',
      permissions,
      guild_id: guild.id,
      integration_type: 0,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ guild: { id: guild.id } });
    const member = await fx.server.app.storage.members.find(guild.id, fx.seed.botUserId);
    expect(member).not.toBeNull();
    const roles = await fx.server.app.storage.roles.listByGuild(guild.id);
    expect(roles.find((r) => r.managed && r.botUserId === fx.seed.botUserId)?.permissions).toBe(
      BigInt(permissions),
    );
    const authorization = await fx.server.app.storage.oauth.findAuthorization(
      fx.seed.userId,
      fx.seed.applicationId,
    );
    expect(authorization).toMatchObject({ integrationType: 0 });

    // Someone who cannot manage the guild cannot add a bot to it.
    const bob = await seedDeveloper(fx.server.app, uniqueName('bob'), 'bob app');
    const refused = await decide({ scope: 'bot', guild_id: guild.id }, bob.userToken);
    expect(refused.statusCode).toBe(400);
  });

  it('JSON token requests, prompt=none, the bot guild picker, /oauth2/applications/@me', async () => {
    const { code, verifier: v } = await codeFor();
    const json = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/token',
      payload: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: v,
        client_id: fx.seed.applicationId,
        client_secret: fx.seed.clientSecret,
      },
    });
    expect(json.statusCode).toBe(200);
    expect(json.headers['cache-control']).toBe('no-store');

    // Already authorized for identify: prompt=none goes straight back with a code.
    const session = { cookie: `guildhall_session=${fx.seed.userToken}` };
    const query = (extra: Record<string, string>) =>
      new URLSearchParams({
        response_type: 'code',
        client_id: fx.seed.applicationId,
        redirect_uri: REDIRECT,
        ...extra,
      }).toString();
    const silent = await inject({
      method: 'GET',
      url: `/oauth2/authorize?${query({ scope: 'identify', prompt: 'none' })}`,
      headers: session,
    });
    expect(silent.statusCode).toBe(302);
    expect(new URL(String(silent.headers.location)).searchParams.get('code')).toBeTruthy();
    const wider = await inject({
      method: 'GET',
      url: `/oauth2/authorize?${query({ scope: 'identify email', prompt: 'none' })}`,
      headers: session,
    });
    expect(wider.statusCode).toBe(200);

    await fx.server.app.services.guilds.create({
      ownerId: fx.seed.userId,
      name: '<b>Ada & co</b>',
      channels: [],
    });
    const picker = await inject({
      method: 'GET',
      url: `/oauth2/authorize?${query({ scope: 'bot', permissions: String(P.SEND_MESSAGES) })}`,
      headers: session,
    });
    expect(picker.statusCode).toBe(200);
    expect(picker.body).toContain('&lt;b&gt;Ada &amp; co&lt;/b&gt;');
    expect(picker.body).toContain('<li>Send Messages</li>');

    const app = await inject({
      method: 'GET',
      url: '/api/v10/oauth2/applications/@me',
      headers: { authorization: `Bot ${fx.seed.botToken}` },
    });
    expect(app.statusCode).toBe(200);
    expectOpenApiResponse(app, 'GET', '/oauth2/applications/@me');
    // Errors other than OAuth2 ones keep the platform body.
    const anonymous = await inject({ method: 'GET', url: '/api/v10/oauth2/@me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 0 });
  });
});
