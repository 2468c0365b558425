import { describe, expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { basic, challenge, useOAuthFixture, verifier } from '../../test/support/oauthFixture.js';
import { loopbackWithoutPort } from './authorize.js';

describe('loopbackWithoutPort', () => {
  it('strips the port of a loopback http URI and nothing else', () => {
    expect(loopbackWithoutPort('http://127.0.0.1:53127/callback')).toBe(
      'http://127.0.0.1/callback',
    );
    expect(loopbackWithoutPort('http://[::1]:8080/cb?a=1')).toBe('http://[::1]/cb?a=1');
    expect(loopbackWithoutPort('http://127.0.0.1:65535')).toBe('http://127.0.0.1');
    expect(loopbackWithoutPort('http://127.0.0.1:1?x')).toBe('http://127.0.0.1?x');
    for (const refused of [
      'http://127.0.0.1/callback', // no port: matched exactly or not at all
      'http://localhost:8080/callback',
      'https://127.0.0.1:8080/callback',
      'http://127.0.0.2:8080/callback',
      'http://127.0.0.1:0/callback',
      'http://127.0.0.1:65536/callback',
      'http://127.0.0.1:080/callback',
      'http://127.0.0.1:80@evil.test/callback',
      'http://127.0.0.1:80.evil.test/callback',
      'http://127.0.0.1:8080#frag',
      'HTTP://127.0.0.1:8080/callback',
      'http://[::1]x:8080/callback',
    ]) {
      expect(loopbackWithoutPort(refused), refused).toBeNull();
    }
  });
});

describeDrivers('OAuth2 loopback redirects (RFC 8252 §7.3) on $driver', (driver) => {
  const fx = useOAuthFixture(driver);

  const authorize = (redirectUri: string, v: string) =>
    fx.decide({
      scope: 'identify',
      redirect_uri: redirectUri,
      state: 's1',
      code_challenge: challenge(v),
      code_challenge_method: 'S256',
    });

  const register = (uris: string[]) =>
    fx.server.app.storage.applications.update(fx.seed.applicationId, { redirectUris: uris });

  it('a port-less loopback registration allows any port; the token request repeats it exactly', async () => {
    await register(['http://127.0.0.1/callback', 'http://[::1]/cb?game=1']);
    const v = verifier();
    const res = await authorize('http://127.0.0.1:53127/callback', v);
    expect(res.statusCode).toBe(200);
    const location = new URL(res.json<{ location: string }>().location);
    expect(location.origin + location.pathname).toBe('http://127.0.0.1:53127/callback');
    expect(location.searchParams.get('state')).toBe('s1');
    const code = location.searchParams.get('code') ?? '';

    // Another port, or the registered URI itself, is not the authorize request's URI.
    for (const other of ['http://127.0.0.1:53128/callback', 'http://127.0.0.1/callback']) {
      const refused = await fx.token(
        { grant_type: 'authorization_code', code, redirect_uri: other, code_verifier: v },
        basic(fx.seed),
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'invalid_grant' });
    }
    const granted = await fx.token(
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://127.0.0.1:53127/callback',
        code_verifier: v,
      },
      basic(fx.seed),
    );
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ token_type: 'Bearer', scope: 'identify' });

    // IPv6 loopback, with the registered query.
    const v6 = await authorize('http://[::1]:9000/cb?game=1', verifier());
    expect(v6.statusCode).toBe(200);
    expect(v6.json<{ location: string }>().location).toMatch(
      /^http:\/\/\[::1\]:9000\/cb\?game=1&code=/,
    );
  });

  it('only the port may differ, and only on 127.0.0.1 and [::1]', async () => {
    await register(['http://127.0.0.1/callback', 'http://localhost/callback']);
    for (const refused of [
      'http://localhost:8080/callback', // registered, but localhost never gets a free port
      'http://127.0.0.1:8080/callback/',
      'http://127.0.0.1:8080/other',
      'http://127.0.0.1:8080/callback?x=1',
      'https://127.0.0.1:8080/callback',
      'http://[::1]:8080/callback', // another host than the registered one
      'http://127.0.0.1:80@evil.test/callback',
      'http://127.0.0.1:0/callback',
      'http://127.0.0.1:70000/callback',
    ]) {
      const res = await authorize(refused, verifier());
      expect(res.statusCode, refused).toBe(400);
      expect(res.json(), refused).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('a registration with a port is matched exactly', async () => {
    await register(['http://127.0.0.1:5173/callback.html']);
    expect((await authorize('http://127.0.0.1:5173/callback.html', verifier())).statusCode).toBe(
      200,
    );
    expect((await authorize('http://127.0.0.1:5174/callback.html', verifier())).statusCode).toBe(
      400,
    );
  });

  it('the consent page accepts a loopback port and lets its form post there', async () => {
    await register(['http://127.0.0.1/callback']);
    const page = await fx.inject({
      method: 'GET',
      url: `/oauth2/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: fx.seed.applicationId,
        scope: 'identify',
        redirect_uri: 'http://127.0.0.1:41234/callback',
        code_challenge: challenge(verifier()),
        code_challenge_method: 'S256',
      }).toString()}`,
      headers: { cookie: `guildhall_session=${fx.seed.userToken}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain(
      "form-action 'self' http://127.0.0.1:41234",
    );
  });
});
