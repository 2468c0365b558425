import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCliDataDir } from '../../../test/support/cliFixture.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
} from '../../../test/support/testServer.js';
import { hashSecret } from '../../domain/credentials.js';
import { manualClock } from '../../domain/clock.js';
import { HOUR_MS } from '../../domain/time.js';
import { RateLimitedError, toErrorResponse } from '../../errors/index.js';
import { MemoryRateLimitStore } from '../../sharedState/memory/index.js';
import type { SocialLimitedOperation } from '../deps.js';
import { SOCIAL_LIMITS, createSocialLimits } from './index.js';
import { apiRequest } from '../../../test/support/inject.js';

const ADMIN_TOKEN = 'operator-secret';

/** Consumes `count` writes and returns how many went through. */
async function spend(
  limits: ReturnType<typeof createSocialLimits>,
  [applicationId, operation]: [string, SocialLimitedOperation],
  count: number,
): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < count; i += 1) {
    try {
      await limits.consume(applicationId, operation);
      allowed += 1;
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
    }
  }
  return allowed;
}

describeDrivers('Social SDK pre-approval limits on $driver', (driver) => {
  let server: TestServer;
  let dev: Awaited<ReturnType<typeof seedDeveloper>>;
  beforeAll(async () => {
    server = await startTestServer({
      storage: driver,
      config: { adminTokenHash: hashSecret(ADMIN_TOKEN) },
    });
    dev = await seedDeveloper(server.app);
  });
  afterAll(() => server.close());

  const limitsAt = (startMs: number) => {
    const clock = manualClock(startMs);
    const limits = createSocialLimits({
      storage: server.app.storage,
      clock,
      store: new MemoryRateLimitStore(),
    });
    return { clock, limits };
  };

  const approval = (method: 'PUT' | 'DELETE', applicationId: string, auth?: string) =>
    apiRequest(server.app, `${method} /admin/applications/${applicationId}/social-approval`, {
      auth,
    });

  it('counts each operation per application in a two-hour window, with the 429 body', async () => {
    const { clock, limits } = limitsAt(1_000_000);
    expect(await spend(limits, [dev.applicationId, 'lobby_create'], 101)).toBe(100);
    // Channel linking has its own, smaller bucket; other operations are untouched.
    expect(await spend(limits, [dev.applicationId, 'lobby_channel_link'], 25)).toBe(20);
    expect(await spend(limits, [dev.applicationId, 'dm_send'], 1)).toBe(1);

    const refused = await limits
      .consume(dev.applicationId, 'lobby_create')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    const answer = toErrorResponse(refused, 'req');
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual({
      message: 'You are being rate limited.',
      retry_after: 7200,
      global: false,
      code: 0,
    });
    expect(answer.headers).toMatchObject({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-scope': 'shared',
      'x-ratelimit-bucket': 'social.lobby_create',
      'retry-after': '7200',
    });

    clock.advance(2 * HOUR_MS);
    expect(await spend(limits, [dev.applicationId, 'lobby_create'], 1)).toBe(1);
  });

  it('keeps applications apart', async () => {
    const { limits } = limitsAt(5_000_000);
    const other = await seedDeveloper(server.app, 'other');
    expect(await spend(limits, [dev.applicationId, 'lobby_message_send'], 100)).toBe(100);
    expect(await spend(limits, [other.applicationId, 'lobby_message_send'], 1)).toBe(1);
  });

  it('lifts the limits of an approved application, and puts them back when withdrawn', async () => {
    const game = await seedDeveloper(server.app, 'approved');
    const { limits } = limitsAt(9_000_000);
    const approved = await approval('PUT', game.applicationId, `Admin ${ADMIN_TOKEN}`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toEqual({ application_id: game.applicationId, social_approved: true });
    expect(await spend(limits, [game.applicationId, 'dm_send'], SOCIAL_LIMITS.dm_send + 5)).toBe(
      SOCIAL_LIMITS.dm_send + 5,
    );

    expect((await approval('DELETE', game.applicationId, `Admin ${ADMIN_TOKEN}`)).statusCode).toBe(
      204,
    );
    expect(await spend(limits, [game.applicationId, 'dm_send'], 101)).toBe(100);
  });

  it('refuses the approval routes without the operator token or for an unknown app', async () => {
    for (const auth of [undefined, 'Admin wrong', `Bot ${dev.botToken}`]) {
      const res = await approval('PUT', dev.applicationId, auth);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 0, message: '401: Unauthorized' });
    }
    expect(
      (await server.app.storage.applications.findById(dev.applicationId))?.socialApproved,
    ).toBe(false);
    const unknown = await approval('PUT', '12345', `Admin ${ADMIN_TOKEN}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 10002 });
    const malformed = await approval('DELETE', 'not-an-id', `Admin ${ADMIN_TOKEN}`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 50035 });
  });
});

describe('guildhall app approve-social', () => {
  const { run, userAndApp } = useCliDataDir('guildhall-social-cli-');

  it('approves (the default) and withdraws; says what is wrong with bad input', async () => {
    const { applicationId: application_id } = await userAndApp('op', 'Game');
    const approve = await run('app', 'approve-social', '--app', application_id);
    expect(approve.code).toBe(0);
    expect(approve.json()).toEqual({ application_id, social_approved: true });
    const withdraw = await run(
      'app',
      'approve-social',
      '--app',
      application_id,
      '--approved',
      'false',
    );
    expect(withdraw.json()).toEqual({ application_id, social_approved: false });

    const unknown = await run('app', 'approve-social', '--app', '424242');
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain('no application 424242');
    const bad = await run('app', 'approve-social', '--app', application_id, '--approved', 'maybe');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('--approved must be true or false');
    const help = await run('app', 'approve-social', '--help');
    expect(help.out + help.err).toContain('guildhall app approve-social --app APPLICATION_ID');
  });
});
