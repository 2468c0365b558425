import { beforeEach, expect, it } from 'vitest';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { DAY_MS, PNG_1X1, SPLIT_MS, seedGuild } from '../../../test/support/expressionFixtures.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { apiRequest } from '../../../test/support/inject.js';

/**
 * The rules every guild area shares: a PATCH that changes nothing writes no audit entry, and a
 * name of only zero-width or control characters is refused as blank.
 */
describeDrivers('shared guild rules on $driver', (driver) => {
  let server: TestServer;
  let fx: Awaited<ReturnType<typeof seedGuild>>;
  // The worker's server of the clocked API files: its route bucket is ROOMY_LIMITS' already (the
  // test server's default), and these few refusals are far from its invalid request limit.
  const shared = useClockedServer({ storage: driver }, 'api-clock', {
    from: SPLIT_MS + DAY_MS,
    until: CHANNEL_LIST_VISIBILITY_FROM_MS,
  });
  const { clock } = shared;
  beforeEach(async () => {
    server = shared.server;
    fx = await seedGuild(server.app);
  });

  const send = async (method: 'POST' | 'PATCH', path: string, body: unknown) => {
    const res = await apiRequest(server.app, `${method} ${path}`, {
      auth: fx.ownerAuth,
      payload: body,
    });
    expectOpenApiResponse(res, method, path);
    return res;
  };
  const audit = () => server.app.storage.auditLog.list(fx.guildId, { limit: 100 });
  const iso = (ms: number) => new Date(ms).toISOString();

  it('a PATCH of emoji, sticker or event that changes nothing is not audited', async () => {
    const g = `/guilds/${fx.guildId}`;
    const emoji = (await send('POST', `${g}/emojis`, { name: 'blob', image: PNG_1X1 })).json<{
      id: string;
    }>();
    const sticker = (
      await send('POST', `${g}/stickers`, { name: 'wave', tags: 'hi', file: PNG_1X1 })
    ).json<{ id: string }>();
    const event = (
      await send('POST', `${g}/scheduled-events`, {
        name: 'Meetup',
        privacy_level: 2,
        entity_type: 3,
        scheduled_start_time: iso(clock.now() + DAY_MS),
        scheduled_end_time: iso(clock.now() + 2 * DAY_MS),
        entity_metadata: { location: 'The park' },
      })
    ).json<{ id: string }>();
    const before = (await audit()).length;
    for (const [path, body] of [
      [`${g}/emojis/${emoji.id}`, { name: 'blob' }],
      [`${g}/stickers/${sticker.id}`, { name: 'wave' }],
      [`${g}/scheduled-events/${event.id}`, { name: 'Meetup' }],
    ] as const) {
      expect((await send('PATCH', path, body)).statusCode).toBe(200);
    }
    expect(await audit()).toHaveLength(before);
    // A real change still is, with only the changed key.
    await send('PATCH', `${g}/emojis/${emoji.id}`, { name: 'blob2' });
    const [latest] = await audit();
    expect(latest?.changes).toEqual([{ key: 'name', old_value: 'blob', new_value: 'blob2' }]);
  });

  it('names with no visible character are refused everywhere', async () => {
    const g = `/guilds/${fx.guildId}`;
    const before = {
      channels: (await server.app.storage.channels.listByGuild(fx.guildId)).length,
      roles: (await server.app.storage.roles.listByGuild(fx.guildId)).length,
      audit: (await audit()).length,
      guild: (await server.app.storage.guilds.findById(fx.guildId))?.name,
    };
    for (const [method, path, body] of [
      ['PATCH', g, { name: '\u200b\u200b' }],
      ['POST', `${g}/channels`, { name: '\u200b' }],
      ['POST', `${g}/channels`, { name: 'bell\u0007' }],
      ['POST', `${g}/roles`, { name: '\u200b\u2060' }],
      ['POST', `${g}/stickers`, { name: '\u200b\u200b', tags: 'x', file: PNG_1X1 }],
    ] as const) {
      const res = await send(method, path, body);
      expect(res.statusCode, path).toBe(400);
      const error = res.json<{ code: number; errors: Record<string, unknown> }>();
      expect(error.code).toBe(50035);
      expect(Object.keys(error.errors)).toEqual(['name']);
    }
    expect((await server.app.storage.channels.listByGuild(fx.guildId)).length).toBe(
      before.channels,
    );
    expect((await server.app.storage.roles.listByGuild(fx.guildId)).length).toBe(before.roles);
    expect((await server.app.storage.guilds.findById(fx.guildId))?.name).toBe(before.guild);
    expect(await audit()).toHaveLength(before.audit);
    // Surrounding spaces are trimmed, not refused.
    const trimmed = await send('POST', `${g}/channels`, { name: '  news  ' });
    expect(trimmed.json()).toMatchObject({ name: 'news' });
  });
});
