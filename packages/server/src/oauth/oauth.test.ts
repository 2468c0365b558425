import * as client from 'openid-client';
import { beforeEach, expect, it } from 'vitest';
import { uniqueName, useFileServer } from '../../test/support/fileServer.js';
import { describeDrivers } from '../../test/support/drivers.js';
import { expectOpenApiResponse } from '../../test/support/openapi.js';
import { seedDeveloper, type TestServer } from '../../test/support/testServer.js';
import { apiRequest } from '../../test/support/inject.js';

const REDIRECT = 'http://127.0.0.1/callback';

type Seed = Awaited<ReturnType<typeof seedDeveloper>>;

/** Posts the consent decision as JSON with the user's session token; returns the location. */
async function consent(
  server: TestServer,
  seed: Seed,
  params: Record<string, string | boolean>,
): Promise<{ status: number; body: { location?: string; error?: string } }> {
  const res = await apiRequest(server.app, 'POST /oauth2/authorize', {
    auth: seed.userToken,
    payload: { authorize: true, ...params },
  });
  return { status: res.statusCode, body: res.json<{ location?: string; error?: string }>() };
}

describeDrivers('OAuth2 with openid-client on $driver', (driver) => {
  let server: TestServer;
  let seed: Seed;
  let config: client.Configuration;

  const shared = useFileServer({ storage: driver, listen: true });
  beforeEach(async () => {
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('ada'), 'ada app');
    await server.app.storage.applications.update(seed.applicationId, { redirectUris: [REDIRECT] });
    await server.app.storage.users.update(seed.userId, { verified: true });
    config = await client.discovery(
      new URL(server.baseUrl),
      seed.applicationId,
      undefined,
      client.ClientSecretBasic(seed.clientSecret),
      // The test server speaks plain HTTP on 127.0.0.1; this is the library's switch for that.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      { execute: [client.allowInsecureRequests] },
    );
  });

  /** authorize → consent → callback URL, as a relying party would see it. */
  async function authorize(scope = 'openid identify email') {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const decision = await consent(server, seed, Object.fromEntries(url.searchParams));
    expect(decision.status).toBe(200);
    const location = new URL(decision.body.location ?? '');
    expect(location.searchParams.get('state')).toBe(state);
    return { location, verifier, state, nonce };
  }

  it('discovery names absolute endpoints under the issuer', async () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(server.baseUrl);
    for (const endpoint of [
      metadata.authorization_endpoint,
      metadata.token_endpoint,
      metadata.jwks_uri,
      metadata.userinfo_endpoint,
      metadata.revocation_endpoint,
    ]) {
      expect(endpoint?.startsWith(`${server.baseUrl}/`)).toBe(true);
    }
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    const keys = await server.app.http.inject({ method: 'GET', url: '/api/v10/oauth2/keys' });
    expectOpenApiResponse(keys, 'GET', '/oauth2/keys');
    expect(JSON.stringify(keys.json())).not.toContain('"d"');
  });

  it('code with PKCE → tokens with a verified ID token, userinfo, refresh, revoke', async () => {
    const { location, verifier, state, nonce } = await authorize();
    const tokens = await client.authorizationCodeGrant(config, location, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(604800);
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'identify', 'openid']);
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: server.baseUrl,
      sub: seed.userId,
      aud: seed.applicationId,
      nonce,
      email: `${seed.username}@example.test`,
      email_verified: true,
      preferred_username: seed.username,
    });
    expect(typeof claims?.auth_time).toBe('number');

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, seed.userId);
    expect(userinfo).toMatchObject({ sub: seed.userId, email: `${seed.username}@example.test` });
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const info = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/oauth2/userinfo',
      headers: bearer,
    });
    expectOpenApiResponse(info, 'GET', '/oauth2/userinfo');
    const me = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/oauth2/@me',
      headers: bearer,
    });
    expect(me.statusCode).toBe(200);
    expectOpenApiResponse(me, 'GET', '/oauth2/@me');
    expect(me.json()).toMatchObject({
      application: { id: seed.applicationId },
      user: { id: seed.userId },
    });

    const refreshToken = tokens.refresh_token ?? '';
    const refreshed = await client.refreshTokenGrant(config, refreshToken);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(refreshToken);
    // Rotation: the old refresh token is dead.
    await expect(client.refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    await client.tokenRevocation(config, refreshed.access_token);
    const after = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    });
    expect(after.statusCode).toBe(401);
    // Revoking one token ended the whole authorization: the refresh token is dead too.
    await expect(
      client.refreshTokenGrant(config, refreshed.refresh_token ?? ''),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    const authorization = await server.app.storage.oauth.findAuthorization(
      seed.userId,
      seed.applicationId,
    );
    expect(authorization?.revokedAt).not.toBeNull();
  });

  it('a code used twice is refused and what it bought is revoked', async () => {
    const { location, verifier, state } = await authorize('identify');
    const tokens = await client.authorizationCodeGrant(config, location, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    await expect(
      client.authorizationCodeGrant(config, location, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    const me = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.statusCode).toBe(401);
  });

  it('a wrong code_verifier is invalid_grant', async () => {
    const { location, state } = await authorize('identify');
    await expect(
      client.authorizationCodeGrant(config, location, {
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
        expectedState: state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});
