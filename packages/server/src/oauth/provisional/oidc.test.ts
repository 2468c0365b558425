import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startRedirectingIssuer,
  startTestIdp,
  type TestIdp,
} from '../../../test/support/oidcIdp.js';
import { manualClock } from '../../domain/clock.js';
import { createOidcVerifier, issuerProblem } from './oidc.js';

describe('issuerProblem (the issuer hostname rules)', () => {
  it.each([
    'https://login.example.com',
    'https://login.example.com:8443/tenant',
    'https://idp.example.co.uk/',
  ])('accepts %s', (issuer) => {
    expect(issuerProblem(issuer, false)).toBeNull();
  });

  it.each([
    ['http://login.example.com', 'must use https'],
    ['https://user:pw@login.example.com', 'must not carry credentials'],
    ['https://login.example.com/?tenant=1', 'must not have a query'],
    ['https://login.example.com/#x', 'must not have a fragment'],
    ['https://localhost', 'must have a host name of at least two labels'],
    ['https://idp', 'must have a host name of at least two labels'],
    ['https://idp.local', 'must not be a .local, .arpa, .internal or .localhost host'],
    ['https://1.0.0.10.in-addr.arpa', 'must not be a .local, .arpa, .internal or .localhost host'],
    ['https://auth.corp.internal', 'must not be a .local, .arpa, .internal or .localhost host'],
    ['https://app.localhost', 'must not be a .local, .arpa, .internal or .localhost host'],
    ['https://10.0.0.1', 'must name a host, not an IP address'],
    ['https://[::1]:8443', 'must name a host, not an IP address'],
    ['http://127.0.0.1:9000', 'must use https'],
    ['not a url', 'must be an absolute URL'],
  ])('refuses %s (%s)', (issuer, problem) => {
    expect(issuerProblem(issuer, false)).toBe(problem);
  });

  it('accepts http://127.0.0.1 only when the operator allows local development', () => {
    expect(issuerProblem('http://127.0.0.1:9000', true)).toBeNull();
    expect(issuerProblem('https://10.0.0.1', true)).toBe('must name a host, not an IP address');
  });
});

describe('ID token verification against oidc-provider', () => {
  let idp: TestIdp;
  beforeAll(async () => {
    idp = await startTestIdp({ idTokenTtlSeconds: 30 * 24 * 3600 });
  });
  afterAll(() => idp.close());

  const provider = () => ({
    issuer: idp.issuer,
    clientId: idp.clientId,
    validation: 'strict' as const,
  });
  const verifier = (clock = manualClock(Date.now())) =>
    createOidcVerifier({ clock, allowInsecureLocal: true });

  it('verifies a token from the provider: discovery, JWKS, claims', async () => {
    const verified = await verifier().verify(await idp.idToken('alice'), provider());
    expect(verified).toEqual({ subject: 'alice', preferredUsername: 'player-alice' });
  });

  it.each([
    ['not a JWT', 530020],
    ['a.b.c', 530020],
  ])('refuses a malformed token %s', async (token, code) => {
    await expect(verifier().verify(token, provider())).rejects.toMatchObject({ code });
  });

  it('a legacy configuration is held to the address rules: no loopback unless allowed', async () => {
    // Legacy relaxes only the hostname rules: with local development off, the provider on
    // 127.0.0.1 is an internal address, refused before any connection (delivery/urlPolicy.ts).
    const legacy = { ...provider(), validation: 'legacy' as const };
    const token = await idp.idToken('alice');
    const strictServer = createOidcVerifier({
      clock: manualClock(Date.now()),
      allowInsecureLocal: false,
    });
    await expect(strictServer.verify(token, legacy)).rejects.toMatchObject({ code: 530008 });
    await expect(verifier().verify(token, legacy)).resolves.toMatchObject({ subject: 'alice' });
  });

  it('refuses a token without kid (530027) and a symmetric one (530020)', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const claims = { sub: 'x', aud: idp.clientId };
    const noKid = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(idp.issuer)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    await expect(verifier().verify(noKid, provider())).rejects.toMatchObject({ code: 530027 });
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: 'k' })
      .setIssuer(idp.issuer)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new Uint8Array(32));
    await expect(verifier().verify(hs, provider())).rejects.toMatchObject({ code: 530020 });
  });

  it('refuses a token signed by a key outside the JWKS (530020)', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sub: 'x', aud: idp.clientId })
      .setProtectedHeader({ alg: 'ES256', kid: 'test-rs256' })
      .setIssuer(idp.issuer)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    await expect(verifier().verify(forged, provider())).rejects.toMatchObject({ code: 530020 });
  });

  it('refuses another issuer (530002) and another audience (530003)', async () => {
    const token = await idp.idToken('bob');
    await expect(
      verifier().verify(token, { ...provider(), issuer: 'https://login.example.com' }),
    ).rejects.toMatchObject({ code: 530002 });
    const other = await idp.idToken('bob', { client: 'other-game' });
    await expect(verifier().verify(other, provider())).rejects.toMatchObject({ code: 530003 });
  });

  it('refuses an expired token (530001) and one issued over 7 days ago (530004)', async () => {
    const token = await idp.idToken('carol');
    const clock = manualClock(Date.now() + 8 * 24 * 3600 * 1000);
    await expect(verifier(clock).verify(token, provider())).rejects.toMatchObject({
      code: 530004,
    });
    clock.advance(30 * 24 * 3600 * 1000);
    await expect(verifier(clock).verify(token, provider())).rejects.toMatchObject({
      code: 530001,
    });
  });

  it('refuses a redirected discovery document (530008) and a redirected JWKS (530009)', async () => {
    const token = await idp.idToken('dave');
    const viaDiscovery = await startRedirectingIssuer(idp, 'discovery');
    const viaJwks = await startRedirectingIssuer(idp, 'jwks');
    try {
      await expect(verifier().checkProvider(viaDiscovery.issuer)).rejects.toMatchObject({
        code: 530008,
      });
      await expect(verifier().checkProvider(viaJwks.issuer)).rejects.toMatchObject({
        code: 530009,
      });
      // At an exchange too: a token naming the redirecting issuer gets no further than discovery.
      const { privateKey } = await generateKeyPair('RS256');
      const named = await new SignJWT({ sub: 'dave', aud: idp.clientId })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(viaDiscovery.issuer)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
      await expect(
        verifier().verify(named, { ...provider(), issuer: viaDiscovery.issuer }),
      ).rejects.toMatchObject({ code: 530008 });
      expect(token).not.toBe(named);
    } finally {
      await viaDiscovery.close();
      await viaJwks.close();
    }
  });

  it('refuses an unreachable or oversized discovery document (530008)', async () => {
    const unreachable = createOidcVerifier({
      clock: manualClock(Date.now()),
      allowInsecureLocal: true,
      limits: { timeoutMs: 2000, maxBytes: 64, cacheMs: 0 },
    });
    await expect(unreachable.checkProvider(idp.issuer)).rejects.toMatchObject({ code: 530008 });
    await expect(verifier().checkProvider('http://127.0.0.1:1')).rejects.toMatchObject({
      code: 530008,
    });
  });

  it('refuses, on save, an issuer that breaks the hostname rules (50035)', async () => {
    const strict = createOidcVerifier({
      clock: manualClock(Date.now()),
      allowInsecureLocal: false,
    });
    await expect(strict.checkProvider(idp.issuer)).rejects.toMatchObject({
      code: 50035,
      errors: { issuer: { _errors: [{ code: 'OIDC_ISSUER_INVALID', message: 'must use https' }] } },
    });
  });
});

describe('JWKS refetch for unknown kids', () => {
  it('refetches at most once a minute per issuer, sharing one fetch', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    let jwksFetches = 0;
    const server = createServer((req, res) => {
      const origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') {
        res.end(
          JSON.stringify({
            issuer: origin,
            jwks_uri: `${origin}/jwks`,
            id_token_signing_alg_values_supported: ['RS256'],
          }),
        );
      } else {
        jwksFetches += 1;
        res.end(JSON.stringify({ keys: [jwk] }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const issuer = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
      const clock = manualClock(Date.now());
      const verifier = createOidcVerifier({ clock, allowInsecureLocal: true });
      const sign = (kid: string) =>
        new SignJWT({ sub: 'alice', aud: 'game' })
          .setProtectedHeader({ alg: 'RS256', kid })
          .setIssuer(issuer)
          .setIssuedAt(Math.floor(clock.now() / 1000))
          .setExpirationTime(Math.floor(clock.now() / 1000) + 3600)
          .sign(privateKey);
      const provider = { issuer, clientId: 'game', validation: 'strict' as const };
      await expect(verifier.verify(await sign('k1'), provider)).resolves.toMatchObject({
        subject: 'alice',
      });
      expect(jwksFetches).toBe(1);
      const forged = await sign('made-up');
      for (let i = 0; i < 5; i += 1) {
        await expect(verifier.verify(forged, provider)).rejects.toMatchObject({ code: 530020 });
      }
      expect(jwksFetches).toBe(1);
      clock.advance(61_000);
      await expect(
        Promise.all([verifier.verify(forged, provider), verifier.verify(forged, provider)]),
      ).rejects.toMatchObject({ code: 530020 });
      expect(jwksFetches).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    }
  });
});
