import { expect, it, vi } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { firedTimers } from '../../../test/support/firedTimers.js';
import { seedDeveloper, startTestServer } from '../../../test/support/testServer.js';
import { manualClock } from '../../domain/clock.js';
import { hashSecret } from '../../domain/credentials.js';
import { DAY_MS, HOUR_MS } from '../../domain/time.js';

const NOW = Date.UTC(2026, 10, 24, 13);

/** Expired sessions, OAuth2 access tokens and login links leave the database (resources/auth/sweep.ts). */
describeDrivers('the expired credentials sweep on $driver', (driver) => {
  const start = async () => {
    const clock = manualClock(NOW);
    const sweep = firedTimers();
    const server = await startTestServer({
      storage: driver,
      clock,
      timedSweep: { timers: sweep.timers },
    });
    return { server, clock, sweep, [Symbol.asyncDispose]: () => server.close() };
  };

  it('deletes what has expired, in bounded batches, and nothing live', async () => {
    await using fx = await start();
    const { server, clock, sweep } = fx;
    const { storage, services } = server.app;
    const dev = await seedDeveloper(server.app);
    const sessionHash = hashSecret(dev.userToken);
    const link = await services.auth.createLoginLink(dev.userId);
    // An OAuth2 grant: its access token (a `tokens` row and an `oauth_tokens` row) expires in a
    // week, its refresh token never.
    const authorization = await storage.oauth.upsertAuthorization({
      id: '900',
      userId: dev.userId,
      applicationId: dev.applicationId,
      scopes: ['identify'],
      integrationType: 1,
      createdAt: NOW,
      updatedAt: NOW,
    });
    const grant = { authorizationId: authorization.id, scopes: ['identify'], createdAt: NOW };
    const access = { hash: 'access-hash', expiresAt: NOW + 7 * DAY_MS, codeHash: null };
    await storage.tokens.create({
      hash: access.hash,
      kind: 'bearer',
      userId: dev.userId,
      applicationId: dev.applicationId,
      scopes: ['identify'],
      createdAt: NOW,
      expiresAt: access.expiresAt,
    });
    await storage.oauth.createToken({ ...grant, ...access, kind: 'access' });
    await storage.oauth.createToken({
      ...grant,
      hash: 'refresh-hash',
      kind: 'refresh',
      expiresAt: null,
      codeHash: null,
    });
    // 250 expired sessions of another person, more than one batch holds.
    const other = await seedDeveloper(server.app, 'other');
    for (let i = 0; i < 250; i++) {
      await storage.tokens.create({
        hash: `expired-${String(i)}`,
        kind: 'session',
        userId: other.userId,
        applicationId: null,
        scopes: [],
        createdAt: NOW - 40 * DAY_MS,
        expiresAt: NOW - DAY_MS + i,
      });
    }
    // One batch deletes at most what it is asked to.
    expect(await storage.tokens.deleteExpired(NOW, 100)).toBe(100);

    // The first pass: the other 150 go; everything live stays.
    sweep.fire();
    await vi.waitFor(async () => {
      expect(await storage.tokens.findByHash('expired-249')).toBeNull();
    });
    for (const hash of [sessionHash, hashSecret(other.userToken), access.hash]) {
      expect(await storage.tokens.findByHash(hash)).not.toBeNull();
    }
    const me = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: dev.userToken },
    });
    expect(me.statusCode).toBe(200);

    // A week and a day on: the access token has expired, and the login link long before it.
    clock.advance(8 * DAY_MS);
    expect(await storage.oauth.findToken(access.hash)).not.toBeNull();
    sweep.fire();
    await vi.waitFor(async () => {
      expect(await storage.oauth.findToken(access.hash)).toBeNull();
    });
    expect(await storage.tokens.findByHash(access.hash)).toBeNull();
    expect(await storage.oauth.findToken('refresh-hash')).not.toBeNull();
    expect(await storage.loginLinks.deleteExpired(clock.now(), 100)).toBe(0);
    expect(await storage.loginLinks.consume(hashSecret(link.code), NOW)).toBeNull();
    // Sessions live 30 days from their last use (here, when they were made).
    expect(await storage.tokens.findByHash(sessionHash)).not.toBeNull();

    // Past that, the sessions go too.
    clock.advance(23 * DAY_MS + HOUR_MS);
    sweep.fire();
    await vi.waitFor(async () => {
      expect(await storage.tokens.findByHash(sessionHash)).toBeNull();
    });
    expect(await storage.tokens.findByHash(hashSecret(other.userToken))).toBeNull();
    const expired = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: dev.userToken },
    });
    expect(expired.statusCode).toBe(401);
  });
});
