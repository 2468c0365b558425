import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';

describeDrivers('bans on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;

  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, { botPermissions: P.BAN_MEMBERS | P.MANAGE_GUILD });
  });

  const bans = () => server.app.storage.bans.list(g.guildId, { limit: 1000 });
  const audit = (actionType: number) =>
    server.app.storage.auditLog.list(g.guildId, { actionType, limit: 100 });
  const banUrl = (userId: string) => `/guilds/${g.guildId}/bans/${userId}`;

  it('bans a member (204), removing them and keeping the window', async () => {
    const mal = await g.join('mal');
    const res = await g.call('PUT', banUrl(mal.userId), {
      auth: g.bot.token,
      payload: { delete_message_seconds: 3600 },
      reason: 'spam',
    });
    expect(res.statusCode).toBe(204);
    expectOpenApiResponse(res, 'PUT', banUrl(mal.userId));
    expect(await server.app.storage.members.find(g.guildId, mal.userId)).toBeNull();
    expect(await server.app.storage.bans.find(g.guildId, mal.userId)).toMatchObject({
      reason: 'spam',
      deleteMessageSeconds: 3600,
    });
    const [entry] = await audit(AuditLogActions.MEMBER_BAN_ADD);
    expect(entry).toMatchObject({ targetId: mal.userId, userId: g.bot.userId, reason: 'spam' });

    const one = await g.call('GET', banUrl(mal.userId), g.bot.token);
    expect(one.statusCode).toBe(200);
    expectOpenApiResponse(one, 'GET', banUrl(mal.userId));
    expect(one.json()).toMatchObject({
      user: { id: mal.userId, username: mal.username },
      reason: 'spam',
    });

    // Banning again changes nothing.
    const again = await g.call('PUT', banUrl(mal.userId), { auth: g.bot.token, payload: {} });
    expect(again.statusCode).toBe(204);
    expectOpenApiResponse(again, 'PUT', banUrl(mal.userId));
    expect(await audit(AuditLogActions.MEMBER_BAN_ADD)).toHaveLength(1);

    const unban = await g.call('DELETE', banUrl(mal.userId), {
      auth: g.bot.token,
      reason: 'forgiven',
    });
    expect(unban.statusCode).toBe(204);
    expectOpenApiResponse(unban, 'DELETE', banUrl(mal.userId));
    expect(await bans()).toEqual([]);
    const [removed] = await audit(AuditLogActions.MEMBER_BAN_REMOVE);
    expect(removed).toMatchObject({ targetId: mal.userId, reason: 'forgiven' });

    for (const method of ['GET', 'DELETE'] as const) {
      const unknown = await g.call(method, banUrl(mal.userId), g.bot.token);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 10026 });
      expectOpenApiResponse(unknown, method, banUrl(mal.userId));
    }
  });

  it('bad bans change nothing', async () => {
    const ned = await g.join('ned');
    const audits = await g.auditCount();
    const cases: [string, object, number][] = [
      [banUrl(ned.userId), { delete_message_seconds: 604801 }, 50035],
      [banUrl(ned.userId), { delete_message_seconds: -1 }, 50035],
      [banUrl(ned.userId), { delete_message_seconds: 'soon' }, 50035],
      [banUrl(ned.userId), { delete_message_days: 8 }, 50035],
      [banUrl('1'), {}, 10013],
      [banUrl(g.owner.userId), {}, 50013],
      // The bot's own rank is its own: not below itself.
      [banUrl(g.bot.userId), {}, 50013],
    ];
    for (const [url, payload, code] of cases) {
      const res = await g.call('PUT', url, { auth: g.bot.token, payload });
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ code });
      expectOpenApiResponse(res, 'PUT', url);
    }
    const noRights = await g.call('PUT', banUrl(ned.userId), { auth: ned.token, payload: {} });
    expect(noRights.json()).toMatchObject({ code: 50013 });
    expectOpenApiResponse(noRights, 'PUT', banUrl(ned.userId));
    const list = await g.call('GET', `/guilds/${g.guildId}/bans`, ned.token);
    expect(list.json()).toMatchObject({ code: 50013 });
    expectOpenApiResponse(list, 'GET', `/guilds/${g.guildId}/bans`);
    expect(await bans()).toEqual([]);
    expect(await server.app.storage.members.find(g.guildId, ned.userId)).not.toBeNull();
    expect(await g.auditCount()).toBe(audits);
  });

  it('lists bans by user id with limit, before and after', async () => {
    const people = [];
    for (const name of ['p1', 'p2', 'p3', 'p4']) people.push(await g.join(name));
    const ids = people.map((p) => p.userId).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    for (const id of ids) await g.call('PUT', banUrl(id), { auth: g.bot.token, payload: {} });
    const url = `/guilds/${g.guildId}/bans`;
    const ask = async (query: string) => {
      const res = await g.call('GET', `${url}${query}`, g.bot.token);
      expect(res.statusCode, query).toBe(200);
      expectOpenApiResponse(res, 'GET', url);
      return res.json<{ user: { id: string } }[]>().map((b) => b.user.id);
    };
    expect(await ask('')).toEqual(ids);
    expect(await ask('?limit=2')).toEqual(ids.slice(0, 2));
    expect(await ask(`?after=${ids[1]}`)).toEqual(ids.slice(2));
    expect(await ask(`?before=${ids[3]}&limit=2`)).toEqual(ids.slice(1, 3));
    for (const query of ['?limit=0', '?limit=1001', '?after=x']) {
      const bad = await g.call('GET', `${url}${query}`, g.bot.token);
      expect(bad.json(), query).toMatchObject({ code: 50035 });
      expectOpenApiResponse(bad, 'GET', url);
    }
  });

  it('bulk-bans, listing who could not be banned', async () => {
    const a = await g.join('a1');
    const b = await g.join('b1');
    const url = `/guilds/${g.guildId}/bulk-ban`;
    await g.call('PUT', banUrl(b.userId), { auth: g.bot.token, payload: {} });
    const res = await g.call('POST', url, {
      auth: g.bot.token,
      payload: { user_ids: [a.userId, b.userId, g.owner.userId, '1'], delete_message_seconds: 60 },
      reason: 'raid',
    });
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'POST', url);
    expect(res.json()).toEqual({
      banned_users: [a.userId],
      failed_users: [b.userId, g.owner.userId, '1'],
    });
    expect(await server.app.storage.bans.find(g.guildId, a.userId)).toMatchObject({
      reason: 'raid',
      deleteMessageSeconds: 60,
    });

    const before = await bans();
    const audits = await g.auditCount();
    const none = await g.call('POST', url, {
      auth: g.bot.token,
      payload: { user_ids: [g.owner.userId] },
    });
    expect(none.json()).toMatchObject({ code: 500000 });
    expectOpenApiResponse(none, 'POST', url);
    for (const payload of [
      { user_ids: Array.from({ length: 201 }, (_, i) => String(1000 + i)) },
      { user_ids: [a.userId, a.userId] },
      { user_ids: 'all' },
      {},
      { user_ids: [b.userId], delete_message_seconds: 604801 },
    ]) {
      const bad = await g.call('POST', url, { auth: g.bot.token, payload });
      expect(bad.json()).toMatchObject({ code: 50035 });
      expectOpenApiResponse(bad, 'POST', url);
    }
    expect(await bans()).toEqual(before);
    expect(await g.auditCount()).toBe(audits);
  });

  it('bulk-ban needs MANAGE_GUILD as well as BAN_MEMBERS', async () => {
    await server.app.storage.roles.update(
      g.guildId,
      (await server.app.storage.roles.listByGuild(g.guildId)).find((r) => r.managed)?.id ?? '',
      { permissions: P.BAN_MEMBERS },
    );
    const c = await g.join('c1');
    const audits = await g.auditCount();
    const res = await g.call('POST', `/guilds/${g.guildId}/bulk-ban`, {
      auth: g.bot.token,
      payload: { user_ids: [c.userId] },
    });
    expect(res.json()).toMatchObject({ code: 50013 });
    expectOpenApiResponse(res, 'POST', `/guilds/${g.guildId}/bulk-ban`);
    expect(await bans()).toEqual([]);
    expect(await server.app.storage.members.find(g.guildId, c.userId)).not.toBeNull();
    expect(await g.auditCount()).toBe(audits);
  });
});
