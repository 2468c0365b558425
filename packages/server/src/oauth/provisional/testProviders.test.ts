import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { uniqueName } from '../../../test/support/fileServer.js';
import { seedDeveloper } from '../../../test/support/testServer.js';
import { useProvisionalFixture, type TokenBody } from '../../../test/support/provisionalFixture.js';

/** A developer's key pair, as `openssl genpkey` would make it. */
function keyPair(type: 'ec' | 'ed25519' | 'rsa' = 'ec') {
  const pair =
    type === 'ec'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : type === 'rsa'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 })
        : generateKeyPairSync('ed25519');
  return {
    privateKey: pair.privateKey,
    publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** A test credential as a game's own CI signs it (docs/provisional-accounts.md). */
function credential(
  privateKey: KeyObject,
  claims: { aud: string; provider: string; sub: string; name?: string },
  options: { alg?: string; iss?: string; iat?: number; exp?: number } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    provider: claims.provider,
    ...(claims.name === undefined ? {} : { preferred_username: claims.name }),
  })
    .setProtectedHeader({ alg: options.alg ?? 'ES256', typ: 'JWT' })
    .setIssuer(options.iss ?? 'guildhall-test-identity')
    .setAudience(claims.aud)
    .setSubject(claims.sub)
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 600)
    .sign(privateKey);
}

describeDrivers('test identity providers on $driver', (driver) => {
  const fx = useProvisionalFixture(driver);
  const { call, me, identity } = fx;
  const providerPath = (provider: string) =>
    `/applications/${fx.dev.applicationId}/identity-providers/${provider}`;
  const register = (provider: string, publicKey: string, auth = fx.dev.userToken) =>
    call('PUT', providerPath(provider), { auth, payload: { mode: 'test', public_key: publicKey } });
  const exchange = (type: string, token: string, path = '/partner-sdk/token') =>
    call('POST', path, {
      payload: {
        client_id: fx.dev.applicationId,
        client_secret: fx.dev.clientSecret,
        external_auth_type: type,
        external_auth_token: token,
      },
    });

  it('a provider answers 530000 until its test mode is on, and again once it is off', async () => {
    const key = keyPair();
    const token = await credential(key.privateKey, {
      aud: fx.dev.applicationId,
      provider: 'steam',
      sub: '76561197960287930',
    });
    const off = await exchange('STEAM_SESSION_TICKET', token);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({ code: 530000 });

    const saved = await register('steam', key.publicPem);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      type: 'steam',
      mode: 'test',
      external_auth_types: ['STEAM_SESSION_TICKET'],
      public_key: key.publicPem,
    });
    const listed = await call('GET', `/applications/${fx.dev.applicationId}/identity-providers`, {
      auth: fx.dev.userToken,
    });
    expect(listed.json()).toEqual([saved.json()]);
    expect((await exchange('STEAM_SESSION_TICKET', token)).statusCode).toBe(200);

    const removed = await call('DELETE', providerPath('steam'), { auth: fx.dev.userToken });
    expect(removed.statusCode).toBe(204);
    expect((await exchange('STEAM_SESSION_TICKET', token)).json()).toMatchObject({
      code: 530000,
    });
    const again = await call('GET', providerPath('steam'), { auth: fx.dev.userToken });
    expect(again.json()).toMatchObject({ code: 530000 });
  });

  it('refuses keys that are not public keys of an accepted type, and strangers', async () => {
    const key = keyPair();
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    for (const bad of [key.privatePem, 'not a key', weak]) {
      const res = await register('apple', bad);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 50035, errors: { public_key: {} } });
    }
    const unknownProvider = await register('xbox', key.publicPem);
    expect(unknownProvider.json()).toMatchObject({ code: 50035, errors: { provider: {} } });
    const production = await call('PUT', providerPath('apple'), {
      auth: fx.dev.userToken,
      payload: { mode: 'production', public_key: key.publicPem },
    });
    expect(production.json()).toMatchObject({ code: 50035, errors: { mode: {} } });
    const stranger = await seedDeveloper(fx.server.app, uniqueName('stranger'));
    const refused = await register('apple', key.publicPem, stranger.userToken);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 10002 });
    expect(await fx.server.app.storage.provisional.listTestKeys(fx.dev.applicationId)).toEqual([]);
  });

  it('a Steam player: provisional account, merge through the code grant, unmerge', async () => {
    const key = keyPair();
    await register('steam', key.publicPem);
    const ticket = await credential(key.privateKey, {
      aud: fx.dev.applicationId,
      provider: 'steam',
      sub: 'steam-player-1',
      name: 'Gordon',
    });
    const first = await exchange('STEAM_SESSION_TICKET', ticket);
    expect(first.statusCode).toBe(200);
    const body = first.json<TokenBody>();
    expect(body.scope).toBe('sdk.social_layer');
    const provisional = (await me(body.access_token)).json<{ id: string; global_name: string }>();
    expect(provisional.global_name).toBe('Gordon');
    const second = (await exchange('STEAM_SESSION_TICKET', ticket)).json<TokenBody>();
    expect((await me(second.access_token)).json<{ id: string }>().id).toBe(provisional.id);

    const REDIRECT = 'https://game.example.com/callback';
    await fx.server.app.storage.applications.update(fx.dev.applicationId, {
      redirectUris: [REDIRECT],
    });
    const authorized = await call('POST', '/oauth2/authorize', {
      auth: fx.dev.userToken,
      payload: {
        authorize: true,
        response_type: 'code',
        client_id: fx.dev.applicationId,
        scope: 'openid sdk.social_layer',
        redirect_uri: REDIRECT,
      },
    });
    const code = new URL(authorized.json<{ location: string }>().location).searchParams.get('code');
    const merged = await fx.server.app.http.inject({
      method: 'POST',
      url: '/api/oauth2/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${fx.dev.applicationId}:${fx.dev.clientSecret}`).toString('base64')}`,
      },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code ?? '',
        redirect_uri: REDIRECT,
        external_auth_type: 'STEAM_SESSION_TICKET',
        external_auth_token: ticket,
      }).toString(),
    });
    expect(merged.statusCode).toBe(200);
    expect(await identity('steam-player-1', 'STEAM_SESSION_TICKET')).toMatchObject({
      userId: fx.dev.userId,
      provisional: false,
    });
    expect(await fx.server.app.storage.users.findById(provisional.id)).toBeNull();
    expect((await exchange('STEAM_SESSION_TICKET', ticket)).json()).toMatchObject({
      code: 530010,
    });

    const unmerged = await exchange(
      'STEAM_SESSION_TICKET',
      ticket,
      '/partner-sdk/provisional-accounts/unmerge',
    );
    expect(unmerged.statusCode).toBe(204);
    const back = (await exchange('STEAM_SESSION_TICKET', ticket)).json<TokenBody>();
    const restored = (await me(back.access_token)).json<{ id: string }>().id;
    expect(restored).not.toBe(fx.dev.userId);
    expect(restored).not.toBe(provisional.id);
  });

  it('each provider in test mode, with its key type; Epic access and ID tokens name one player', async () => {
    const cases = [
      { provider: 'epic', types: ['EPIC_ONLINE_SERVICES_ACCESS_TOKEN'], key: 'rsa', alg: 'PS256' },
      { provider: 'unity', types: ['UNITY_SERVICES_ID_TOKEN'], key: 'ed25519', alg: 'EdDSA' },
      { provider: 'apple', types: ['APPLE_ID_TOKEN'], key: 'ec', alg: 'ES256' },
      {
        provider: 'playstation',
        types: ['PLAYSTATION_NETWORK_ID_TOKEN'],
        key: 'rsa',
        alg: 'RS256',
      },
    ] as const;
    for (const c of cases) {
      const key = keyPair(c.key);
      expect((await register(c.provider, key.publicPem)).statusCode).toBe(200);
      const token = await credential(
        key.privateKey,
        { aud: fx.dev.applicationId, provider: c.provider, sub: `${c.provider}-7` },
        { alg: c.alg },
      );
      const res = await exchange(c.types[0], token);
      expect(res.statusCode, c.provider).toBe(200);
      const id = (await me(res.json<TokenBody>().access_token)).json<{ id: string }>().id;
      if (c.provider === 'epic') {
        const viaId = await exchange('EPIC_ONLINE_SERVICES_ID_TOKEN', token);
        expect((await me(viaId.json<TokenBody>().access_token)).json()).toMatchObject({ id });
      }
    }
    const listed = await call('GET', `/applications/${fx.dev.applicationId}/identity-providers`, {
      auth: fx.dev.userToken,
    });
    expect(listed.json<{ type: string }[]>().map((p) => p.type)).toEqual([
      'epic',
      'unity',
      'apple',
      'playstation',
    ]);
  });

  describe('refusals keep the platform codes', () => {
    it('signature, expiry, issuer, audience, provider and age', async () => {
      const key = keyPair();
      const other = keyPair();
      await register('steam', key.publicPem);
      await register('apple', key.publicPem);
      const aud = fx.dev.applicationId;
      const now = Math.floor(Date.now() / 1000);
      const cases: [Promise<string>, number][] = [
        [credential(other.privateKey, { aud, provider: 'steam', sub: 'p' }), 530020],
        [
          credential(key.privateKey, { aud, provider: 'steam', sub: 'p' }, { exp: now - 60 }),
          530001,
        ],
        [
          credential(key.privateKey, { aud, provider: 'steam', sub: 'p' }, { iss: 'steam' }),
          530002,
        ],
        [credential(key.privateKey, { aud: '1234', provider: 'steam', sub: 'p' }), 530003],
        [credential(key.privateKey, { aud, provider: 'apple', sub: 'p' }), 530003],
        [
          credential(
            key.privateKey,
            { aud, provider: 'steam', sub: 'p' },
            { iat: now - 8 * 86400, exp: now + 60 },
          ),
          530004,
        ],
        [Promise.resolve('not.a.jwt'), 530020],
      ];
      for (const [token, code] of cases) {
        const res = await exchange('STEAM_SESSION_TICKET', await token);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code });
      }
      expect(await fx.server.app.storage.provisional.listIdentitiesOfUser(fx.dev.userId)).toEqual(
        [],
      );
    });
  });
});
