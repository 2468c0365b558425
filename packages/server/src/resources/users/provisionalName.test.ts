import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useProvisionalFixture, type TokenBody } from '../../../test/support/provisionalFixture.js';

const PATH = '/partner-sdk/provisional-accounts/@me';

describeDrivers('a provisional account names itself on $driver', (driver) => {
  const fx = useProvisionalFixture(driver);
  const { call, botToken, me } = fx;

  it('a provisional token sets its global name; the platform keeps it', async () => {
    const issued = (await botToken('namer', 'Before')).json<TokenBody>();
    const res = await call('PATCH', PATH, {
      auth: `Bearer ${issued.access_token}`,
      payload: { global_name: 'After' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ global_name: 'After' });
    expect((await me(issued.access_token)).json()).toMatchObject({ global_name: 'After' });
  });

  it('refuses bad names, full accounts, tokens without the scope and other credentials', async () => {
    const issued = (await botToken('refused')).json<TokenBody>();
    const auth = `Bearer ${issued.access_token}`;
    for (const payload of [{ global_name: '' }, { global_name: 'x'.repeat(33) }, {}]) {
      const bad = await call('PATCH', PATH, { auth, payload });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 50035, errors: { global_name: {} } });
    }
    const fullScoped = await fx.server.app.services.oauth.issueTokens({
      userId: fx.dev.userId,
      applicationId: fx.dev.applicationId,
      scopes: ['identify', 'account.global_name.update'],
      refresh: false,
    });
    const full = await call('PATCH', PATH, {
      auth: `Bearer ${fullScoped.access_token}`,
      payload: { global_name: 'Mine' },
    });
    expect(full.statusCode).toBe(400);
    expect(full.json()).toMatchObject({ code: 530010 });
    const unscoped = await fx.authorize(fx.dev.userId);
    const noScope = await call('PATCH', PATH, {
      auth: `Bearer ${unscoped.access_token}`,
      payload: { global_name: 'Mine' },
    });
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json()).toMatchObject({ code: 50026 });
    const session = await call('PATCH', PATH, {
      auth: fx.dev.userToken,
      payload: { global_name: 'Mine' },
    });
    expect(session.statusCode).toBe(401);
    const user = await fx.server.app.storage.users.findById(fx.dev.userId);
    expect(user?.globalName).not.toBe('Mine');
  });
});
