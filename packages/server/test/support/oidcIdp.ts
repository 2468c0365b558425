import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** The grant the test identity provider answers with a bare ID token for a subject. */
const ID_TOKEN_GRANT = 'urn:guildhall:test:id-token';

export interface TestIdp {
  /** http://127.0.0.1:<port>, the provider's issuer. */
  issuer: string;
  /** The client id ID tokens are issued to by default (their `aud`). */
  clientId: string;
  /** An ID token from the provider's own signing code, for `subject`. */
  idToken(subject: string, options?: { client?: string }): Promise<string>;
  close(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => {
        if (err) reject(err);
        else resolve();
      });
    });
  return { origin: `http://127.0.0.1:${String(port)}`, server, close };
}

/**
 * oidc-provider on 127.0.0.1 as a game's identity provider: discovery, JWKS and RS256 ID tokens
 * signed with its keys. ID tokens are issued through a custom grant (the provider's
 * registerGrantType extension) so tests need no browser login; the token itself is the
 * provider's IdToken model, as in its code flow.
 */
export async function startTestIdp(options: { idTokenTtlSeconds?: number } = {}): Promise<TestIdp> {
  const clients = ['game', 'other-game'];
  let provider: Provider | null = null;
  const http = await listen((req, res) => {
    if (provider === null) res.writeHead(503).end();
    else provider.callback()(req, res);
  });
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  provider = new Provider(http.origin, {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-rs256', use: 'sig' }] },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['guildhall-test-idp'] },
    clients: clients.map((client_id) => ({
      client_id,
      client_secret: `${client_id}-secret`,
      grant_types: [ID_TOKEN_GRANT],
      response_types: [],
      redirect_uris: [],
      id_token_signed_response_alg: 'RS256',
    })),
    ttl: { IdToken: options.idTokenTtlSeconds ?? 3600 },
    claims: { openid: ['sub'], profile: ['preferred_username'] },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, preferred_username: `player-${sub}` }),
    }),
  });
  provider.registerGrantType(
    ID_TOKEN_GRANT,
    async (ctx) => {
      const { client, params } = ctx.oidc;
      const subject = typeof params?.['subject'] === 'string' ? params['subject'] : '';
      const account = await ctx.oidc.provider.Account.findAccount(ctx, subject);
      const claims = await account.claims('id_token', 'openid profile', {}, []);
      const token = new ctx.oidc.provider.IdToken(claims, { ctx, client });
      token.scope = 'openid profile';
      ctx.body = { id_token: await token.issue({ use: 'idtoken' }), token_type: 'Bearer' };
    },
    ['subject'],
  );
  const issuer = http.origin;
  return {
    issuer,
    clientId: 'game',
    async idToken(subject, { client = 'game' } = {}) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client}:${client}-secret`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: ID_TOKEN_GRANT, subject }).toString(),
      });
      const body = (await res.json()) as { id_token?: string };
      if (body.id_token === undefined) throw new Error(`no ID token: ${JSON.stringify(body)}`);
      return body.id_token;
    },
    close: http.close,
  };
}

/**
 * An issuer whose discovery document (or, with `redirect: 'jwks'`, whose JWKS) answers 302 to
 * the real provider: the exchange must refuse to follow it.
 */
export async function startRedirectingIssuer(target: TestIdp, redirect: 'discovery' | 'jwks') {
  let origin = '';
  const http = await listen((req, res) => {
    if (req.url === '/.well-known/openid-configuration' && redirect === 'discovery') {
      res.writeHead(302, { location: `${target.issuer}/.well-known/openid-configuration` }).end();
    } else if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          issuer: origin,
          jwks_uri: `${origin}/jwks`,
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
    } else {
      res.writeHead(302, { location: `${target.issuer}/jwks` }).end();
    }
  });
  origin = http.origin;
  return { issuer: origin, close: http.close };
}
