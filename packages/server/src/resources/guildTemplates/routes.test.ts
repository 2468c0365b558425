import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeAll, expect, it } from 'vitest';
import { useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';

describeDrivers('guild templates on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;

  // The worker's plain server; the file's tests share a guild of their own on it.
  const shared = useFileServer({ storage: driver }, 'api');
  beforeAll(async () => {
    server = shared.server;
    g = await guildFixture(server, { botPermissions: P.MANAGE_GUILD });
  });

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options: { auth: string; payload?: unknown },
  ) => {
    const res = await g.call(method, path, options);
    expectOpenApiResponse(res, method, path);
    return res;
  };
  const list = () => `/guilds/${g.guildId}/templates`;

  it('makes, reads, syncs, renames and deletes the one template of a guild', async () => {
    const bot = { auth: g.bot.token };
    const role = await g.call('POST', `/guilds/${g.guildId}/roles`, {
      auth: g.owner.token,
      payload: { name: 'Mods', color: 255, hoist: true },
    });
    const created = await call('POST', list(), {
      ...bot,
      payload: { name: 'Starter', description: 'A small server' },
    });
    expect(created.statusCode).toBe(200);
    const template = created.json<{ code: string; serialized_source_guild: unknown }>();
    expect(template).toMatchObject({
      name: 'Starter',
      description: 'A small server',
      usage_count: 0,
      creator_id: g.bot.userId,
      source_guild_id: g.guildId,
      is_dirty: false,
      serialized_source_guild: {
        name: 'Fixture guild',
        roles: [
          { id: 0, name: '@everyone' },
          { id: 1, name: 'Mods', color: 255, hoist: true },
        ],
        channels: [{ id: 1, type: 0, name: 'general', parent_id: null, permission_overwrites: [] }],
      },
    });
    expect(template.code).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(JSON.stringify(template.serialized_source_guild)).not.toContain(g.guildId);
    expect(role.statusCode).toBe(200);

    const again = await call('POST', list(), { ...bot, payload: { name: 'Second' } });
    expect(again.json()).toMatchObject({ code: 30031 });

    // Anyone signed in reads it by its code; a guild change makes it dirty until synced.
    const outsider = await g.join('reader');
    const byCode = `/guilds/templates/${template.code}`;
    expect((await call('GET', byCode, { auth: outsider.token })).json()).toMatchObject({
      code: template.code,
      is_dirty: false,
    });
    await g.call('POST', `/guilds/${g.guildId}/channels`, {
      auth: g.owner.token,
      payload: { name: 'voice', type: 2 },
    });
    expect((await call('GET', byCode, { auth: outsider.token })).json()).toMatchObject({
      is_dirty: true,
    });
    const synced = await call('PUT', `${list()}/${template.code}`, bot);
    expect(synced.json()).toMatchObject({
      is_dirty: false,
      serialized_source_guild: { channels: [{ name: 'general' }, { name: 'voice', type: 2 }] },
    });
    const renamed = await call('PATCH', `${list()}/${template.code}`, {
      ...bot,
      payload: { name: 'Renamed', description: null },
    });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', description: null });
    expect((await call('GET', list(), bot)).json()).toHaveLength(1);

    const deleted = await call('DELETE', `${list()}/${template.code}`, bot);
    expect(deleted.json()).toMatchObject({ code: template.code, name: 'Renamed' });
    for (const [method, path] of [
      ['GET', byCode],
      ['PUT', `${list()}/${template.code}`],
      ['DELETE', `${list()}/${template.code}`],
    ] as const) {
      const gone = await call(method, path, bot);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toMatchObject({ code: 10057 });
    }
  });

  it('refuses bad names and callers without MANAGE_GUILD', async () => {
    const member = await g.join('no-manage');
    const cases: [string, { auth: string; payload?: unknown }, number][] = [
      [list(), { auth: g.bot.token, payload: { name: '' } }, 50035],
      [list(), { auth: g.bot.token, payload: { name: 'x', description: 'd'.repeat(121) } }, 50035],
      [list(), { auth: member.token, payload: { name: 'Mine' } }, 50013],
      ['/guilds/1/templates', { auth: g.bot.token, payload: { name: 'x' } }, 10004],
    ];
    for (const [path, options, code] of cases) {
      const res = await call('POST', path, options);
      expect(res.json()).toMatchObject({ code });
    }
    expect((await call('GET', list(), { auth: member.token })).json()).toMatchObject({
      code: 50013,
    });
  });
});
