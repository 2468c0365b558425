import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import {
  advanceToNextTest,
  sharedClock,
  uniqueName,
  useFileServer,
} from '../../test/support/fileServer.js';
import {
  REDIRECT,
  basic,
  challenge,
  tokenRequest,
  verifier,
} from '../../test/support/oauthFixture.js';
import { seedDeveloper, type TestServer } from '../../test/support/testServer.js';
import { hashSecret } from '../domain/credentials.js';
import { MINUTE_MS } from '../domain/time.js';
import { DEVICE_CODE_GRANT } from './deviceFlow.js';
import { SCOPE_GRANTS, SCOPE_GRANT_KINDS, type ScopeGrant } from './scopeGrants.js';
import { SCOPES, SCOPE_EXPANSIONS } from './scopes.js';

type Seed = Awaited<ReturnType<typeof seedDeveloper>>;
/** What one flow did with a scope: the scopes granted (null: consent shown, no code), or why not. */
type Outcome = { granted: string[] | null } | { error: string | null };

const DOC = fileURLToPath(new URL('../../../../docs/oauth.md', import.meta.url));

/** The rows of docs/oauth.md's "Scopes and grants" table: scope → the grants ticked. */
async function documentedTable(): Promise<Record<string, ScopeGrant[]>> {
  const text = await readFile(DOC, 'utf8');
  const section = text.slice(text.indexOf('### Scopes and grants'));
  const lines = section.split('\n');
  const first = lines.findIndex((line) => line.startsWith('| Scope'));
  const end = lines.findIndex((line, i) => i > first && !line.startsWith('|'));
  const rows: Record<string, ScopeGrant[]> = {};
  for (const line of lines.slice(first, end)) {
    const cells = line.split('|').map((cell) => cell.trim());
    const scope = /^`([\w.]+)`$/.exec(cells[1] ?? '')?.[1];
    if (scope === undefined) continue;
    rows[scope] = SCOPE_GRANT_KINDS.filter((_grant, i) => cells[i + 2] === '✓');
  }
  return rows;
}

describe('the scope table', () => {
  it('has one row per known scope, as docs/oauth.md shows it', async () => {
    expect(Object.keys(SCOPE_GRANTS).sort()).toEqual(Object.keys(SCOPES).sort());
    const documented = await documentedTable();
    expect(documented).toEqual(
      Object.fromEntries(
        Object.entries(SCOPE_GRANTS).map(([scope, grants]) => [scope, [...grants]]),
      ),
    );
  });

  it('a meta-scope expands only to scopes every grant carrying it may carry', () => {
    for (const [meta, implied] of Object.entries(SCOPE_EXPANSIONS)) {
      for (const scope of implied) {
        const missing = (SCOPE_GRANTS[meta] ?? []).filter(
          (grant) => !(SCOPE_GRANTS[scope] ?? []).includes(grant),
        );
        expect(missing, `${meta} → ${scope}`).toEqual([]);
      }
    }
  });
});

/**
 * Each row of the table through the real flows: the page (a confidential client, and a public
 * one with PKCE), local authorize, the device flow and client credentials. A grant the row names
 * issues a token with the scope; any other is refused with invalid_scope.
 */
describeDrivers('every grant keeps to the scope table on $driver', (driver) => {
  // The worker's server of the OAuth2 fixture (oauthFixture.ts: the same settings and clock),
  // moved on from where its last test left it.
  const clock = sharedClock(`oauth:${driver}`, Date.UTC(2026, 10, 22));
  const shared = useFileServer({ storage: driver, clock }, 'oauth');
  let server: TestServer;
  /** A confidential application with every approval its scopes may need. */
  let owner: Seed;
  /** A public client (PKCE, no secret) of another developer. */
  let game: Seed;
  /** Someone else, who authorizes both applications for themselves. */
  let person: Seed;

  beforeAll(async () => {
    advanceToNextTest(clock, Date.UTC(2026, 10, 22));
    server = shared.server;
    owner = await seedDeveloper(server.app, uniqueName('owner'));
    game = await seedDeveloper(server.app, uniqueName('game'));
    person = await seedDeveloper(server.app, uniqueName('mallory'));
    const settings = {
      redirectUris: [REDIRECT],
      deviceFlowEnabled: true,
      identifyPremiumApproved: true,
      socialSdkTermsAccepted: true,
    };
    await server.app.storage.applications.update(owner.applicationId, settings);
    await server.app.storage.applications.update(game.applicationId, {
      ...settings,
      publicClient: true,
    });
  });

  const inject = (options: InjectOptions) => server.app.http.inject(options);
  const token = (body: Record<string, string>, authorization?: string) =>
    tokenRequest(server, body, authorization);
  /** A token endpoint answer as an outcome. */
  const issued = (res: Awaited<ReturnType<typeof inject>>): Outcome => {
    if (res.statusCode !== 200) return { error: res.json<{ error: string }>().error };
    return { granted: res.json<{ scope: string }>().scope.split(' ') };
  };

  /** The consent page, then (past a bot install) the decision and the code's exchange. */
  const page = async (app: Seed, scope: string, pkce: boolean): Promise<Outcome> => {
    const v = verifier();
    const params = {
      response_type: 'code',
      client_id: app.applicationId,
      scope,
      redirect_uri: REDIRECT,
      state: 's',
      ...(pkce ? { code_challenge: challenge(v), code_challenge_method: 'S256' } : {}),
    };
    const shown = await inject({
      method: 'GET',
      url: `/oauth2/authorize?${new URLSearchParams(params).toString()}`,
      headers: { cookie: `guildhall_session=${person.userToken}` },
    });
    if (shown.statusCode === 302) {
      const back = new URL(String(shown.headers.location));
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get('code')).toBeNull();
      return { error: back.searchParams.get('error') };
    }
    expect(shown.statusCode, shown.body).toBe(200);
    if (scope === 'bot') return { granted: null };
    const decided = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/authorize',
      headers: { authorization: person.userToken },
      payload: { ...params, authorize: true },
    });
    const code = new URL(decided.json<{ location: string }>().location).searchParams.get('code');
    const exchange = { grant_type: 'authorization_code', code: code ?? '', redirect_uri: REDIRECT };
    return issued(
      pkce
        ? await token({ ...exchange, client_id: app.applicationId, code_verifier: v })
        : await token(exchange, basic(app)),
    );
  };

  /** A local authorize by the person's running client, and the code's exchange. */
  const local = async (scope: string): Promise<Outcome> => {
    const decided = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/authorize/local',
      headers: { authorization: person.userToken },
      payload: { client_id: owner.applicationId, scope, response_type: 'code', authorize: 'true' },
    });
    if (decided.statusCode !== 200) return { error: decided.json<{ error: string }>().error };
    const { code } = decided.json<{ code: string }>();
    return issued(await token({ grant_type: 'authorization_code', code }, basic(owner)));
  };

  /** The device flow: authorization, the person's approval, the poll. */
  const device = async (scope: string): Promise<Outcome> => {
    const started = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/device/authorize',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(owner),
      },
      payload: new URLSearchParams({ scope }).toString(),
    });
    if (started.statusCode !== 200) return { error: started.json<{ error: string }>().error };
    const codes = started.json<{ device_code: string; user_code: string }>();
    const verified = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/device/verify',
      headers: { authorization: person.userToken },
      payload: { user_code: codes.user_code, authorize: true },
    });
    expect(verified.statusCode).toBe(200);
    return issued(
      await token({ grant_type: DEVICE_CODE_GRANT, device_code: codes.device_code }, basic(owner)),
    );
  };

  const clientCredentials = async (scope: string): Promise<Outcome> =>
    issued(await token({ grant_type: 'client_credentials', scope }, basic(owner)));

  it.each(Object.keys(SCOPES))('%s: only the grants of its row carry it', async (scope) => {
    clock.advance(MINUTE_MS + 1); // a fresh token-endpoint bucket for each row
    const outcomes: [string, ScopeGrant, Outcome][] = [
      ['page', 'page', await page(owner, scope, false)],
      ['page with PKCE (public client)', 'page', await page(game, scope, true)],
      ['local', 'local', await local(scope)],
      ['device', 'device', await device(scope)],
      ['client credentials', 'client_credentials', await clientCredentials(scope)],
    ];
    const allowed = SCOPE_GRANTS[scope] ?? [];
    for (const [flow, grant, outcome] of outcomes) {
      if (!allowed.includes(grant)) {
        expect(outcome, flow).toEqual({ error: 'invalid_scope' });
      } else if (scope === 'bot') {
        expect(outcome, flow).toEqual({ granted: null });
      } else {
        expect('granted' in outcome ? outcome.granted : outcome, flow).toContain(scope);
      }
    }
    // A scope no person's grant may carry is not recorded for the person either.
    if (!allowed.some((grant) => grant !== 'client_credentials')) {
      for (const app of [owner, game]) {
        const kept = await server.app.storage.oauth.findAuthorization(
          person.userId,
          app.applicationId,
        );
        expect(kept?.scopes ?? []).not.toContain(scope);
      }
    }
  });

  it('codes, device codes and refresh tokens issued under older rules buy no owner-only scope', async () => {
    clock.advance(MINUTE_MS + 1);
    const oauth = server.app.services.oauth;
    const storage = server.app.storage;
    const now = clock.now();
    // Someone of this test's own (the rows check what the person's authorization holds).
    const earlier = await seedDeveloper(server.app, uniqueName('earlier'));
    // A grant they made before the table: a live authorization and a refresh token.
    const old = await oauth.issueTokens({
      userId: earlier.userId,
      applicationId: owner.applicationId,
      scopes: ['identify', 'applications.commands.update'],
      refresh: true,
    });
    const refresh = (extra: Record<string, string> = {}) =>
      token(
        { grant_type: 'refresh_token', refresh_token: old.refresh_token ?? '', ...extra },
        basic(owner),
      );
    const widened = await refresh();
    expect(widened.statusCode).toBe(400);
    expect(widened.json()).toMatchObject({ error: 'invalid_scope' });
    // The refused refresh did not use the refresh token up: a narrower one still works.
    const narrowed = await refresh({ scope: 'identify' });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect(narrowed.json()).toMatchObject({ scope: 'identify' });

    const code = randomBytes(32).toString('base64url');
    await storage.oauth.createCode({
      hash: hashSecret(code),
      applicationId: owner.applicationId,
      userId: earlier.userId,
      scopes: ['applications.commands.update'],
      redirectUri: REDIRECT,
      codeChallenge: null,
      nonce: null,
      authTime: now,
      createdAt: now,
      expiresAt: now + MINUTE_MS,
      usedAt: null,
    });
    const redeemed = await token(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      basic(owner),
    );
    expect(redeemed.statusCode).toBe(400);
    expect(redeemed.json()).toMatchObject({ error: 'invalid_scope' });

    const deviceCode = randomBytes(32).toString('base64url');
    await storage.oauth.createDeviceCode({
      hash: hashSecret(deviceCode),
      userCode: 'BCDF-GHJK',
      applicationId: owner.applicationId,
      scopes: ['applications.store.update'],
      status: 'approved',
      userId: earlier.userId,
      createdAt: now,
      expiresAt: now + MINUTE_MS,
      lastPolledAt: null,
      intervalSeconds: 5,
    });
    const polled = await token(
      { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode },
      basic(owner),
    );
    expect(polled.statusCode).toBe(400);
    expect(polled.json()).toMatchObject({ error: 'invalid_scope' });
    expect((await storage.oauth.findDeviceCode(hashSecret(deviceCode)))?.status).toBe('approved');
  });
});
