import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';
import type { RoleWire } from '../roles/serialize.js';
import type { MemberWire } from './serialize.js';

const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const NOW = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;
const BOT_PERMISSIONS =
  P.MANAGE_ROLES |
  P.MANAGE_NICKNAMES |
  P.CHANGE_NICKNAME |
  P.KICK_MEMBERS |
  P.MODERATE_MEMBERS |
  P.MUTE_MEMBERS |
  P.DEAFEN_MEMBERS |
  P.MOVE_MEMBERS;

describeDrivers('members on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  const clock = manualClock(NOW);

  const shared = useFileServer({ storage: driver, clock });
  beforeEach(async () => {
    clock.set(NOW);
    server = shared.server;
    g = await guildFixture(server, { botPermissions: BOT_PERMISSIONS, nowMs: () => clock.now() });
  });

  const member = (userId: string) => server.app.storage.members.find(g.guildId, userId);
  const audit = (actionType: number) =>
    server.app.storage.auditLog.list(g.guildId, { actionType, limit: 100 });
  /** A role made by the owner; `top` puts it above every other (the bot's included). */
  const role = async (name: string, top = false) => {
    const res = await g.call('POST', `/guilds/${g.guildId}/roles`, {
      auth: g.owner.token,
      payload: { name },
    });
    const created = res.json<RoleWire>();
    if (top) {
      await g.call('PATCH', `/guilds/${g.guildId}/roles`, {
        auth: g.owner.token,
        payload: [{ id: created.id, position: 250 }],
      });
    }
    return created;
  };
  const patchMember = async (userId: string, payload: object, auth = g.bot.token) => {
    const url = `/guilds/${g.guildId}/members/${userId}`;
    const res = await g.call('PATCH', url, { auth, payload, reason: 'moderation' });
    expectOpenApiResponse(res, 'PATCH', url);
    return res;
  };

  it('reads one member, and lists them by id with limit and after', async () => {
    const ann = await g.join('ann');
    const url = `/guilds/${g.guildId}/members/${ann.userId}`;
    const one = await g.call('GET', url, g.bot.token);
    expect(one.statusCode).toBe(200);
    expectOpenApiResponse(one, 'GET', url);
    expect(one.json()).toMatchObject({
      user: { id: ann.userId, username: ann.username },
      nick: null,
      roles: [],
      joined_at: new Date(NOW).toISOString(),
      premium_since: null,
      communication_disabled_until: null,
      deaf: false,
      mute: false,
      pending: false,
      flags: 0,
    });

    const ids = [g.owner.userId, g.bot.userId, ann.userId].sort((a, b) =>
      BigInt(a) < BigInt(b) ? -1 : 1,
    );
    const listUrl = `/guilds/${g.guildId}/members`;
    const first = await g.call('GET', listUrl, g.bot.token);
    expectOpenApiResponse(first, 'GET', listUrl);
    expect(first.json<MemberWire[]>().map((m) => m.user.id)).toEqual(ids.slice(0, 1));
    const page = await g.call('GET', `${listUrl}?limit=1000&after=${ids[0]}`, g.bot.token);
    expectOpenApiResponse(page, 'GET', listUrl);
    expect(page.json<MemberWire[]>().map((m) => m.user.id)).toEqual(ids.slice(1));

    for (const query of ['limit=0', 'limit=1001', 'after=abc']) {
      const bad = await g.call('GET', `${listUrl}?${query}`, g.bot.token);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json()).toMatchObject({ code: 50035 });
      expectOpenApiResponse(bad, 'GET', listUrl);
    }
    for (const id of ['123', 'abc']) {
      const unknown = await g.call('GET', `/guilds/${g.guildId}/members/${id}`, g.bot.token);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 10007 });
      expectOpenApiResponse(unknown, 'GET', `/guilds/${g.guildId}/members/123`);
    }
  });

  it('searches usernames, global names and nicks by prefix, ignoring case', async () => {
    const alice = await g.join('alice');
    const bob = await g.join('bob');
    const carol = await g.join('carol');
    await server.app.storage.users.update(bob.userId, { globalName: 'Alpha Bob' });
    await server.app.storage.members.update(g.guildId, carol.userId, { nick: 'ALbatross' });
    const ab = await g.join('a_b');
    const url = `/guilds/${g.guildId}/members/search`;
    const res = await g.call('GET', `${url}?query=AL&limit=10`, g.bot.token);
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'GET', url);
    expect(new Set(res.json<MemberWire[]>().map((m) => m.user.id))).toEqual(
      new Set([alice.userId, bob.userId, carol.userId]),
    );
    // LIKE wildcards in the query are taken literally.
    const literal = await g.call('GET', `${url}?query=a_&limit=10`, g.bot.token);
    expect(literal.json<MemberWire[]>().map((m) => m.user.username)).toEqual([ab.username]);
    const limited = await g.call('GET', `${url}?query=al`, g.bot.token);
    expect(limited.json()).toHaveLength(1);
    for (const query of ['', '?query=', `?query=${'x'.repeat(101)}`, '?query=a&limit=1001']) {
      const bad = await g.call('GET', `${url}${query}`, g.bot.token);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json()).toMatchObject({ code: 50035 });
      expectOpenApiResponse(bad, 'GET', url);
    }
  });

  it('changes nick, roles, mute and deaf, with both audit entries', async () => {
    const low = await role('Low');
    const dan = await g.join('dan');
    const res = await patchMember(dan.userId, {
      nick: 'Danny',
      roles: [low.id],
      mute: true,
      deaf: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ nick: 'Danny', roles: [low.id], mute: true, deaf: true });

    const [update] = await audit(AuditLogActions.MEMBER_UPDATE);
    expect(update).toMatchObject({ targetId: dan.userId, reason: 'moderation' });
    expect(update?.changes).toEqual(
      expect.arrayContaining([
        { key: 'nick', new_value: 'Danny' },
        { key: 'mute', old_value: false, new_value: true },
      ]),
    );
    const [roles] = await audit(AuditLogActions.MEMBER_ROLE_UPDATE);
    expect(roles?.changes).toEqual([{ key: '$add', new_value: [{ id: low.id, name: 'Low' }] }]);

    const cleared = await patchMember(dan.userId, { nick: '', roles: [] });
    expect(cleared.json()).toMatchObject({ nick: null, roles: [] });
    const [removal] = await audit(AuditLogActions.MEMBER_ROLE_UPDATE);
    expect(removal?.changes).toEqual([
      { key: '$remove', new_value: [{ id: low.id, name: 'Low' }] },
    ]);
  });

  it('refuses what the caller may not do, changing nothing', async () => {
    const high = await role('High', true);
    const eve = await g.join('eve');
    const peer = await g.join('peer');
    const before = await member(eve.userId);
    const audits = await g.auditCount();
    const cases: [string, object, number, number][] = [
      ['role above the caller', { roles: [high.id] }, 403, 50013],
      ['unknown role', { roles: ['1'] }, 404, 10011],
      ['nick too long', { nick: 'x'.repeat(33) }, 400, 50035],
      ['mute not a bool', { mute: 'yes' }, 400, 50035],
      ['roles not a list', { roles: 'all' }, 400, 50035],
      ['voice move', { channel_id: g.guildId }, 400, 40032],
      ['bad timestamp', { communication_disabled_until: 'tomorrow' }, 400, 50035],
    ];
    for (const [name, payload, status, code] of cases) {
      const res = await patchMember(eve.userId, payload);
      expect(res.statusCode, name).toBe(status);
      expect(res.json(), name).toMatchObject({ code });
    }
    const noRights = await patchMember(eve.userId, { nick: 'x' }, peer.token);
    expect(noRights.json()).toMatchObject({ code: 50013 });
    const ownerNick = await patchMember(g.owner.userId, { nick: 'boss' });
    expect(ownerNick.json()).toMatchObject({ code: 50013 });
    const unknownGuild = await g.call('PATCH', `/guilds/1/members/${eve.userId}`, {
      auth: g.bot.token,
      payload: { nick: 'x' },
    });
    expect(unknownGuild.json()).toMatchObject({ code: 10004 });
    expectOpenApiResponse(unknownGuild, 'PATCH', `/guilds/1/members/${eve.userId}`);
    expect(await member(eve.userId)).toEqual(before);
    expect(await audit(AuditLogActions.MEMBER_UPDATE)).toEqual([]);
    expect(await g.auditCount()).toBe(audits);
  });

  it('times out for at most 28 days, never the owner, an admin or a peer', async () => {
    const fay = await g.join('fay');
    const limit = new Date(NOW + 28 * DAY).toISOString();
    const ok = await patchMember(fay.userId, { communication_disabled_until: limit });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ communication_disabled_until: limit });
    const [entry] = await audit(AuditLogActions.MEMBER_UPDATE);
    expect(entry?.changes).toEqual([{ key: 'communication_disabled_until', new_value: limit }]);

    const before = await member(fay.userId);
    let audits = await g.auditCount();
    const tooLong = await patchMember(fay.userId, {
      communication_disabled_until: new Date(NOW + 28 * DAY + 1000).toISOString(),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({
      code: 50035,
      errors: {
        communication_disabled_until: {
          _errors: [{ code: 'INVALID_COMMUNICATION_DISABLED_TIMESTAMP' }],
        },
      },
    });
    expect(await member(fay.userId)).toEqual(before);
    expect(await g.auditCount()).toBe(audits);

    const adminRole = (
      await g.call('POST', `/guilds/${g.guildId}/roles`, {
        auth: g.owner.token,
        payload: { name: 'Admins', permissions: String(P.ADMINISTRATOR) },
      })
    ).json<RoleWire>();
    const admin = await g.join('admin', { roleIds: [adminRole.id] });
    const soon = new Date(NOW + DAY).toISOString();
    audits = await g.auditCount();
    for (const target of [g.owner.userId, admin.userId, g.bot.userId]) {
      const res = await patchMember(target, { communication_disabled_until: soon });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 50013 });
      expect((await member(target))?.communicationDisabledUntil).toBeNull();
    }
    expect(await g.auditCount()).toBe(audits);
    const lifted = await patchMember(fay.userId, { communication_disabled_until: null });
    expect(lifted.json()).toMatchObject({ communication_disabled_until: null });
  });

  it('adds and removes one role (204), within the hierarchy', async () => {
    const low = await role('Low');
    const high = await role('High', true);
    const gus = await g.join('gus');
    const url = (roleId: string) => `/guilds/${g.guildId}/members/${gus.userId}/roles/${roleId}`;
    const put = await g.call('PUT', url(low.id), { auth: g.bot.token, reason: 'promote' });
    expect(put.statusCode).toBe(204);
    expectOpenApiResponse(put, 'PUT', url(low.id));
    expect((await member(gus.userId))?.roleIds).toEqual([low.id]);
    const [added] = await audit(AuditLogActions.MEMBER_ROLE_UPDATE);
    expect(added).toMatchObject({ targetId: gus.userId, reason: 'promote' });

    const audits = await g.auditCount();
    for (const [path, code] of [
      [url(high.id), 50013],
      [url('1'), 10011],
      [`/guilds/${g.guildId}/members/1/roles/${low.id}`, 10007],
    ] as const) {
      const res = await g.call('PUT', path, g.bot.token);
      expect(res.json(), path).toMatchObject({ code });
      expectOpenApiResponse(res, 'PUT', path);
    }
    expect((await member(gus.userId))?.roleIds).toEqual([low.id]);
    expect(await g.auditCount()).toBe(audits);

    const del = await g.call('DELETE', url(low.id), { auth: g.bot.token, reason: 'demote' });
    expect(del.statusCode).toBe(204);
    expectOpenApiResponse(del, 'DELETE', url(low.id));
    expect((await member(gus.userId))?.roleIds).toEqual([]);
    const removals = await audit(AuditLogActions.MEMBER_ROLE_UPDATE);
    expect(removals).toHaveLength(2);
    expect(removals[0]).toMatchObject({
      targetId: gus.userId,
      userId: g.bot.userId,
      reason: 'demote',
      changes: [{ key: '$remove', new_value: [{ id: low.id, name: 'Low' }] }],
    });
  });

  it('kicks (204) members below the caller; never the owner', async () => {
    const hal = await g.join('hal');
    const url = `/guilds/${g.guildId}/members/${hal.userId}`;
    const peer = await g.join('peer');
    const audits = await g.auditCount();
    const denied = await g.call('DELETE', url, peer.token);
    expect(denied.json()).toMatchObject({ code: 50013 });
    expectOpenApiResponse(denied, 'DELETE', url);
    const owner = await g.call(
      'DELETE',
      `/guilds/${g.guildId}/members/${g.owner.userId}`,
      g.bot.token,
    );
    expect(owner.json()).toMatchObject({ code: 50013 });
    expectOpenApiResponse(owner, 'DELETE', url);
    expect(await member(hal.userId)).not.toBeNull();
    expect(await member(g.owner.userId)).not.toBeNull();
    expect(await g.auditCount()).toBe(audits);

    const res = await g.call('DELETE', url, { auth: g.bot.token, reason: 'rude' });
    expect(res.statusCode).toBe(204);
    expectOpenApiResponse(res, 'DELETE', url);
    expect(await member(hal.userId)).toBeNull();
    const [entry] = await audit(AuditLogActions.MEMBER_KICK);
    expect(entry).toMatchObject({ targetId: hal.userId, userId: g.bot.userId, reason: 'rude' });
    const again = await g.call('DELETE', url, g.bot.token);
    expect(again.json()).toMatchObject({ code: 10007 });
    expectOpenApiResponse(again, 'DELETE', url);
  });

  it('PATCH /members/@me sets nick, bio and guild images served by URL', async () => {
    const url = `/guilds/${g.guildId}/members/@me`;
    const res = await g.call('PATCH', url, {
      auth: g.bot.token,
      payload: { nick: 'Helper', avatar: PNG_1X1, banner: PNG_1X1, bio: 'Here to help' },
      reason: 'rebrand',
    });
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'PATCH', url);
    const wire = res.json<MemberWire>();
    expect(wire).toMatchObject({ nick: 'Helper', user: { id: g.bot.userId } });
    expect(wire.avatar).toMatch(/^[0-9a-f]{32}$/);
    expect((await member(g.bot.userId))?.bio).toBe('Here to help');
    for (const kind of ['avatars', 'banners']) {
      const image = await server.app.http.inject({
        method: 'GET',
        url: `/guilds/${g.guildId}/users/${g.bot.userId}/${kind}/${wire.avatar}.png`,
      });
      expect(image.statusCode, kind).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
    }
    const [entry] = await audit(AuditLogActions.MEMBER_UPDATE);
    expect(entry).toMatchObject({
      targetId: g.bot.userId,
      userId: g.bot.userId,
      reason: 'rebrand',
    });
    expect(entry?.changes).toContainEqual({ key: 'nick', new_value: 'Helper' });

    const before = await member(g.bot.userId);
    const audits = await g.auditCount();
    for (const payload of [
      { avatar: 'data:image/png;base64,aGVsbG8=' },
      { bio: 'x'.repeat(191) },
      { nick: 5 },
    ]) {
      const bad = await g.call('PATCH', url, { auth: g.bot.token, payload });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 50035 });
      expectOpenApiResponse(bad, 'PATCH', url);
    }
    expect(await member(g.bot.userId)).toEqual(before);
    expect(await g.auditCount()).toBe(audits);
    const cleared = await g.call('PATCH', url, { auth: g.bot.token, payload: { avatar: null } });
    expect(cleared.json()).toMatchObject({ avatar: null });
    expectOpenApiResponse(cleared, 'PATCH', url);
  });

  it('bots set a guild profile only from September 10, 2025', async () => {
    clock.set(Date.UTC(2025, 8, 10) - 1);
    const url = `/guilds/${g.guildId}/members/@me`;
    const early = await g.call('PATCH', url, {
      auth: g.bot.token,
      payload: { nick: 'Early', bio: 'too soon', avatar: PNG_1X1 },
    });
    expect(early.statusCode).toBe(200);
    expectOpenApiResponse(early, 'PATCH', url);
    expect(early.json()).toMatchObject({ nick: 'Early', avatar: null });
    expect((await member(g.bot.userId))?.bio).toBeNull();

    clock.set(Date.UTC(2025, 8, 10));
    const onTime = await g.call('PATCH', url, { auth: g.bot.token, payload: { bio: 'now' } });
    expect(onTime.statusCode).toBe(200);
    expectOpenApiResponse(onTime, 'PATCH', url);
    expect((await member(g.bot.userId))?.bio).toBe('now');
  });

  it('a nick of one’s own needs CHANGE_NICKNAME', async () => {
    const everyone = (await server.app.storage.roles.listByGuild(g.guildId)).find(
      (r) => r.id === g.guildId,
    );
    await server.app.storage.roles.update(g.guildId, g.guildId, {
      permissions: (everyone?.permissions ?? 0n) & ~P.CHANGE_NICKNAME,
    });
    const ivy = await g.join('ivy');
    const audits = await g.auditCount();
    const url = `/guilds/${g.guildId}/members/@me`;
    const res = await g.call('PATCH', url, { auth: ivy.token, payload: { nick: 'Ivy' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 50013 });
    expectOpenApiResponse(res, 'PATCH', url);
    expect((await member(ivy.userId))?.nick).toBeNull();
    expect(await g.auditCount()).toBe(audits);
  });
});
