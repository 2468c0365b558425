import { describe, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { useProvisionalFixture, type TokenBody } from '../../../test/support/provisionalFixture.js';

describeDrivers('provisional accounts on $driver', (driver) => {
  const fx = useProvisionalFixture(driver);
  const {
    call,
    bot,
    admin,
    saveProvider,
    exchange,
    botToken,
    me,
    person,
    merge,
    authorize,
    deauthorizedEvents,
    identity,
  } = fx;

  describe('merge (the token grant extension)', () => {
    it('moves the identity to the full account and deletes the provisional one', async () => {
      await saveProvider();
      const provisional = (await exchange('alice')).json<TokenBody>();
      const provisionalId = (await me(provisional.access_token)).json<{ id: string }>().id;
      const full = await person('alice_full');
      const result = await merge(full, { type: 'OIDC', token: await fx.idp.idToken('alice') });
      expect(result.provisionalUserId).toBe(provisionalId);
      expect(await fx.server.app.storage.users.findById(provisionalId)).toBeNull();
      expect((await me(provisional.access_token)).statusCode).toBe(401);
      expect(await identity('alice')).toMatchObject({ userId: full, provisional: false });
      // The identity now belongs to a full account: no more provisional tokens for it.
      const after = await exchange('alice');
      expect(after.statusCode).toBe(400);
      expect(after.json()).toMatchObject({ code: 530010 });
    });

    it('merges a bot-issued account with its access token', async () => {
      const issued = (await botToken('player-7')).json<TokenBody>();
      const full = await person('seven');
      await merge(full, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: issued.access_token });
      expect(await identity('player-7', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN')).toMatchObject({
        userId: full,
        provisional: false,
      });
      expect((await botToken('player-7')).json()).toMatchObject({ code: 530010 });
    });

    it('refuses bad sources and destinations (530016, 530014, 530023, 50025)', async () => {
      await saveProvider();
      const a = (await botToken('a')).json<TokenBody>();
      const aId = (await me(a.access_token)).json<{ id: string }>().id;
      const b = (await botToken('b')).json<TokenBody>();
      // Destination provisional.
      await expect(
        merge(aId, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: b.access_token }),
      ).rejects.toMatchObject({ code: 530016, status: 400 });
      // A token that is no provisional access token.
      await expect(
        merge(await person('x1'), { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: 'nope' }),
      ).rejects.toMatchObject({ code: 50025, status: 403 });
      // Source already merged into someone else.
      await exchange('alice');
      const first = await person('first');
      await merge(first, { type: 'OIDC', token: await fx.idp.idToken('alice') });
      await expect(
        merge(await person('second'), { type: 'OIDC', token: await fx.idp.idToken('alice') }),
      ).rejects.toMatchObject({ code: 530014, status: 400 });
      // The destination holds another identity of this application already.
      await exchange('bob');
      await expect(
        merge(first, { type: 'OIDC', token: await fx.idp.idToken('bob') }),
      ).rejects.toMatchObject({ code: 530023, status: 400 });
      expect(await identity('bob')).toMatchObject({ provisional: true });
    });

    it.skipIf(driver !== 'postgres')(
      'answers 423 while another merge holds the identity',
      async () => {
        const issued = (await botToken('locked')).json<TokenBody>();
        const key = {
          applicationId: fx.dev.applicationId,
          authType: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN' as const,
          subject: 'locked',
        };
        const full = await person('waiter');
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let locked: () => void = () => undefined;
        const isLocked = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const holder = fx.server.app.storage.transaction(async (tx) => {
          expect(await tx.provisional.lockIdentity(key)).toBe('locked');
          locked();
          await held;
        });
        await isLocked;
        try {
          await expect(
            merge(full, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: issued.access_token }),
          ).rejects.toMatchObject({ status: 423 });
        } finally {
          release();
          await holder;
        }
        await merge(full, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: issued.access_token });
      },
    );
  });

  describe('through the token endpoint', () => {
    const REDIRECT = 'https://game.example.com/callback';
    const basic = () =>
      `Basic ${Buffer.from(`${fx.dev.applicationId}:${fx.dev.clientSecret}`).toString('base64')}`;
    const token = (body: Record<string, string>) =>
      fx.server.app.http.inject({
        method: 'POST',
        url: '/api/oauth2/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(),
        },
        payload: new URLSearchParams(body).toString(),
      });
    const codeFor = async (userToken: string) => {
      await fx.server.app.storage.applications.update(fx.dev.applicationId, {
        redirectUris: [REDIRECT],
      });
      const res = await call('POST', '/oauth2/authorize', {
        auth: userToken,
        payload: {
          authorize: true,
          response_type: 'code',
          client_id: fx.dev.applicationId,
          scope: 'openid sdk.social_layer',
          redirect_uri: REDIRECT,
        },
      });
      expect(res.statusCode).toBe(200);
      return new URL(res.json<{ location: string }>().location).searchParams.get('code') ?? '';
    };
    const mergeWithCode = async (userToken: string, externalToken: string) =>
      token({
        grant_type: 'authorization_code',
        code: await codeFor(userToken),
        redirect_uri: REDIRECT,
        external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
        external_auth_token: externalToken,
      });

    it('authorization_code grant with external_auth_* merges', async () => {
      const issued = (await botToken('http-1')).json<TokenBody>();
      const provisionalId = (await me(issued.access_token)).json<{ id: string }>().id;
      const res = await mergeWithCode(fx.dev.userToken, issued.access_token);
      expect(res.statusCode).toBe(200);
      const body = res.json<TokenBody>();
      expect((await me(body.access_token)).json()).toMatchObject({ id: fx.dev.userId });
      expect(await identity('http-1', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN')).toMatchObject({
        userId: fx.dev.userId,
        provisional: false,
      });
      expect(await fx.server.app.storage.users.findById(provisionalId)).toBeNull();
      // The account already holds this application's identity: another one is refused.
      const second = (await botToken('http-2')).json<TokenBody>();
      const refused = await mergeWithCode(fx.dev.userToken, second.access_token);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 530023 });
      // The provisional token of a merged account is gone.
      const gone = await mergeWithCode(fx.dev.userToken, issued.access_token);
      expect(gone.statusCode).toBe(403);
      expect(gone.json()).toMatchObject({ code: 50025 });
    });

    it('device_code grant with external_auth_* merges', async () => {
      const issued = (await botToken('console-1')).json<TokenBody>();
      await fx.server.app.storage.applications.update(fx.dev.applicationId, {
        deviceFlowEnabled: true,
      });
      const start = await fx.server.app.http.inject({
        method: 'POST',
        url: '/api/v10/oauth2/device/authorize',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic() },
        payload: 'scope=openid%20sdk.social_layer',
      });
      const device = start.json<{ device_code: string; user_code: string }>();
      const verified = await call('POST', '/oauth2/device/verify', {
        auth: fx.dev.userToken,
        payload: { user_code: device.user_code, authorize: true },
      });
      expect(verified.statusCode).toBeLessThan(300);
      const res = await token({
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: device.device_code,
        external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
        external_auth_token: issued.access_token,
      });
      expect(res.statusCode).toBe(200);
      expect(await identity('console-1', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN')).toMatchObject({
        userId: fx.dev.userId,
        provisional: false,
      });
    });

    it('the OIDC refresh grant works, with a Deprecation header', async () => {
      await saveProvider();
      const provisional = (await exchange('refresher')).json<TokenBody>();
      const res = await token({
        grant_type: 'refresh_token',
        refresh_token: provisional.refresh_token ?? '',
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['deprecation']).toBe('true');
      const fullTokens = await authorize(await person('plain'));
      const plain = await token({
        grant_type: 'refresh_token',
        refresh_token: fullTokens.refresh_token ?? '',
      });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['deprecation']).toBeUndefined();
    });

    it('a linked account revoked at /oauth2/token/revoke: unlinked, APPLICATION_DEAUTHORIZED, invalid_grant', async () => {
      const issued = (await botToken('revoked-link')).json<TokenBody>();
      const full = await person('revoking');
      await merge(full, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: issued.access_token });
      const tokens = await authorize(full);
      const revoke = await fx.server.app.http.inject({
        method: 'POST',
        url: '/api/oauth2/token/revoke',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic() },
        payload: new URLSearchParams({ token: tokens.access_token }).toString(),
      });
      expect(revoke.statusCode).toBe(200);
      expect(await deauthorizedEvents()).toContain(full);
      // Unlinked: the identity gets a new provisional account (or links to an account again).
      const again = await botToken('revoked-link');
      expect(again.statusCode).toBe(200);
      const fresh = (await me(again.json<TokenBody>().access_token)).json<{ id: string }>().id;
      expect(fresh).not.toBe(full);
      expect(await identity('revoked-link', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN')).toMatchObject({
        userId: fresh,
        provisional: true,
      });
      const refresh = await token({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token ?? '',
      });
      expect(refresh.statusCode).toBe(400);
      expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('after a ban or an unmerge, a refresh gets invalid_grant', async () => {
      const link = async (externalId: string, name: string) => {
        const issued = (await botToken(externalId)).json<TokenBody>();
        const full = await person(name);
        await merge(full, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: issued.access_token });
        return { full, tokens: await authorize(full) };
      };
      const banned = await link('ban-refresh', 'ban_refresh');
      await call('PUT', `/admin/users/${banned.full}/ban`, { ...admin, payload: {} });
      const afterBan = await token({
        grant_type: 'refresh_token',
        refresh_token: banned.tokens.refresh_token ?? '',
      });
      expect(afterBan.statusCode).toBe(400);
      expect(afterBan.json()).toMatchObject({ error: 'invalid_grant' });

      const unmerged = await link('unmerge-refresh', 'unmerge_refresh');
      await call('POST', '/partner-sdk/provisional-accounts/unmerge/bot', {
        auth: bot(),
        payload: { external_user_id: 'unmerge-refresh' },
      });
      const afterUnmerge = await token({
        grant_type: 'refresh_token',
        refresh_token: unmerged.tokens.refresh_token ?? '',
      });
      expect(afterUnmerge.json()).toMatchObject({ error: 'invalid_grant' });
    });
  });

  describe('unmerge', () => {
    const linkBotAccount = async (externalId: string, name: string) => {
      const issued = (await botToken(externalId, name)).json<TokenBody>();
      const full = await person(name.toLowerCase());
      await fx.server.app.storage.users.update(full, { globalName: name });
      await merge(full, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: issued.access_token });
      return { full, tokens: await authorize(full) };
    };

    it('bot form: revokes the full account, makes a new provisional one', async () => {
      const { full, tokens } = await linkBotAccount('p1', 'Alex');
      const res = await call('POST', '/partner-sdk/provisional-accounts/unmerge/bot', {
        auth: bot(),
        payload: { external_user_id: 'p1' },
      });
      expect(res.statusCode).toBe(204);
      expectOpenApiResponse(res, 'POST', '/partner-sdk/provisional-accounts/unmerge/bot');
      expect((await me(tokens.access_token)).statusCode).toBe(401);
      const moved = await identity('p1', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN');
      expect(moved).toMatchObject({ provisional: true, restrictedBy: null });
      expect(moved?.userId).not.toBe(full);
      expect((await fx.server.app.storage.users.findById(moved?.userId ?? ''))?.globalName).toBe(
        'Alex',
      );
      expect(await deauthorizedEvents()).toContain(full);
      // The external identity gets provisional tokens again.
      expect((await botToken('p1')).statusCode).toBe(200);
    });

    it('credentials form with an ID token; errors 50229 and 404', async () => {
      await saveProvider();
      await exchange('carol');
      const full = await person('carol_full');
      await merge(full, { type: 'OIDC', token: await fx.idp.idToken('carol') });
      const unmerge = async (subject: string) =>
        call('POST', '/partner-sdk/provisional-accounts/unmerge', {
          payload: {
            client_id: fx.dev.applicationId,
            client_secret: fx.dev.clientSecret,
            external_auth_type: 'OIDC',
            external_auth_token: await fx.idp.idToken(subject),
          },
        });
      const res = await unmerge('carol');
      expect(res.statusCode).toBe(204);
      expectOpenApiResponse(res, 'POST', '/partner-sdk/provisional-accounts/unmerge');
      const again = await unmerge('carol');
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: 50229 });
      const unknown = await unmerge('nobody');
      expect(unknown.statusCode).toBe(404);
      const badSecret = await call('POST', '/partner-sdk/provisional-accounts/unmerge', {
        payload: {
          client_id: fx.dev.applicationId,
          client_secret: 'wrong',
          external_auth_type: 'OIDC',
          external_auth_token: await fx.idp.idToken('carol'),
        },
      });
      expect(badSecret.json()).toMatchObject({ code: 530007 });
    });
  });
});
