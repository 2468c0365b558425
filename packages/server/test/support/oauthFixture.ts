/**
 * The OAuth2 test fixture: a server per driver (the worker's files share it), and per test a developer whose app has
 * one registered redirect URI (and the device flow on), and the requests every OAuth2 test makes (token, consent, codes).
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { Driver } from './drivers.js';
import {
  advanceToNextTest,
  perTest,
  sharedClock,
  uniqueName,
  useFileServer,
} from './fileServer.js';
import { seedDeveloper, type TestServer } from './testServer.js';
import { apiRequest } from './inject.js';

export const REDIRECT = 'https://app.example.test/callback';
export type Seed = Awaited<ReturnType<typeof seedDeveloper>>;

export const verifier = () => randomBytes(32).toString('base64url');
export const challenge = (v: string) => createHash('sha256').update(v).digest('base64url');
export const basic = (seed: Seed) =>
  `Basic ${Buffer.from(`${seed.applicationId}:${seed.clientSecret}`).toString('base64')}`;

/** POST /api/oauth2/token with `body` as a form, and an Authorization header when given. */
export const tokenRequest = (
  server: TestServer,
  body: Record<string, string>,
  authorization?: string,
) =>
  server.app.http.inject({
    method: 'POST',
    url: '/api/oauth2/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(authorization === undefined ? {} : { authorization }),
    },
    payload: new URLSearchParams(body).toString(),
  });

/**
 * Registers the server of one driver (inside `describeDrivers`, which skips an unreachable one)
 * and each test's developer; its fields are read inside tests.
 */
export function useOAuthFixture(driver: Driver) {
  const clock = sharedClock(`oauth:${driver}`, Date.UTC(2026, 10, 22));
  const shared = useFileServer({ storage: driver, clock }, 'oauth');
  const current = perTest(async () => {
    advanceToNextTest(clock, Date.UTC(2026, 10, 22));
    const { server } = shared;
    const seed = await seedDeveloper(server.app, uniqueName('ada'), 'ada app');
    await server.app.storage.applications.update(seed.applicationId, {
      redirectUris: [REDIRECT],
      deviceFlowEnabled: true,
    });
    return { server, seed };
  });
  const server = (): TestServer => current().server;
  const seed = (): Seed => current().seed;
  const inject = (options: InjectOptions) => server().app.http.inject(options);
  const token = (body: Record<string, string>, authorization?: string) =>
    tokenRequest(server(), body, authorization);
  /** The JSON consent decision with the user's session token. */
  const decide = (payload: Record<string, unknown>, userToken = seed().userToken) =>
    apiRequest(server().app, 'POST /oauth2/authorize', {
      auth: userToken,
      payload: {
        authorize: true,
        response_type: 'code',
        client_id: seed().applicationId,
        ...payload,
      },
    });
  /** A code granted with a PKCE challenge, redirected to REDIRECT with state `xyz`. */
  const codeFor = async (scope = 'identify', v = verifier()) => {
    const res = await decide({
      scope,
      redirect_uri: REDIRECT,
      state: 'xyz',
      code_challenge: challenge(v),
      code_challenge_method: 'S256',
    });
    expect(res.statusCode).toBe(200);
    const location = new URL(res.json<{ location: string }>().location);
    return { code: location.searchParams.get('code') ?? '', verifier: v, location };
  };

  /**
   * Logs the seed in on the consent pages' form, as a browser does: the page's CSRF cookie and
   * field, then POST /oauth2/login with `next`. The login's answer (a 303 with the session cookie).
   */
  const pageLogin = async (next: string) => {
    const page = await inject({
      method: 'GET',
      url: `/oauth2/authorize?response_type=code&client_id=${seed().applicationId}&scope=identify`,
    });
    const csrfCookie = String(page.headers['set-cookie']).split(';')[0] ?? '';
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    return inject({
      method: 'POST',
      url: '/oauth2/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
      payload: new URLSearchParams({
        login: seed().username,
        password: 'correct horse battery',
        csrf_token: csrf,
        next,
      }).toString(),
    });
  };

  return {
    clock,
    get server() {
      return server();
    },
    get seed() {
      return seed();
    },
    inject,
    token,
    decide,
    codeFor,
    pageLogin,
  };
}
