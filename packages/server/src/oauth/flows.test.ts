import { expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import {
  REDIRECT,
  basic,
  challenge,
  useOAuthFixture,
  verifier,
} from '../../test/support/oauthFixture.js';
import { uniqueName } from '../../test/support/fileServer.js';
import { seedDeveloper } from '../../test/support/testServer.js';
import { hashSecret } from '../domain/credentials.js';

describeDrivers('OAuth2 flows and refusals on $driver', (driver) => {
  const fx = useOAuthFixture(driver);
  const { clock, inject, token, decide, codeFor } = fx;

  const exchange = async (scope = 'identify') => {
    const { code, verifier: v } = await codeFor(scope);
    const res = await token(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v },
      basic(fx.seed),
    );
    expect(res.statusCode).toBe(200);
    return res.json<{ access_token: string; refresh_token: string; scope: string }>();
  };

  it('identify.premium shows the real premium_type only to an approved app', async () => {
    await fx.server.app.storage.users.update(fx.seed.userId, { premiumType: 2 });
    const plain = await exchange('identify');
    const me = (accessToken: string) =>
      inject({
        method: 'GET',
        url: '/api/v10/users/@me',
        headers: { authorization: `Bearer ${accessToken}` },
      });
    expect((await me(plain.access_token)).json()).toMatchObject({ premium_type: 0 });
    await fx.server.app.storage.applications.update(fx.seed.applicationId, {
      identifyPremiumApproved: true,
    });
    const premium = await exchange('identify identify.premium');
    expect((await me(premium.access_token)).json()).toMatchObject({ premium_type: 2 });
    // Bearer tokens keep to their scopes.
    const guildsOnly = await exchange('guilds');
    expect((await me(guildsOnly.access_token)).statusCode).toBe(401);
    const guilds = await inject({
      method: 'GET',
      url: '/api/v10/users/@me/guilds',
      headers: { authorization: `Bearer ${plain.access_token}` },
    });
    expect(guilds.statusCode).not.toBe(200);
  });

  it('the token endpoint refuses what it must, in RFC 6749 shape', async () => {
    const { code, verifier: v } = await codeFor();
    const wrongSecret = await token(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v },
      `Basic ${Buffer.from(`${fx.seed.applicationId}:nope`).toString('base64')}`,
    );
    expect(wrongSecret.statusCode).toBe(401);
    expect(wrongSecret.headers['www-authenticate']).toMatch(/^Basic/);
    expect(wrongSecret.json()).toMatchObject({ error: 'invalid_client' });

    const wrongRedirect = await token(
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://app.example.test/other',
        code_verifier: v,
      },
      basic(fx.seed),
    );
    expect(wrongRedirect.statusCode).toBe(400);
    expect(wrongRedirect.json()).toMatchObject({ error: 'invalid_grant' });

    const second = await codeFor();
    const noVerifier = await token(
      { grant_type: 'authorization_code', code: second.code, redirect_uri: REDIRECT },
      basic(fx.seed),
    );
    expect(noVerifier.json()).toMatchObject({ error: 'invalid_grant' });

    expect((await token({ grant_type: 'password' }, basic(fx.seed))).json()).toMatchObject({
      error: 'unsupported_grant_type',
    });
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: 'nope' }, basic(fx.seed))).json(),
    ).toMatchObject({
      error: 'invalid_grant',
    });
    // A Bot (or Bearer) Authorization header is ignored: the body's credentials count.
    const third = await codeFor();
    const withBotHeader = await token(
      {
        grant_type: 'authorization_code',
        code: third.code,
        redirect_uri: REDIRECT,
        code_verifier: third.verifier,
        client_id: fx.seed.applicationId,
        client_secret: fx.seed.clientSecret,
      },
      `Bot ${fx.seed.botToken}`,
    );
    expect(withBotHeader.statusCode).toBe(200);
  });

  it("another app's tokens are refused", async () => {
    const other = await seedDeveloper(fx.server.app, uniqueName('bob'), 'bob app');
    const tokens = await exchange('identify');
    const refresh = await token(
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      basic(other),
    );
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    const revoke = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/token/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(other) },
      payload: new URLSearchParams({ token: tokens.access_token }).toString(),
    });
    expect(revoke.statusCode).toBe(400);
    expect(revoke.json()).toMatchObject({ error: 'unauthorized_client' });
    // Still alive for its own app.
    const ok = await token(
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      basic(fx.seed),
    );
    expect(ok.statusCode).toBe(200);
  });

  it('codes expire after 10 minutes, access tokens after 7 days', async () => {
    const { code, verifier: v } = await codeFor();
    clock.advance(10 * 60 * 1000 + 1);
    const late = await token(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v },
      basic(fx.seed),
    );
    expect(late.json()).toMatchObject({ error: 'invalid_grant' });

    const tokens = await exchange('identify');
    const me = () =>
      inject({
        method: 'GET',
        url: '/api/v10/users/@me',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
    expect((await me()).statusCode).toBe(200);
    clock.advance(604_800 * 1000 + 1);
    expect((await me()).statusCode).toBe(401);
    // The refresh token outlives the access token and rotates.
    const refreshed = await token(
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      basic(fx.seed),
    );
    expect(refreshed.statusCode).toBe(200);
  });

  it('client_credentials: a token for the owner, no refresh token, limited scopes', async () => {
    const res = await token(
      { grant_type: 'client_credentials', scope: 'identify applications.commands.update' },
      basic(fx.seed),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json<{ access_token: string; refresh_token?: string }>();
    expect(body.refresh_token).toBeUndefined();
    const me = await inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.json()).toMatchObject({ id: fx.seed.userId });
    const wide = await token(
      { grant_type: 'client_credentials', scope: 'guilds.join' },
      basic(fx.seed),
    );
    expect(wide.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('device flow: pending, slow_down, approval, tokens; denial; expiry', async () => {
    const start = async () => {
      const res = await inject({
        method: 'POST',
        url: '/api/v10/oauth2/device/authorize',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(fx.seed),
        },
        payload: 'scope=identify%20openid',
      });
      expect(res.statusCode).toBe(200);
      return res.json<{
        device_code: string;
        user_code: string;
        verification_uri_complete: string;
        expires_in: number;
        interval: number;
      }>();
    };
    const poll = (deviceCode: string) =>
      token(
        { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode },
        basic(fx.seed),
      );
    const verify = (userCode: string, authorize: boolean) =>
      inject({
        method: 'POST',
        url: '/api/v10/oauth2/device/verify',
        headers: { authorization: fx.seed.userToken },
        payload: { user_code: userCode, authorize },
      });

    const device = await start();
    expect(device).toMatchObject({ expires_in: 300, interval: 5 });
    expect(device.verification_uri_complete).toContain(device.user_code);
    expect((await poll(device.device_code)).json()).toMatchObject({
      error: 'authorization_pending',
    });
    expect((await poll(device.device_code)).json()).toMatchObject({ error: 'slow_down' });

    const page = await inject({
      method: 'GET',
      url: `/activate?user_code=${device.user_code.toLowerCase()}`,
      headers: { cookie: `guildhall_session=${fx.seed.userToken}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ada app');

    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const approve = (csrfToken: string) =>
      inject({
        method: 'POST',
        url: '/activate',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `guildhall_session=${fx.seed.userToken}`,
        },
        payload: new URLSearchParams({
          user_code: device.user_code,
          csrf_token: csrfToken,
          decision: 'authorize',
        }).toString(),
      });
    expect((await approve('forged')).statusCode).toBe(403);
    const approved = await approve(csrf);
    expect(approved.statusCode).toBe(200);
    expect(approved.body).toContain('Device authorized');
    clock.advance(5000);
    const granted = await poll(device.device_code);
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toHaveProperty('id_token');
    expect((await poll(device.device_code)).json()).toMatchObject({ error: 'invalid_grant' });

    const denied = await start();
    await verify(denied.user_code, false);
    expect((await poll(denied.device_code)).json()).toMatchObject({ error: 'access_denied' });

    const expired = await start();
    clock.advance(300_001);
    expect((await poll(expired.device_code)).json()).toMatchObject({ error: 'expired_token' });
  });

  it('a public client uses PKCE without a secret and the default custom scheme', async () => {
    await fx.server.app.storage.applications.update(fx.seed.applicationId, {
      publicClient: true,
    });
    const v = verifier();
    const res = await decide({
      scope: 'openid sdk.social_layer',
      code_challenge: challenge(v),
      code_challenge_method: 'S256',
    });
    const location = new URL(res.json<{ location: string }>().location);
    expect(location.protocol).toBe(`platform-${fx.seed.applicationId}:`);
    const code = location.searchParams.get('code') ?? '';
    const granted = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: v,
      client_id: fx.seed.applicationId,
    });
    expect(granted.statusCode).toBe(200);
    const scopes = granted.json<{ scope: string }>().scope.split(' ');
    expect(scopes).toEqual(
      expect.arrayContaining([
        'sdk.social_layer',
        'sdk.social_layer_presence',
        'lobbies.write',
        'relationships.read',
      ]),
    );
    // platform-<id>: is also accepted when named; any other custom scheme must be registered
    // exactly, as any redirect is, and an http URL that is not registered is refused.
    const withRedirect = (redirect_uri: string) =>
      decide({
        scope: 'identify',
        redirect_uri,
        code_challenge: challenge(v),
        code_challenge_method: 'S256',
      });
    const own = await withRedirect(`platform-${fx.seed.applicationId}:/authorize/callback`);
    expect(own.statusCode).toBe(200);
    expect((await withRedirect(`platform-${fx.seed.userId}:/authorize/callback`)).statusCode).toBe(
      400,
    );
    const unregistered = await withRedirect('mygame:/authorize/callback');
    expect(unregistered.statusCode).toBe(400);
    expect(unregistered.json()).toMatchObject({ error: 'invalid_request' });
    await fx.server.app.storage.applications.update(fx.seed.applicationId, {
      redirectUris: [REDIRECT, 'mygame:/authorize/callback'],
    });
    const registered = await withRedirect('mygame:/authorize/callback');
    expect(registered.statusCode).toBe(200);
    expect(registered.json<{ location: string }>().location).toMatch(
      /^mygame:\/authorize\/callback\?code=/,
    );
    expect((await withRedirect('mygame:/authorize/callback/')).statusCode).toBe(400);
    expect(
      (
        await decide({
          scope: 'identify',
          redirect_uri: 'http://elsewhere.test/authorize/callback',
        })
      ).statusCode,
    ).toBe(400);
    // A code issued without a challenge is useless to a public client.
    await fx.server.app.storage.oauth.createCode({
      hash: hashSecret('no-challenge'),
      applicationId: fx.seed.applicationId,
      userId: fx.seed.userId,
      scopes: ['identify'],
      redirectUri: null,
      codeChallenge: null,
      nonce: null,
      authTime: clock.now(),
      createdAt: clock.now(),
      expiresAt: clock.now() + 60_000,
      usedAt: null,
    });
    const unproven = await token({
      grant_type: 'authorization_code',
      code: 'no-challenge',
      code_verifier: verifier(),
      client_id: fx.seed.applicationId,
    });
    expect(unproven.json()).toMatchObject({ error: 'invalid_grant' });
    // Without PKCE a public client gets nothing.
    const noPkce = await token({
      grant_type: 'authorization_code',
      code: 'x',
      client_id: fx.seed.applicationId,
    });
    expect(noPkce.statusCode).toBe(401);
  });

  it('PATCH /applications/{id} sets redirect_uris and public_client', async () => {
    const res = await inject({
      method: 'PATCH',
      url: `/api/v10/applications/${fx.seed.applicationId}`,
      headers: { authorization: fx.seed.userToken },
      payload: {
        redirect_uris: ['https://a.example.test/cb', 'mygame:/authorize/callback'],
        public_client: true,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      redirect_uris: ['https://a.example.test/cb', 'mygame:/authorize/callback'],
    });
    expect(await fx.server.app.storage.applications.findById(fx.seed.applicationId)).toMatchObject({
      publicClient: true,
    });
    const bad = await inject({
      method: 'PATCH',
      url: `/api/v10/applications/${fx.seed.applicationId}`,
      headers: { authorization: fx.seed.userToken },
      payload: { redirect_uris: ['not a url'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 50035 });
  });
  it('authorizing and revoking enqueue APPLICATION_AUTHORIZED and _DEAUTHORIZED', async () => {
    await fx.server.app.storage.applications.update(fx.seed.applicationId, {
      eventWebhooksUrl: 'https://app.example.test/events',
      eventWebhooksStatus: 2,
      eventWebhooksTypes: ['APPLICATION_AUTHORIZED', 'APPLICATION_DEAUTHORIZED'],
    });
    const tokens = await exchange('identify');
    // Approving the same grant again announces nothing new.
    await exchange('identify');
    const revoke = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/token/revoke',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(fx.seed),
      },
      payload: new URLSearchParams({
        token: tokens.refresh_token,
        token_type_hint: 'refresh_token',
      }).toString(),
    });
    expect(revoke.statusCode).toBe(200);
    const events = await fx.server.app.storage.outbox.listByApplication(fx.seed.applicationId, {
      limit: 10,
    });
    expect(events.map((e) => e.eventType).reverse()).toEqual([
      'APPLICATION_AUTHORIZED',
      'APPLICATION_DEAUTHORIZED',
    ]);
    const authorized = JSON.parse(events[1]?.event ?? '{}') as { data: unknown };
    expect(authorized.data).toMatchObject({
      integration_type: 1,
      scopes: ['identify'],
      user: { id: fx.seed.userId },
    });
    // Revoking again is quiet (RFC 7009: 200 for an unknown token).
    const again = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/token/revoke',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(fx.seed),
      },
      payload: new URLSearchParams({ token: tokens.refresh_token }).toString(),
    });
    expect(again.statusCode).toBe(200);
    expect(
      await fx.server.app.storage.outbox.listByApplication(fx.seed.applicationId, { limit: 10 }),
    ).toHaveLength(2);
  });

  it('the token endpoint has its own rate limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push(
        (await token({ grant_type: 'refresh_token', refresh_token: 'x' }, basic(fx.seed)))
          .statusCode,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
