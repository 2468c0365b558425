import type { InjectOptions } from 'fastify';
import { beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { hashPassword, hashSecret } from '../../domain/credentials.js';
import { SESSION_SLIDE_EVERY_MS } from '../../http/authenticator.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { advanceToNextTest, uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { startTestServer, type TestServer } from '../../../test/support/testServer.js';

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'long enough password';
const NOW = Date.UTC(2026, 2, 1);

describeDrivers('sessions, passwords and login limits ($driver)', (driver) => {
  // One server for the tests: what each needs of it (a manual clock, client addresses from
  // X-Forwarded-For, three 401/403/429 answers per address or user) changes nothing the others
  // check. Each test moves the clock an hour on, past every
  // window of the tests before it.
  const clock = manualClock(NOW);
  const shared = useFileServer({
    storage: driver,
    clock,
    config: { trustProxy: true },
    invalidRequestLimit: { limit: 3, windowMs: 60_000 },
  });
  let s: TestServer;
  beforeEach(() => {
    advanceToNextTest(clock, NOW);
    s = shared.server;
  });

  const inject = (server: TestServer, options: InjectOptions) => server.app.http.inject(options);
  /** Registers a person named after `name` (made unique), whose name is returned too. */
  const register = async (server: TestServer, name: string) => {
    const username = uniqueName(name);
    const res = await inject(server, {
      method: 'POST',
      url: '/api/v10/auth/register',
      payload: { email: `${username}@example.test`, username, password: PASSWORD },
    });
    expect(res.statusCode).toBe(201);
    return { ...res.json<{ token: string; user_id: string }>(), username };
  };
  const me = (server: TestServer, authorization: string, ip = '127.0.0.1') =>
    inject(server, {
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization, 'x-forwarded-for': ip },
    });
  const login = (server: TestServer, body: { login: string; password: string }, ip = '127.0.0.1') =>
    inject(server, {
      method: 'POST',
      url: '/api/v10/auth/login',
      headers: { 'x-forwarded-for': ip },
      payload: body,
    });

  // A server of its own: a session lifetime of two days, where the shared server keeps the
  // default 30, which the test of tokens made before expiry existed checks.
  it('expires a session token unused for the configured time; use slides it', async () => {
    const ownClock = manualClock(NOW);
    await using own = await startTestServer({
      storage: driver,
      clock: ownClock,
      config: { sessionTtlDays: 2 },
    });
    const { token } = await register(own, 'slider');
    const expiry = async () =>
      (await own.app.storage.tokens.findByHash(hashSecret(token)))?.expiresAt;
    expect(await expiry()).toBe(ownClock.now() + 2 * DAY);

    // A day later the token works and its expiry moves to two days from now.
    ownClock.advance(DAY);
    expect((await me(own, token)).statusCode).toBe(200);
    expect(await expiry()).toBe(ownClock.now() + 2 * DAY);
    const slid = await expiry();

    // Uses within the hour do not write again (the cache is past its 30 s, so they read).
    ownClock.advance(SESSION_SLIDE_EVERY_MS / 2);
    expect((await me(own, token)).statusCode).toBe(200);
    expect(await expiry()).toBe(slid);

    // Unused past the expiry: refused, cached or not.
    ownClock.set((slid ?? 0) + 1);
    expect((await me(own, token)).statusCode).toBe(401);
  });

  it('gives a session token made before expiry existed one on its next use', async () => {
    const { user_id } = await register(s, 'legacy');
    const token = uniqueName('legacy-session-token');
    await s.app.storage.tokens.create({
      hash: hashSecret(token),
      kind: 'session',
      userId: user_id,
      applicationId: null,
      scopes: [],
      createdAt: clock.now(),
      expiresAt: null,
    });
    expect((await me(s, token)).statusCode).toBe(200);
    const stored = await s.app.storage.tokens.findByHash(hashSecret(token));
    expect(stored?.expiresAt).toBe(clock.now() + 30 * DAY);
  });

  it('logs out everywhere: every session token of the user, no one else’s', async () => {
    const first = await register(s, 'everywhere');
    const second = (await login(s, { login: first.username, password: PASSWORD })).json<{
      token: string;
    }>().token;
    const other = await register(s, 'someoneelse');
    const res = await inject(s, {
      method: 'POST',
      url: '/api/v10/auth/logout-all',
      headers: { authorization: second },
    });
    expect(res.statusCode).toBe(204);
    expect((await me(s, first.token)).statusCode).toBe(401);
    expect((await me(s, second)).statusCode).toBe(401);
    expect((await me(s, other.token)).statusCode).toBe(200);
    // Only a session token may ask.
    const anonymous = await inject(s, { method: 'POST', url: '/api/v10/auth/logout-all' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('rehashes a password of an older scrypt cost at the next login', async () => {
    const { user_id, username } = await register(s, 'rehash');
    const stored = async () => (await s.app.storage.users.findById(user_id))?.passwordHash;
    // The test server's cost (2^10, cheap for tests), and an older, lower one before it.
    expect(await stored()).toMatch(/^scrypt\$1024\$8\$1\$/);
    const old = await hashPassword(PASSWORD, { log2N: 9, r: 8, p: 1 });
    await s.app.storage.users.update(user_id, { passwordHash: old });

    // A wrong password changes nothing.
    expect((await login(s, { login: username, password: 'not the password' })).statusCode).toBe(
      400,
    );
    expect(await stored()).toBe(old);

    expect((await login(s, { login: username, password: PASSWORD })).statusCode).toBe(200);
    const redone = await stored();
    expect(redone).toMatch(/^scrypt\$1024\$8\$1\$/);
    // Done once: the next login keeps it.
    expect((await login(s, { login: username, password: PASSWORD })).statusCode).toBe(200);
    expect(await stored()).toBe(redone);
  });

  it('limits guesses per account though each comes from another address', async () => {
    const { username } = await register(s, 'victim');
    // Its name in another case: the same account.
    const asTyped = `${username.charAt(0).toUpperCase()}${username.slice(1)}`;
    const answers = [];
    for (let i = 1; i <= 6; i++)
      answers.push(await login(s, { login: asTyped, password: 'guess' }, `203.0.113.${i}`));
    expect(answers.slice(0, 5).map((r) => r.statusCode)).toEqual([400, 400, 400, 400, 400]);
    const limited = answers[5];
    expect(limited?.statusCode).toBe(429);
    expect(limited?.json()).toMatchObject({
      message: 'You are being rate limited.',
      global: false,
      code: 0,
    });
    expect(limited?.headers['retry-after']).toBeDefined();
    expect(limited?.headers['x-ratelimit-scope']).toBe('user');
    expect(limited?.headers['x-ratelimit-remaining']).toBe('0');
    // The right password is refused too until the window passes: guessing buys nothing.
    expect(
      (await login(s, { login: username, password: PASSWORD }, '203.0.113.50')).statusCode,
    ).toBe(429);
    // Another account from a fresh address is not affected.
    const neighbour = await register(s, 'neighbour');
    expect(
      (await login(s, { login: neighbour.username, password: PASSWORD }, '203.0.113.51'))
        .statusCode,
    ).toBe(200);
  });

  it('counts 401/403/429 answers per user across addresses', async () => {
    const { token } = await register(s, 'prober');
    const botOnly = (ip: string) =>
      inject(s, {
        method: 'GET',
        url: '/api/v10/oauth2/applications/@me',
        headers: { authorization: token, 'x-forwarded-for': ip },
      });
    for (let i = 1; i <= 3; i++) expect((await botOnly(`198.51.100.${i}`)).statusCode).toBe(403);
    // A fourth address, never refused, but the user has had their share.
    const refused = await me(s, token, '198.51.100.4');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ global: true });
    // Someone else from that address is served.
    const other = await register(s, 'innocent');
    expect((await me(s, other.token, '198.51.100.4')).statusCode).toBe(200);
  });
});
