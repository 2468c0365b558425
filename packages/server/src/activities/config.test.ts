import { ApplicationFlags } from '@guildhall/protocol';
import { uniqueName } from '../../test/support/fileServer.js';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { useInteractionFixture } from '../../test/support/interactionFixture.js';
import { seedDeveloper } from '../../test/support/testServer.js';
import { MAX_URL_MAPPINGS, targetUrl } from './config.js';

/** The field paths of a 50035 body's `errors`, as dotted strings. */
function errorPaths(errors: unknown, prefix = ''): string[] {
  if (typeof errors !== 'object' || errors === null) return [];
  return Object.entries(errors).flatMap(([key, value]) =>
    key === '_errors' ? [prefix.slice(1)] : errorPaths(value, `${prefix}.${key}`),
  );
}

describeDrivers('the embedded activity config on $driver', (driver) => {
  const f = useInteractionFixture(driver);
  const path = () => `/applications/${f.guild.bot.applicationId}/embedded-activity-config`;
  const patch = (payload: unknown, auth = f.guild.owner.token) =>
    f.call('PATCH', path(), auth, payload);
  const flags = async () => {
    const res = await f.call(
      'GET',
      `/applications/${f.guild.bot.applicationId}`,
      f.guild.owner.token,
    );
    return BigInt(res.json<{ flags: number }>().flags);
  };
  const refused = async (payload: unknown) => {
    const res = await patch(payload);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<{ code: number; message: string; errors: unknown }>();
    expect(body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    return errorPaths(body.errors);
  };

  it('answers the defaults, then keeps what the owner saves', async () => {
    const fresh = await f.call('GET', path(), f.guild.owner.token);
    expect(fresh.statusCode).toBe(200);
    const appId = f.guild.bot.applicationId;
    expect(fresh.json()).toEqual({
      application_id: appId,
      url_mappings: [],
      supported_platforms: ['web'],
      default_orientation_lock_state: 1,
      tablet_default_orientation_lock_state: 1,
      requires_age_gate: false,
      activity_origin: expect.stringMatching(
        new RegExp(`^http://${appId}\\.activities\\.localhost:\\d+$`),
      ) as unknown,
    });
    expect((await flags()) & ApplicationFlags.EMBEDDED).toBe(0n);

    const saved = await patch({
      url_mappings: [
        { prefix: '/', target: '127.0.0.1:5173' },
        { prefix: '/api/', target: 'https://api.example.test/v1' },
      ],
      supported_platforms: ['web', 'android'],
      default_orientation_lock_state: 2,
      requires_age_gate: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      // The trailing slash goes: '/api/' and '/api' are one prefix.
      url_mappings: [
        { prefix: '/', target: '127.0.0.1:5173' },
        { prefix: '/api', target: 'https://api.example.test/v1' },
      ],
      supported_platforms: ['web', 'android'],
      default_orientation_lock_state: 2,
      tablet_default_orientation_lock_state: 1,
      requires_age_gate: true,
    });
    expect((await f.call('GET', path(), f.guild.owner.token)).json()).toEqual(saved.json());
    // A root mapping makes the app an activity; the proxy reads the same mappings.
    expect((await flags()) & ApplicationFlags.EMBEDDED).toBe(ApplicationFlags.EMBEDDED);
    expect(await f.server.app.storage.activities.urlMappings(appId)).toEqual([
      { prefix: '/', target: '127.0.0.1:5173' },
      { prefix: '/api', target: 'https://api.example.test/v1' },
    ]);

    // A partial change keeps the rest; without a root mapping the app is no activity again.
    const partial = await patch({ url_mappings: [{ prefix: '/api', target: 'example.test' }] });
    expect(partial.json()).toMatchObject({
      requires_age_gate: true,
      supported_platforms: ['web', 'android'],
    });
    expect((await flags()) & ApplicationFlags.EMBEDDED).toBe(0n);
  });

  it('refuses bad mappings and fields with 50035 naming each field', async () => {
    expect(await refused({ url_mappings: [{ prefix: 'api', target: 'example.test' }] })).toEqual([
      'url_mappings.0.prefix',
    ]);
    expect(
      await refused({
        url_mappings: [
          { prefix: '/a', target: 'one.test' },
          { prefix: '/a/', target: 'two.test' },
        ],
      }),
    ).toEqual(['url_mappings.1.prefix']);
    const many = Array.from({ length: MAX_URL_MAPPINGS + 1 }, (_, i) => ({
      prefix: `/p${i}`,
      target: 'example.test',
    }));
    expect(await refused({ url_mappings: many })).toEqual(['url_mappings']);
    for (const target of [
      'ftp://example.test',
      'javascript:alert(1)',
      'user:pw@example.test',
      'example.test/?q=1',
      'example.test#frag',
      'example.test:99999',
      'exa mple.test',
      '<script>alert(1)</script>',
      'example.test\u0000',
      '',
      'a'.repeat(600),
    ]) {
      expect(await refused({ url_mappings: [{ prefix: '/', target }] }), target).toEqual([
        'url_mappings.0.target',
      ]);
    }
    for (const prefix of ['/../x', '/a//b', '/.proxy', '/.proxy/x', '/a?b', '/\u202e']) {
      expect(await refused({ url_mappings: [{ prefix, target: 'a.test' }] }), prefix).toEqual([
        'url_mappings.0.prefix',
      ]);
    }
    expect(await refused({ supported_platforms: ['web', 'web'] })).toEqual(['supported_platforms']);
    expect(await refused({ supported_platforms: ['xbox'] })).toEqual(['supported_platforms.0']);
    expect(await refused({ default_orientation_lock_state: 4 })).toEqual([
      'default_orientation_lock_state',
    ]);
    expect(await refused({ requires_age_gate: 'yes' })).toEqual(['requires_age_gate']);
    expect(await refused({ url_mappings: [{ prefix: '/', target: 'a.test', extra: 1 }] })).toEqual([
      'url_mappings.0',
    ]);
    expect(await refused({ surprise: true })).toEqual(['']);
    expect(await refused([1, 2])).toEqual(['']);
    // Nothing was kept.
    expect(await f.server.app.storage.activities.urlMappings(f.guild.bot.applicationId)).toBeNull();
  });

  it('is the owner’s alone: others, bots and unknown ids get the platform errors', async () => {
    const other = await seedDeveloper(f.server.app, uniqueName('stranger'));
    for (const res of [
      await f.call('GET', path(), other.userToken),
      await patch({ requires_age_gate: true }, other.userToken),
      await f.call('GET', '/applications/1/embedded-activity-config', f.guild.owner.token),
      await f.call('GET', '/applications/nope/embedded-activity-config', f.guild.owner.token),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 10002, message: 'Unknown Application' });
    }
    const byBot = await patch({ requires_age_gate: true }, f.guild.bot.token);
    // A bot token is no developer session: the platform's 403 for the wrong kind of token.
    expect(byBot.statusCode).toBe(403);
    expect(byBot.json()).toHaveProperty('code');
    expect(await f.server.app.storage.activities.findConfig(f.guild.bot.applicationId)).toBeNull();
  });
});

it('reads targets as the proxy host reaches them', () => {
  expect(targetUrl('127.0.0.1:5173')?.href).toBe('http://127.0.0.1:5173/');
  expect(targetUrl('localhost:3001/api')?.href).toBe('http://localhost:3001/api');
  expect(targetUrl('[::1]:8080')?.href).toBe('http://[::1]:8080/');
  expect(targetUrl('example.test/base')?.href).toBe('https://example.test/base');
  expect(targetUrl('http://example.test')?.href).toBe('http://example.test/');
  expect(targetUrl('HTTPS://Example.test:8443')?.href).toBe('https://example.test:8443/');
  expect(targetUrl('file:///etc/passwd')).toBeNull();
  expect(targetUrl('example.test:0')).toBeNull();
  expect(targetUrl('http://')).toBeNull();
});
