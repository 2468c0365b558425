import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { startTestIdp, type TestIdp } from '../../../test/support/oidcIdp.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
} from '../../../test/support/testServer.js';
import { manualClock } from '../../domain/clock.js';
import { hashSecret } from '../../domain/credentials.js';
import type { ExternalCredential } from './identities.js';

const ADMIN_TOKEN = 'operator-token-for-tests-0123456789abcdef';
const DAY_MS = 24 * 3600 * 1000;

interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

describeDrivers('provisional accounts on $driver', (driver) => {
  let idp: TestIdp;
  let server: TestServer;
  let clock: ReturnType<typeof manualClock>;
  let dev: Awaited<ReturnType<typeof seedDeveloper>>;

  beforeAll(async () => {
    idp = await startTestIdp({ idTokenTtlSeconds: 30 * 24 * 3600 });
  });
  afterAll(async () => {
    await idp.close();
  });
  beforeEach(async () => {
    clock = manualClock(Date.now());
    server = await startTestServer({
      storage: driver,
      clock,
      config: { oidcAllowInsecureLocal: true, adminTokenHash: hashSecret(ADMIN_TOKEN) },
    });
    dev = await seedDeveloper(server.app, 'gamedev');
    // The app subscribes to APPLICATION_DEAUTHORIZED webhook events.
    await server.app.storage.applications.update(dev.applicationId, {
      eventWebhooksUrl: 'https://game.example.com/events',
      eventWebhooksStatus: 2,
      eventWebhooksTypes: ['APPLICATION_AUTHORIZED', 'APPLICATION_DEAUTHORIZED'],
    });
  });
  afterEach(async () => {
    await server.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { auth?: string; payload?: object } = {},
  ) =>
    server.app.http.inject({
      method,
      url: `/api/v10${url}`,
      headers: options.auth === undefined ? {} : { authorization: options.auth },
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    });
  const bot = () => `Bot ${dev.botToken}`;
  const admin = { auth: `Admin ${ADMIN_TOKEN}` };

  const saveProvider = (issuer = idp.issuer) =>
    call('PUT', `/applications/${dev.applicationId}/identity-providers/oidc`, {
      auth: dev.userToken,
      payload: { issuer, client_id: idp.clientId },
    });
  const exchange = async (subject: string, extra: object = {}) =>
    call('POST', '/partner-sdk/token', {
      payload: {
        client_id: dev.applicationId,
        client_secret: dev.clientSecret,
        external_auth_type: 'OIDC',
        external_auth_token: await idp.idToken(subject),
        ...extra,
      },
    });
  const botToken = (externalUserId: string, name?: string) =>
    call('POST', '/partner-sdk/token/bot', {
      auth: bot(),
      payload: {
        external_user_id: externalUserId,
        ...(name === undefined ? {} : { preferred_global_name: name }),
      },
    });
  const me = (accessToken: string) => call('GET', '/users/@me', { auth: `Bearer ${accessToken}` });
  const person = async (name: string) =>
    (
      await server.app.services.auth.register({
        email: `${name}@example.test`,
        username: name,
        password: 'correct horse battery',
      })
    ).user_id;
  /** The merge extension as the code grant runs it: merge, then the grant's tokens. */
  const merge = (userId: string, credential: ExternalCredential) =>
    server.app.storage.transaction(async (tx) => {
      const merged = await server.app.services.provisional.mergeProvisional(tx, {
        applicationId: dev.applicationId,
        userId,
        credential,
      });
      await server.app.services.oauth.issueTokens({
        tx,
        userId,
        applicationId: dev.applicationId,
        scopes: ['identify'],
        refresh: true,
      });
      return merged;
    });
  /** Tokens a full account got from the app's OAuth2 flow. */
  const authorize = (userId: string) =>
    server.app.services.oauth.issueTokens({
      userId,
      applicationId: dev.applicationId,
      scopes: ['identify', 'openid'],
      refresh: true,
    });
  const deauthorizedEvents = async () =>
    (await server.app.storage.outbox.listByApplication(dev.applicationId, { limit: 50 }))
      .filter((e) => e.eventType === 'APPLICATION_DEAUTHORIZED')
      .map((e) => (JSON.parse(e.event) as { data: { user: { id: string } } }).data.user.id);
  const identity = (subject: string, authType: ExternalCredential['type'] = 'OIDC') =>
    server.app.storage.provisional.findIdentity({
      applicationId: dev.applicationId,
      authType,
      subject,
    });

  describe('Bot Token Endpoint', () => {
    it('creates, then finds, the provisional account of an external id', async () => {
      const res = await botToken('player-1', 'Player One');
      expect(res.statusCode).toBe(200);
      expectOpenApiResponse(res, 'POST', '/partner-sdk/token/bot');
      const body = res.json<TokenBody>();
      expect(body).toMatchObject({
        token_type: 'Bearer',
        expires_in: 604800,
        scope: 'sdk.social_layer',
      });
      expect(body.id_token).toEqual(expect.any(String));
      expect(body.refresh_token).toBeUndefined();
      const user = (await me(body.access_token)).json<{ id: string; global_name: string }>();
      expect(user.global_name).toBe('Player One');
      expect(await server.app.storage.provisional.isProvisional(user.id)).toBe(true);

      const again = (await botToken('player-1')).json<TokenBody>();
      expect((await me(again.access_token)).json<{ id: string }>().id).toBe(user.id);
      const other = (await botToken('player-2')).json<TokenBody>();
      expect((await me(other.access_token)).json<{ id: string }>().id).not.toBe(user.id);
    });

    it('concurrent first requests for one id share one account', async () => {
      const answers = await Promise.all([botToken('racer'), botToken('racer'), botToken('racer')]);
      const ids = await Promise.all(
        answers.map(async (res) => {
          expect(res.statusCode).toBe(200);
          return (await me(res.json<TokenBody>().access_token)).json<{ id: string }>().id;
        }),
      );
      expect(new Set(ids).size).toBe(1);
    });

    it('validates the body and refuses other token kinds', async () => {
      const long = await botToken('x'.repeat(1025));
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({ code: 50035, errors: { external_user_id: {} } });
      const name = await botToken('p', 'n'.repeat(33));
      expect(name.json()).toMatchObject({ code: 50035 });
      const asUser = await call('POST', '/partner-sdk/token/bot', {
        auth: dev.userToken,
        payload: { external_user_id: 'p' },
      });
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json()).toMatchObject({ code: 20002 });
    });
  });

  describe('External Credentials Exchange (OIDC)', () => {
    it('saves the provider, then exchanges ID tokens for provisional tokens', async () => {
      const saved = await saveProvider();
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ issuer: idp.issuer, validation: 'strict' });
      const read = await call('GET', `/applications/${dev.applicationId}/identity-providers/oidc`, {
        auth: dev.userToken,
      });
      expect(read.json()).toMatchObject({ client_id: idp.clientId });

      const res = await exchange('alice');
      expect(res.statusCode).toBe(200);
      expectOpenApiResponse(res, 'POST', '/partner-sdk/token');
      const body = res.json<TokenBody>();
      expect(body).toMatchObject({ expires_in: 604800, scope: 'sdk.social_layer' });
      expect(body.refresh_token).toEqual(expect.any(String));
      const user = (await me(body.access_token)).json<{ id: string; global_name: string }>();
      expect(user.global_name).toBe('player-alice');
      const again = (await exchange('alice')).json<TokenBody>();
      expect((await me(again.access_token)).json<{ id: string }>().id).toBe(user.id);
      expect(await identity('alice')).toMatchObject({ userId: user.id, provisional: true });
    });

    it('checks the client: secret (530007), public clients, unknown app', async () => {
      await saveProvider();
      const wrong = await exchange('alice', { client_secret: 'nope' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ code: 530007 });
      const token = await idp.idToken('alice');
      const secretless = {
        client_id: dev.applicationId,
        external_auth_type: 'OIDC',
        external_auth_token: token,
      };
      const refused = await call('POST', '/partner-sdk/token', { payload: secretless });
      expect(refused.json()).toMatchObject({ code: 530007 });
      await server.app.storage.applications.update(dev.applicationId, { publicClient: true });
      const publicForm = await call('POST', '/partner-sdk/token', { payload: secretless });
      expect(publicForm.statusCode).toBe(200);
      const unknown = await exchange('alice', { client_id: '1' });
      expect(unknown.json()).toMatchObject({ code: 10002 });
    });

    it('needs a configured provider (530008)', async () => {
      const res = await exchange('alice');
      expect(res.statusCode).toBe(400);
      expectOpenApiResponse(res, 'POST', '/partner-sdk/token');
      expect(res.json()).toMatchObject({ code: 530008 });
    });

    it('answers each bad ID token with its code', async () => {
      await saveProvider();
      const post = (token: string) =>
        call('POST', '/partner-sdk/token', {
          payload: {
            client_id: dev.applicationId,
            client_secret: dev.clientSecret,
            external_auth_type: 'OIDC',
            external_auth_token: token,
          },
        });
      expect((await post('garbage')).json()).toMatchObject({ code: 530020 });
      const otherAudience = await idp.idToken('alice', { client: 'other-game' });
      expect((await post(otherAudience)).json()).toMatchObject({ code: 530003 });
      const token = await idp.idToken('alice');
      clock.advance(8 * DAY_MS);
      expect((await post(token)).json()).toMatchObject({ code: 530004 });
      clock.advance(30 * DAY_MS);
      expect((await post(token)).json()).toMatchObject({ code: 530001 });
      const long = await post('x'.repeat(10241));
      expect(long.json()).toMatchObject({ code: 50035, errors: { external_auth_token: {} } });
    });

    it('refuses the providers it cannot verify (530000)', async () => {
      for (const type of [
        'STEAM_SESSION_TICKET',
        'APPLE_ID_TOKEN',
        'PLAYSTATION_NETWORK_ID_TOKEN',
      ]) {
        const res = await call('POST', '/partner-sdk/token', {
          payload: {
            client_id: dev.applicationId,
            client_secret: dev.clientSecret,
            external_auth_type: type,
            external_auth_token: 'ticket',
          },
        });
        expect(res.json()).toMatchObject({ code: 530000 });
      }
      const unknownType = await exchange('alice', { external_auth_type: 'MYSPACE' });
      expect(unknownType.json()).toMatchObject({ code: 50035, errors: { external_auth_type: {} } });
    });

    it('a bot-issued access token re-mints its own account', async () => {
      const issued = (await botToken('player-9')).json<TokenBody>();
      const res = await call('POST', '/partner-sdk/token', {
        payload: {
          client_id: dev.applicationId,
          client_secret: dev.clientSecret,
          external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
          external_auth_token: issued.access_token,
        },
      });
      expect(res.statusCode).toBe(200);
      const first = (await me(issued.access_token)).json<{ id: string }>().id;
      expect((await me(res.json<TokenBody>().access_token)).json<{ id: string }>().id).toBe(first);
      const forged = await call('POST', '/partner-sdk/token', {
        payload: {
          client_id: dev.applicationId,
          client_secret: dev.clientSecret,
          external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
          external_auth_token: 'not-a-token',
        },
      });
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toMatchObject({ code: 50025 });
    });
  });

  describe('OIDC provider settings', () => {
    it('are owner-only and checked on save; legacy ones keep working', async () => {
      const stranger = await server.app.services.auth.register({
        email: 's@example.test',
        username: 'stranger',
        password: 'correct horse battery',
      });
      const notOwner = await call(
        'PUT',
        `/applications/${dev.applicationId}/identity-providers/oidc`,
        {
          auth: stranger.token,
          payload: { issuer: idp.issuer, client_id: 'game' },
        },
      );
      expect(notOwner.json()).toMatchObject({ code: 10002 });
      const ip = await saveProvider('https://10.1.2.3');
      expect(ip.json()).toMatchObject({
        code: 50035,
        errors: { issuer: { _errors: [{ message: 'must name a host, not an IP address' }] } },
      });
      expect((await saveProvider('https://idp')).json()).toMatchObject({ code: 50035 });
      expect((await saveProvider('https://idp.example.com/?t=1')).json()).toMatchObject({
        code: 50035,
      });
    });

    it('a legacy configuration keeps working until it is edited', async () => {
      // A configuration from before the issuer rules (imported by the operator, marked legacy):
      // the hostname rules are relaxed for it, the address rules are not.
      const saved = await server.app.services.provisional.saveOidcProvider({
        applicationId: dev.applicationId,
        ownerId: null,
        issuer: idp.issuer,
        clientId: idp.clientId,
        legacy: true,
      });
      expect(saved.validation).toBe('legacy');
      expect((await exchange('alice')).statusCode).toBe(200);

      // An operator without the local-development setting: the provider on 127.0.0.1 is an
      // internal address, never fetched (review M2), and saving it again runs the new checks.
      await server.close();
      server = await startTestServer({
        storage: driver,
        clock,
        config: { oidcAllowInsecureLocal: false },
      });
      dev = await seedDeveloper(server.app, 'gamedev');
      await server.app.services.provisional.saveOidcProvider({
        applicationId: dev.applicationId,
        ownerId: null,
        issuer: idp.issuer,
        clientId: idp.clientId,
        legacy: true,
      });
      expect((await exchange('alice')).json()).toMatchObject({ code: 530008 });
      const edited = await saveProvider();
      expect(edited.json()).toMatchObject({ code: 50035 });
    });
  });

  describe('merge (the token grant extension)', () => {
    it('moves the identity to the full account and deletes the provisional one', async () => {
      await saveProvider();
      const provisional = (await exchange('alice')).json<TokenBody>();
      const provisionalId = (await me(provisional.access_token)).json<{ id: string }>().id;
      const full = await person('alice_full');
      const result = await merge(full, { type: 'OIDC', token: await idp.idToken('alice') });
      expect(result.provisionalUserId).toBe(provisionalId);
      expect(await server.app.storage.users.findById(provisionalId)).toBeNull();
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
      await merge(first, { type: 'OIDC', token: await idp.idToken('alice') });
      await expect(
        merge(await person('second'), { type: 'OIDC', token: await idp.idToken('alice') }),
      ).rejects.toMatchObject({ code: 530014, status: 400 });
      // The destination holds another identity of this application already.
      await exchange('bob');
      await expect(
        merge(first, { type: 'OIDC', token: await idp.idToken('bob') }),
      ).rejects.toMatchObject({ code: 530023, status: 400 });
      expect(await identity('bob')).toMatchObject({ provisional: true });
    });

    it.skipIf(driver !== 'postgres')(
      'answers 423 while another merge holds the identity',
      async () => {
        const issued = (await botToken('locked')).json<TokenBody>();
        const key = {
          applicationId: dev.applicationId,
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
        const holder = server.app.storage.transaction(async (tx) => {
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
      `Basic ${Buffer.from(`${dev.applicationId}:${dev.clientSecret}`).toString('base64')}`;
    const token = (body: Record<string, string>) =>
      server.app.http.inject({
        method: 'POST',
        url: '/api/oauth2/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(),
        },
        payload: new URLSearchParams(body).toString(),
      });
    const codeFor = async (userToken: string) => {
      await server.app.storage.applications.update(dev.applicationId, {
        redirectUris: [REDIRECT],
      });
      const res = await call('POST', '/oauth2/authorize', {
        auth: userToken,
        payload: {
          authorize: true,
          response_type: 'code',
          client_id: dev.applicationId,
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
      const res = await mergeWithCode(dev.userToken, issued.access_token);
      expect(res.statusCode).toBe(200);
      const body = res.json<TokenBody>();
      expect((await me(body.access_token)).json()).toMatchObject({ id: dev.userId });
      expect(await identity('http-1', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN')).toMatchObject({
        userId: dev.userId,
        provisional: false,
      });
      expect(await server.app.storage.users.findById(provisionalId)).toBeNull();
      // The account already holds this application's identity: another one is refused.
      const second = (await botToken('http-2')).json<TokenBody>();
      const refused = await mergeWithCode(dev.userToken, second.access_token);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 530023 });
      // The provisional token of a merged account is gone.
      const gone = await mergeWithCode(dev.userToken, issued.access_token);
      expect(gone.statusCode).toBe(403);
      expect(gone.json()).toMatchObject({ code: 50025 });
    });

    it('device_code grant with external_auth_* merges', async () => {
      const issued = (await botToken('console-1')).json<TokenBody>();
      await server.app.storage.applications.update(dev.applicationId, { deviceFlowEnabled: true });
      const start = await server.app.http.inject({
        method: 'POST',
        url: '/api/v10/oauth2/device/authorize',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic() },
        payload: 'scope=openid%20sdk.social_layer',
      });
      const device = start.json<{ device_code: string; user_code: string }>();
      const verified = await call('POST', '/oauth2/device/verify', {
        auth: dev.userToken,
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
        userId: dev.userId,
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
      const revoke = await server.app.http.inject({
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
      await server.app.storage.users.update(full, { globalName: name });
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
      expect((await server.app.storage.users.findById(moved?.userId ?? ''))?.globalName).toBe(
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
      await merge(full, { type: 'OIDC', token: await idp.idToken('carol') });
      const unmerge = async (subject: string) =>
        call('POST', '/partner-sdk/provisional-accounts/unmerge', {
          payload: {
            client_id: dev.applicationId,
            client_secret: dev.clientSecret,
            external_auth_type: 'OIDC',
            external_auth_token: await idp.idToken(subject),
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
          client_id: dev.applicationId,
          client_secret: 'wrong',
          external_auth_type: 'OIDC',
          external_auth_token: await idp.idToken('carol'),
        },
      });
      expect(badSecret.json()).toMatchObject({ code: 530007 });
    });
  });

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
      const elsewhere = await server.app.services.applications.create(dev.userId, {
        name: 'another game',
      });
      const otherTokens = await server.app.services.oauth.issueTokens({
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
        { application_id: dev.applicationId, user_id: moved?.userId },
      ]);
      expect(await deauthorizedEvents()).toContain(full);
      const authorization = await server.app.storage.oauth.findAuthorization(
        full,
        dev.applicationId,
      );
      expect(authorization?.revokedAt).not.toBeNull();
      // Every authorization's refresh tokens are gone, the other app's too.
      expect(
        await server.app.storage.oauth.findToken(hashSecret(otherTokens.refresh_token ?? '')),
      ).toBeNull();
      expect(
        await server.app.storage.oauth.findToken(hashSecret(tokens.refresh_token ?? '')),
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
      clock.advance(3601 * 1000);
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
      clock.advance(3650 * DAY_MS);
      const token = (await botToken('perm')).json<TokenBody>().access_token;
      const credential = { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN' as const, token };
      await expect(merge(full, credential)).rejects.toMatchObject({ code: 530017 });
      const login = () =>
        call('POST', '/auth/login', {
          payload: { login: 'perm_banned', password: 'correct horse battery' },
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
        await server.app.services.oauth.revokeAuthorization({
          userId: full,
          applicationId: dev.applicationId,
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
        (await call('PUT', `/admin/users/${target}/ban`, { auth: dev.userToken })).statusCode,
      ).toBe(401);
      expect((await ban('123')).json()).toMatchObject({ code: 10013 });
      expect((await ban(target, { duration_seconds: 0 })).json()).toMatchObject({ code: 50035 });
    });
  });

  describe('publisher-level linking', () => {
    it('exchanges a parent token for a child one of an approved link', async () => {
      const child = await server.app.services.applications.create(dev.userId, {
        name: 'child game',
      });
      const childId = child.application.id;
      const player = await person('publisher_fan');
      const parentTokens = await authorize(player);
      const body = {
        parent_access_token: parentTokens.access_token,
        child_application_id: childId,
        parent_client_secret: dev.clientSecret,
      };
      const unlinked = await call('POST', '/partner-sdk/child-token', { payload: body });
      expect(unlinked.json()).toMatchObject({ code: 10002 });

      const approve = await call(
        'PUT',
        `/admin/application-links/${dev.applicationId}/${childId}`,
        admin,
      );
      expect(approve.statusCode).toBe(200);
      clock.advance(3600 * 1000);
      const res = await call('POST', '/partner-sdk/child-token', { payload: body });
      expect(res.statusCode).toBe(200);
      const token = res.json<TokenBody>();
      expect(token.refresh_token).toBeUndefined();
      expect(token.expires_in).toBe(604800 - 3600);
      expect((await me(token.access_token)).json()).toMatchObject({ id: player });
      const stored = await server.app.storage.tokens.findByHash(hashSecret(token.access_token));
      expect(stored).toMatchObject({ applicationId: childId, userId: player });
      // It expires with the parent.
      clock.advance((604800 - 3600) * 1000);
      expect((await me(token.access_token)).statusCode).toBe(401);

      // The parent token has expired too: no more child tokens from it.
      const expired = await call('POST', '/partner-sdk/child-token', { payload: body });
      expect(expired.json()).toMatchObject({ code: 50025 });
      expect(
        (await call('DELETE', `/admin/application-links/${dev.applicationId}/${childId}`, admin))
          .statusCode,
      ).toBe(204);
    });

    it('refuses a wrong parent secret (530007)', async () => {
      const child = await server.app.services.applications.create(dev.userId, { name: 'child 2' });
      await call(
        'PUT',
        `/admin/application-links/${dev.applicationId}/${child.application.id}`,
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
