import { beforeEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../domain/credentials.js';
import { uniqueName, useClockedServer } from '../../../test/support/fileServer.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { apiRequest } from '../../../test/support/inject.js';

describe('accounts: register, log in, log out', () => {
  let server: TestServer;
  // The worker's server of the clocked API files (SQLite): each test starts an hour after the
  // last (its rate limits afresh). Accounts change at no date: any start will do.
  const shared = useClockedServer({ storage: 'sqlite' }, 'api-clock', {
    from: Date.UTC(2026, 5, 1),
  });
  beforeEach(() => {
    server = shared.server;
  });

  const post = (url: string, payload: object, authorization?: string) =>
    apiRequest(server.app, `POST ${url}`, { auth: authorization, payload });

  it('registers, logs in by email or username, and logs out', async () => {
    const kay = uniqueName('kay');
    const registered = await post('/auth/register', {
      email: `${kay.replace('k', 'K')}@Example.test`,
      username: kay,
      password: 'long enough password',
    });
    expect(registered.statusCode).toBe(201);
    const { token, user_id } = registered.json<{ token: string; user_id: string }>();

    const stored = await server.app.storage.users.findById(user_id);
    expect(stored?.email).toBe(`${kay}@example.test`);
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(await server.app.storage.tokens.findByHash(token)).toBeNull();
    expect(await server.app.storage.tokens.findByHash(hashSecret(token))).not.toBeNull();

    for (const login of [
      `${kay}@example.test`,
      `${kay.toUpperCase()}@example.test`,
      kay,
      kay.replace('k', 'K'),
    ]) {
      const res = await post('/auth/login', { login, password: 'long enough password' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ user_id });
    }

    const me = () =>
      server.app.http.inject({
        method: 'GET',
        url: '/api/v10/users/@me',
        headers: { authorization: token },
      });
    expect((await me()).statusCode).toBe(200);
    expect((await post('/auth/logout', {}, token)).statusCode).toBe(204);
    expect((await me()).statusCode).toBe(401);
  });

  it('gives the same answer for an unknown login and a wrong password', async () => {
    const abc = uniqueName('abc');
    await post('/auth/register', {
      email: `${abc}@example.test`,
      username: abc,
      password: 'long enough password',
    });
    const wrong = await post('/auth/login', { login: abc, password: 'nope nope nope' });
    const unknown = await post('/auth/login', { login: 'nobody', password: 'nope nope nope' });
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({
      code: 50035,
      errors: { login: { _errors: [{ code: 'INVALID_LOGIN' }] } },
    });
  });

  it('refuses a taken email or username, a short password and a malformed email', async () => {
    const abc = uniqueName('abc');
    await post('/auth/register', {
      email: `${abc}@example.test`,
      username: abc,
      password: 'long enough password',
    });
    const sameEmail = await post('/auth/register', {
      email: `${abc.toUpperCase()}@example.test`,
      username: uniqueName('other'),
      password: 'long enough password',
    });
    expect(sameEmail.json()).toMatchObject({
      errors: { email: { _errors: [{ code: 'EMAIL_ALREADY_REGISTERED' }] } },
    });
    const sameName = await post('/auth/register', {
      email: `${uniqueName('b')}@example.test`,
      username: abc,
      password: 'long enough password',
    });
    expect(sameName.json()).toMatchObject({
      errors: { username: { _errors: [{ code: 'USERNAME_ALREADY_TAKEN' }] } },
    });
    const weak = await post('/auth/register', {
      email: 'not-an-email',
      username: 'c..d',
      password: 'short',
    });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json<{ errors: object }>().errors).sort()).toEqual([
      'email',
      'password',
      'username',
    ]);
  });

  it('limits password guessing per address', async () => {
    const attempts = [];
    for (let i = 0; i < 6; i++)
      attempts.push(await post('/auth/login', { login: 'x', password: 'y' }));
    expect(attempts.slice(0, 5).every((r) => r.statusCode === 400)).toBe(true);
    expect(attempts[5]?.statusCode).toBe(429);
  });
});
