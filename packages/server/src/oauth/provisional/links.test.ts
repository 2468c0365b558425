import { describe, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useProvisionalFixture, type TokenBody } from '../../../test/support/provisionalFixture.js';
import { hashSecret } from '../../domain/credentials.js';

const DAY_MS = 24 * 3600 * 1000;

describeDrivers('provisional accounts on $driver', (driver) => {
  const fx = useProvisionalFixture(driver);
  const { call, admin, botToken, me, person, merge, authorize, deauthorizedEvents, identity } = fx;

  describe('account link lifecycle (the spec table)', () => {
    const linked = async (externalId: string, username: string) => {
      const issued = (await botToken(externalId)).json<TokenBody>();
      const full = await person(username);
      await merge(full, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: issued.access_token });
      const tokens = await authorize(full);
      return { full, tokens };
    };
    const ban = (userId: string, payload: object = {}) =>
      call('PUT', `/admin/users/${userId}/ban`, { ...admin, payload });

    it('linked account banned → tokens deleted, unlinked, APPLICATION_DEAUTHORIZED, restricted provisional account', async () => {
      const { full, tokens } = await linked('banme', 'banned_one');
      const elsewhere = await fx.server.app.services.applications.create(fx.dev.userId, {
        name: 'another game',
      });
      const otherTokens = await fx.server.app.services.oauth.issueTokens({
        userId: full,
        applicationId: elsewhere.application.id,
        scopes: ['identify'],
        refresh: true,
      });
      const res = await ban(full, { reason: 'cheating' });
      expect(res.statusCode).toBe(200);
      const body = res.json<{ provisional_accounts: { user_id: string }[] }>();
      expect((await me(tokens.access_token)).statusCode).toBe(401);
      const moved = await identity('banme', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN');
      expect(moved).toMatchObject({ provisional: true, restrictedBy: full });
      expect(body.provisional_accounts).toEqual([
        { application_id: fx.dev.applicationId, user_id: moved?.userId },
      ]);
      expect(await deauthorizedEvents()).toContain(full);
      const authorization = await fx.server.app.storage.oauth.findAuthorization(
        full,
        fx.dev.applicationId,
      );
      expect(authorization?.revokedAt).not.toBeNull();
      // Every authorization's refresh tokens are gone, the other app's too.
      expect(
        await fx.server.app.storage.oauth.findToken(hashSecret(otherTokens.refresh_token ?? '')),
      ).toBeNull();
      expect(
        await fx.server.app.storage.oauth.findToken(hashSecret(tokens.refresh_token ?? '')),
      ).toBeNull();
    });

    it('restricted provisional account → merge refused (530017) until the ban lifts', async () => {
      const { full } = await linked('temp', 'temp_banned');
      await ban(full, { duration_seconds: 3600 });
      const restricted = (await botToken('temp')).json<TokenBody>();
      const credential = {
        type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN' as const,
        token: restricted.access_token,
      };
      const other = await person('other_account');
      await expect(merge(other, credential)).rejects.toMatchObject({ code: 530017, status: 400 });
      await expect(merge(full, credential)).rejects.toMatchObject({ code: 530017 });
      fx.clock.advance(3601 * 1000);
      await merge(full, {
        ...credential,
        token: (await botToken('temp')).json<TokenBody>().access_token,
      });
      expect(await identity('temp', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN')).toMatchObject({
        userId: full,
        provisional: false,
      });
    });

    it('a permanent ban refuses merges until an operator unbans', async () => {
      const { full } = await linked('perm', 'perm_banned');
      await ban(full);
      fx.clock.advance(3650 * DAY_MS);
      const token = (await botToken('perm')).json<TokenBody>().access_token;
      const credential = { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN' as const, token };
      await expect(merge(full, credential)).rejects.toMatchObject({ code: 530017 });
      const username = (await fx.server.app.storage.users.findById(full))?.username;
      const login = () =>
        call('POST', '/auth/login', {
          payload: { login: username, password: 'correct horse battery' },
        });
      expect((await login()).json()).toMatchObject({ code: 50035 });
      const unban = await call('DELETE', `/admin/users/${full}/ban`, admin);
      expect((await login()).statusCode).toBe(200);
      expect(unban.statusCode).toBe(204);
      await merge(full, credential);
      expect((await call('DELETE', `/admin/users/${full}/ban`, admin)).json()).toMatchObject({
        code: 10026,
      });
    });

    it('a banned provisional account cannot merge either (530017)', async () => {
      const issued = (await botToken('bad-provisional')).json<TokenBody>();
      const provisionalId = (await me(issued.access_token)).json<{ id: string }>().id;
      await ban(provisionalId);
      const minted = (await botToken('bad-provisional')).json<TokenBody>();
      await expect(
        merge(await person('target'), {
          type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
          token: minted.access_token,
        }),
      ).rejects.toMatchObject({ code: 530017 });
    });

    it('linked account revoked → unlinked tokens, APPLICATION_DEAUTHORIZED', async () => {
      const { full, tokens } = await linked('rev', 'revoker');
      expect(
        await fx.server.app.services.oauth.revokeAuthorization({
          userId: full,
          applicationId: fx.dev.applicationId,
        }),
      ).toBe(true);
      expect((await me(tokens.access_token)).statusCode).toBe(401);
      expect(await deauthorizedEvents()).toContain(full);
    });

    it('admin routes need the operator token', async () => {
      const target = await person('someone');
      expect((await call('PUT', `/admin/users/${target}/ban`, { payload: {} })).statusCode).toBe(
        401,
      );
      const wrong = await call('PUT', `/admin/users/${target}/ban`, {
        auth: `Admin ${'x'.repeat(40)}`,
        payload: {},
      });
      expect(wrong.statusCode).toBe(401);
      expect(
        (await call('PUT', `/admin/users/${target}/ban`, { auth: fx.dev.userToken })).statusCode,
      ).toBe(401);
      expect((await ban('123')).json()).toMatchObject({ code: 10013 });
      expect((await ban(target, { duration_seconds: 0 })).json()).toMatchObject({ code: 50035 });
    });
  });

  describe('publisher-level linking', () => {
    it('exchanges a parent token for a child one of an approved link', async () => {
      const child = await fx.server.app.services.applications.create(fx.dev.userId, {
        name: 'child game',
      });
      const childId = child.application.id;
      const player = await person('publisher_fan');
      const parentTokens = await authorize(player);
      const body = {
        parent_access_token: parentTokens.access_token,
        child_application_id: childId,
        parent_client_secret: fx.dev.clientSecret,
      };
      const unlinked = await call('POST', '/partner-sdk/child-token', { payload: body });
      expect(unlinked.json()).toMatchObject({ code: 10002 });

      const approve = await call(
        'PUT',
        `/admin/application-links/${fx.dev.applicationId}/${childId}`,
        admin,
      );
      expect(approve.statusCode).toBe(200);
      fx.clock.advance(3600 * 1000);
      const res = await call('POST', '/partner-sdk/child-token', { payload: body });
      expect(res.statusCode).toBe(200);
      const token = res.json<TokenBody>();
      expect(token.refresh_token).toBeUndefined();
      expect(token.expires_in).toBe(604800 - 3600);
      expect((await me(token.access_token)).json()).toMatchObject({ id: player });
      const stored = await fx.server.app.storage.tokens.findByHash(hashSecret(token.access_token));
      expect(stored).toMatchObject({ applicationId: childId, userId: player });
      // It expires with the parent.
      fx.clock.advance((604800 - 3600) * 1000);
      expect((await me(token.access_token)).statusCode).toBe(401);

      // The parent token has expired too: no more child tokens from it.
      const expired = await call('POST', '/partner-sdk/child-token', { payload: body });
      expect(expired.json()).toMatchObject({ code: 50025 });
      expect(
        (await call('DELETE', `/admin/application-links/${fx.dev.applicationId}/${childId}`, admin))
          .statusCode,
      ).toBe(204);
    });

    it('refuses a wrong parent secret (530007)', async () => {
      const child = await fx.server.app.services.applications.create(fx.dev.userId, {
        name: 'child 2',
      });
      await call(
        'PUT',
        `/admin/application-links/${fx.dev.applicationId}/${child.application.id}`,
        admin,
      );
      const parentTokens = await authorize(await person('fan2'));
      const res = await call('POST', '/partner-sdk/child-token', {
        payload: {
          parent_access_token: parentTokens.access_token,
          child_application_id: child.application.id,
          parent_client_secret: 'wrong-secret',
        },
      });
      expect(res.json()).toMatchObject({ code: 530007 });
    });
  });
});
