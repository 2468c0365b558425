import { expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { HOUR_MS } from '../../domain/time.js';
import { createLogger } from '../../logger.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { advanceToNextTest, uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { seedDeveloper } from '../../../test/support/testServer.js';
import { apiRequest } from '../../../test/support/inject.js';

const NOW = Date.UTC(2026, 10, 24, 13);
const INVALID = {
  code: 50035,
  errors: {
    code: {
      _errors: [
        { code: 'LOGIN_LINK_INVALID', message: 'This login link is invalid, used or expired.' },
      ],
    },
  },
};

/** POST /auth/login-link: a one-time link's code for a session (docs/web.md). */
describeDrivers('one-time login links on $driver', (driver) => {
  const clock = manualClock(NOW);
  const lines: string[] = [];
  const logger = createLogger('debug', { write: (line: string) => lines.push(line) });
  const shared = useFileServer({ storage: driver, clock, logger });
  /**
   * The file's server for one test: its clock an hour past the last test's (the login bucket
   * afresh), its log from now on.
   */
  const start = () => {
    advanceToNextTest(clock, NOW);
    lines.length = 0;
    const { server } = shared;
    const redeem = (payload: object) =>
      apiRequest(server.app, 'POST /auth/login-link', { payload });
    const startedAt = clock.now();
    return Promise.resolve({
      server,
      clock,
      lines,
      redeem,
      startedAt,
      [Symbol.asyncDispose]: () => Promise.resolve(),
    });
  };

  it('logs in once with a fresh code, and never logs it', async () => {
    await using fx = await start();
    const { server, lines, redeem } = fx;
    const dev = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
    const { code } = await server.app.services.auth.createLoginLink(dev.userId);

    const used = await redeem({ code });
    expect(used.statusCode).toBe(200);
    const session = used.json<{ token: string; user_id: string }>();
    expect(session.user_id).toBe(dev.userId);
    const me = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: session.token },
    });
    expect(me.json()).toMatchObject({ id: dev.userId, username: dev.username });

    const again = await redeem({ code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject(INVALID);
    // Neither the code nor the session token reach a log line.
    expect(lines.join('\n')).toContain('/auth/login-link');
    expect(lines.join('\n')).not.toContain(code);
    expect(lines.join('\n')).not.toContain(session.token);
  });

  it('refuses expired, unknown and malformed codes; a new link replaces the old', async () => {
    await using fx = await start();
    const { server, clock, redeem, startedAt } = fx;
    const dev = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
    const expired = await server.app.services.auth.createLoginLink(dev.userId);
    expect(expired.expiresAt).toBe(startedAt + HOUR_MS);
    clock.advance(HOUR_MS);
    expect((await redeem({ code: expired.code })).json()).toMatchObject(INVALID);

    const replaced = await server.app.services.auth.createLoginLink(dev.userId);
    const current = await server.app.services.auth.createLoginLink(dev.userId);
    expect((await redeem({ code: replaced.code })).json()).toMatchObject(INVALID);
    expect((await redeem({ code: 'not-a-code' })).json()).toMatchObject(INVALID);
    expect((await redeem({ code: current.code })).statusCode).toBe(200);

    // A minute on: the login bucket (five a minute) starts again.
    clock.advance(60_000);
    const malformed = await redeem({ code: 'x'.repeat(129) });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 50035, errors: { code: {} } });
    expect((await redeem({})).json()).toMatchObject({ code: 50035, errors: { code: {} } });
  });

  it('of links made for one person at once, exactly one stays live', async () => {
    await using fx = await start();
    const { server, clock, redeem } = fx;
    const dev = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
    const other = await seedDeveloper(server.app, uniqueName('other'), 'other app');
    const othersLink = await server.app.services.auth.createLoginLink(other.userId);
    const links = await Promise.all(
      Array.from({ length: 8 }, () => server.app.services.auth.createLoginLink(dev.userId)),
    );
    const answers: number[] = [];
    for (const { code } of links) {
      // A minute apart: the login bucket allows five a minute.
      clock.advance(60_000);
      answers.push((await redeem({ code })).statusCode);
    }
    expect(answers.filter((status) => status === 200)).toHaveLength(1);
    expect(answers.filter((status) => status === 400)).toHaveLength(7);
    // Another person's link is not one of them.
    clock.advance(60_000);
    expect((await redeem({ code: othersLink.code })).statusCode).toBe(200);
  });

  it("refuses a banned person's link and uses it up: it does not work once the ban ends", async () => {
    await using fx = await start();
    const { server, clock, redeem, startedAt } = fx;
    const dev = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
    const { code } = await server.app.services.auth.createLoginLink(dev.userId);
    await server.app.storage.provisional.putBan({
      userId: dev.userId,
      reason: null,
      expiresAt: startedAt + 60_000,
      createdAt: startedAt,
    });
    expect((await redeem({ code })).json()).toMatchObject(INVALID);
    clock.advance(120_000);
    expect((await redeem({ code })).json()).toMatchObject(INVALID);
  });

  it('makes links for people only', async () => {
    await using fx = await start();
    const { server } = fx;
    const dev = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
    await expect(server.app.services.auth.createLoginLink(dev.botUserId)).rejects.toMatchObject({
      code: 10013,
    });
    await expect(server.app.services.auth.createLoginLink('12345')).rejects.toMatchObject({
      code: 10013,
    });
  });

  it('limits guesses like password logins: five a minute per address', async () => {
    await using fx = await start();
    const { redeem } = fx;
    const guess = () => redeem({ code: 'guess' });
    for (let i = 0; i < 5; i++) expect((await guess()).statusCode).toBe(400);
    const limited = await guess();
    expect(limited.statusCode).toBe(429);
  });
});
