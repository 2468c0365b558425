import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { registration, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';
import type { RoleWire } from './serialize.js';

const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describeDrivers('roles on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;

  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, { botPermissions: P.MANAGE_ROLES | P.SEND_MESSAGES });
  });

  const roles = () => server.app.storage.roles.listByGuild(g.guildId);
  const audit = (actionType: number) =>
    server.app.storage.auditLog.list(g.guildId, { actionType, limit: 100 });
  const create = async (payload: object, auth = g.owner.token) => {
    const res = await g.call('POST', `/guilds/${g.guildId}/roles`, { auth, payload });
    expectOpenApiResponse(res, 'POST', `/guilds/${g.guildId}/roles`);
    return res;
  };

  it('creates a role at the bottom, reads it back, and audits it', async () => {
    const res = await g.call('POST', `/guilds/${g.guildId}/roles`, {
      auth: g.owner.token,
      payload: { name: 'Mods', permissions: String(P.KICK_MEMBERS), color: 0x3498db, hoist: true },
      reason: 'new team',
    });
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'POST', `/guilds/${g.guildId}/roles`);
    const role = res.json<RoleWire>();
    expect(role).toMatchObject({
      name: 'Mods',
      permissions: String(P.KICK_MEMBERS),
      position: 1,
      color: 0x3498db,
      colors: { primary_color: 0x3498db, secondary_color: null, tertiary_color: null },
      hoist: true,
      managed: false,
      mentionable: false,
      icon: null,
      unicode_emoji: null,
      flags: 0,
    });

    const list = await g.call('GET', `/guilds/${g.guildId}/roles`, g.bot.token);
    expect(list.statusCode).toBe(200);
    expectOpenApiResponse(list, 'GET', `/guilds/${g.guildId}/roles`);
    const wire = list.json<RoleWire[]>();
    expect(wire.map((r) => [r.name, r.position])).toEqual([
      ['@everyone', 0],
      ['Mods', 1],
      ['owner app', 2],
    ]);
    // The bot's managed role carries its bot id.
    expect(wire[2]).toMatchObject({ managed: true, tags: { bot_id: g.bot.userId } });

    const one = await g.call('GET', `/guilds/${g.guildId}/roles/${role.id}`, g.bot.token);
    expect(one.statusCode).toBe(200);
    expectOpenApiResponse(one, 'GET', `/guilds/${g.guildId}/roles/${role.id}`);
    expect(one.json()).toEqual(role);

    const [entry] = await audit(AuditLogActions.ROLE_CREATE);
    expect(entry).toMatchObject({ userId: g.owner.userId, targetId: role.id, reason: 'new team' });
    expect(entry?.changes).toContainEqual({ key: 'name', new_value: 'Mods' });
  });

  it('a new role defaults to @everyone permissions and "new role"', async () => {
    const res = await create({});
    const everyone = (await roles()).find((r) => r.id === g.guildId);
    expect(res.json()).toMatchObject({
      name: 'new role',
      permissions: String(everyone?.permissions),
    });
  });

  it('unknown and malformed ids: 10004, 10011; outsiders get 50001', async () => {
    const unknownGuild = await g.call('GET', '/guilds/123/roles', g.owner.token);
    expect(unknownGuild.statusCode).toBe(404);
    expect(unknownGuild.json()).toMatchObject({ code: 10004 });
    expectOpenApiResponse(unknownGuild, 'GET', '/guilds/123/roles');
    for (const roleId of ['123', 'abc']) {
      const res = await g.call('GET', `/guilds/${g.guildId}/roles/${roleId}`, g.owner.token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 10011 });
      expectOpenApiResponse(res, 'GET', `/guilds/${g.guildId}/roles/123`);
    }
    const stranger = await server.app.services.auth.register(registration('stranger'));
    const before = await roles();
    const audits = await g.auditCount();
    const outsider = await g.call('POST', `/guilds/${g.guildId}/roles`, {
      auth: stranger.token,
      payload: { name: 'x' },
    });
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toMatchObject({ code: 50001 });
    expectOpenApiResponse(outsider, 'POST', `/guilds/${g.guildId}/roles`);
    expect(await roles()).toEqual(before);
    expect(await g.auditCount()).toBe(audits);
  });

  it('bad fields are 50035 and create nothing', async () => {
    const before = await roles();
    const audits = await g.auditCount();
    for (const [payload, field] of [
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: '' }, 'name'],
      [{ color: 0x1000000 }, 'color'],
      [{ color: 'red' }, 'color'],
      [{ permissions: 'lots' }, 'permissions'],
      [{ hoist: 'yes' }, 'hoist'],
      [{ unicode_emoji: 'x'.repeat(101) }, 'unicode_emoji'],
      [{ icon: 'data:text/plain;base64,aGVsbG8=' }, 'icon'],
    ] as const) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 50035, errors: { [field]: {} } });
    }
    expect(await roles()).toEqual(before);
    expect(await g.auditCount()).toBe(audits);
  });

  it('nobody grants bits they lack; the owner may grant any', async () => {
    const before = await roles();
    const audits = await g.auditCount();
    const denied = await create({ permissions: String(P.ADMINISTRATOR) }, g.bot.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 50013 });
    expect(await roles()).toEqual(before);
    expect(await g.auditCount()).toBe(audits);

    const own = await create({ permissions: String(P.MANAGE_ROLES) }, g.bot.token);
    expect(own.statusCode).toBe(200);
    const admin = await create({ permissions: String(P.ADMINISTRATOR) });
    expect(admin.json()).toMatchObject({ permissions: String(P.ADMINISTRATOR) });
  });

  it('MANAGE_ROLES is needed to create, modify and delete', async () => {
    const person = await g.join('pat');
    const role = (await create({ name: 'Target' })).json<RoleWire>();
    const before = await roles();
    const audits = await g.auditCount();
    const attempts = [
      g.call('POST', `/guilds/${g.guildId}/roles`, { auth: person.token, payload: {} }),
      g.call('PATCH', `/guilds/${g.guildId}/roles/${role.id}`, {
        auth: person.token,
        payload: { name: 'x' },
      }),
      g.call('DELETE', `/guilds/${g.guildId}/roles/${role.id}`, person.token),
      g.call('PATCH', `/guilds/${g.guildId}/roles`, {
        auth: person.token,
        payload: [{ id: role.id, position: 2 }],
      }),
    ];
    const paths = ['/roles', `/roles/${role.id}`, `/roles/${role.id}`, '/roles'];
    const methods = ['POST', 'PATCH', 'DELETE', 'PATCH'];
    for (const [index, res] of (await Promise.all(attempts)).entries()) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 50013 });
      expectOpenApiResponse(res, methods[index] ?? '', `/guilds/${g.guildId}${paths[index] ?? ''}`);
    }
    expect(await roles()).toEqual(before);
    expect(await g.auditCount()).toBe(audits);
  });

  it('modifies a role; color and colors.primary_color stay equal', async () => {
    const role = (await create({ name: 'Painted' })).json<RoleWire>();
    const url = `/guilds/${g.guildId}/roles/${role.id}`;
    const byColor = await g.call('PATCH', url, {
      auth: g.bot.token,
      // With a name and permissions beside the colour: each is kept (the colour is not the role).
      payload: {
        name: 'Repainted',
        permissions: String(P.VIEW_CHANNEL),
        color: 0xff0000,
        mentionable: true,
        unicode_emoji: '🎨',
      },
      reason: 'paint',
    });
    expect(byColor.statusCode).toBe(200);
    expectOpenApiResponse(byColor, 'PATCH', url);
    expect(byColor.json()).toMatchObject({
      name: 'Repainted',
      permissions: String(P.VIEW_CHANNEL),
      color: 0xff0000,
      colors: { primary_color: 0xff0000, secondary_color: null },
      mentionable: true,
      unicode_emoji: '🎨',
    });
    const byColors = await g.call('PATCH', url, {
      auth: g.bot.token,
      payload: { colors: { primary_color: 0x00ff00 } },
    });
    expect(byColors.json()).toMatchObject({ color: 0x00ff00, colors: { primary_color: 0x00ff00 } });

    const entries = await audit(AuditLogActions.ROLE_UPDATE);
    expect(entries.find((e) => e.reason === 'paint')?.changes).toContainEqual({
      key: 'color',
      old_value: 0,
      new_value: 0xff0000,
    });
  });

  it('gradients need ENHANCED_ROLE_COLORS; a tertiary colour is holographic', async () => {
    const role = (await create({ name: 'Gradient' })).json<RoleWire>();
    const url = `/guilds/${g.guildId}/roles/${role.id}`;
    const before = await roles();
    const audits = await g.auditCount();
    const refused = await g.call('PATCH', url, {
      auth: g.owner.token,
      payload: { colors: { primary_color: 1, secondary_color: 2 } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 50035,
      errors: { colors: { secondary_color: {} } },
    });
    expectOpenApiResponse(refused, 'PATCH', url);
    expect(await roles()).toEqual(before);
    expect(await g.auditCount()).toBe(audits);

    await server.app.storage.guilds.update(g.guildId, { features: ['ENHANCED_ROLE_COLORS'] });
    const gradient = await g.call('PATCH', url, {
      auth: g.owner.token,
      payload: { colors: { primary_color: 1, secondary_color: 2 } },
    });
    expect(gradient.json()).toMatchObject({
      color: 1,
      colors: { primary_color: 1, secondary_color: 2, tertiary_color: null },
    });
    const holo = await create({
      colors: { primary_color: 5, secondary_color: 6, tertiary_color: 7 },
    });
    expect(holo.json()).toMatchObject({
      color: 11127295,
      colors: { primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 },
    });
  });

  it('a role icon is stored and served back', async () => {
    const res = await create({ name: 'Iconic', icon: PNG_1X1 });
    const role = res.json<RoleWire>();
    expect(role.icon).toMatch(/^[0-9a-f]{32}$/);
    const image = await server.app.http.inject({
      method: 'GET',
      url: `/role-icons/${role.id}/${role.icon}.png`,
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
  });

  it('hierarchy: nobody edits or deletes a role at or above their highest', async () => {
    const above = (await create({ name: 'Above' })).json<RoleWire>();
    // Move it above the bot's role (the owner may move anything).
    const moved = await g.call('PATCH', `/guilds/${g.guildId}/roles`, {
      auth: g.owner.token,
      payload: [{ id: above.id, position: 2 }],
    });
    expect(moved.statusCode).toBe(200);
    expectOpenApiResponse(moved, 'PATCH', `/guilds/${g.guildId}/roles`);
    expect(moved.json<RoleWire[]>().map((r) => r.name)).toEqual([
      '@everyone',
      'owner app',
      'Above',
    ]);
    const before = await roles();
    const audits = await g.auditCount();
    const botRole = before.find((r) => r.managed);
    for (const res of [
      await g.call('PATCH', `/guilds/${g.guildId}/roles/${above.id}`, {
        auth: g.bot.token,
        payload: { name: 'Mine now' },
      }),
      await g.call('DELETE', `/guilds/${g.guildId}/roles/${above.id}`, g.bot.token),
      await g.call('PATCH', `/guilds/${g.guildId}/roles/${botRole?.id}`, {
        auth: g.bot.token,
        payload: { name: 'Own role' },
      }),
      await g.call('PATCH', `/guilds/${g.guildId}/roles`, {
        auth: g.bot.token,
        payload: [{ id: above.id, position: 1 }],
      }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 50013 });
    }
    expect(await roles()).toEqual(before);
    expect(await g.auditCount()).toBe(audits);
    // The owner is above every role.
    const owner = await g.call('PATCH', `/guilds/${g.guildId}/roles/${above.id}`, {
      auth: g.owner.token,
      payload: { name: 'Renamed' },
    });
    expect(owner.json()).toMatchObject({ name: 'Renamed' });
  });

  it('reorders below one’s rank and audits each move; bad entries change nothing', async () => {
    const a = (await create({ name: 'A' })).json<RoleWire>();
    const b = (await create({ name: 'B' })).json<RoleWire>();
    // Now: @everyone 0, B 1, A 2, bot 3.
    const url = `/guilds/${g.guildId}/roles`;
    const res = await g.call('PATCH', url, {
      auth: g.bot.token,
      payload: [{ id: b.id, position: 2 }],
      reason: 'order',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<RoleWire[]>().map((r) => [r.name, r.position])).toEqual([
      ['@everyone', 0],
      ['A', 1],
      ['B', 2],
      ['owner app', 3],
    ]);
    const moves = (await audit(AuditLogActions.ROLE_UPDATE)).filter((e) => e.reason === 'order');
    expect(moves).toHaveLength(2);

    const before = await roles();
    const audits = await g.auditCount();
    for (const [payload, code] of [
      [[{ id: '1', position: 1 }], 10011],
      [[{ id: g.guildId, position: 3 }], 50028],
      [[{ id: a.id, position: 'top' }], 50035],
      [{ id: a.id }, 50035],
    ] as const) {
      const bad = await g.call('PATCH', url, { auth: g.bot.token, payload });
      expect(bad.json(), JSON.stringify(payload)).toMatchObject({ code });
      expectOpenApiResponse(bad, 'PATCH', url);
    }
    expect(await roles()).toEqual(before);
    expect(await g.auditCount()).toBe(audits);
  });

  it('deletes a role (204); @everyone and managed roles stay', async () => {
    const role = (await create({ name: 'Doomed' })).json<RoleWire>();
    const member = await g.join('holder', { roleIds: [role.id] });
    const url = `/guilds/${g.guildId}/roles/${role.id}`;
    const res = await g.call('DELETE', url, { auth: g.bot.token, reason: 'cleanup' });
    expect(res.statusCode).toBe(204);
    expectOpenApiResponse(res, 'DELETE', url);
    expect((await roles()).some((r) => r.id === role.id)).toBe(false);
    expect((await server.app.storage.members.find(g.guildId, member.userId))?.roleIds).toEqual([]);
    const [entry] = await audit(AuditLogActions.ROLE_DELETE);
    expect(entry).toMatchObject({ targetId: role.id, reason: 'cleanup' });
    expect(entry?.changes).toContainEqual({ key: 'name', old_value: 'Doomed' });

    const before = await roles();
    const audits = await g.auditCount();
    const managed = before.find((r) => r.managed);
    for (const id of [g.guildId, managed?.id]) {
      const refused = await g.call('DELETE', `/guilds/${g.guildId}/roles/${id}`, g.owner.token);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 50028 });
      expectOpenApiResponse(refused, 'DELETE', `/guilds/${g.guildId}/roles/${id}`);
    }
    const gone = await g.call('DELETE', url, g.owner.token);
    expect(gone.json()).toMatchObject({ code: 10011 });
    expect(await roles()).toEqual(before);
    expect(await g.auditCount()).toBe(audits);
  });

  it('counts members per role, @everyone left out', async () => {
    const role = (await create({ name: 'Counted' })).json<RoleWire>();
    await g.join('one', { roleIds: [role.id] });
    await g.join('two', { roleIds: [role.id] });
    const url = `/guilds/${g.guildId}/roles/member-counts`;
    const res = await g.call('GET', url, g.bot.token);
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'GET', url);
    const botRole = (await roles()).find((r) => r.managed);
    expect(res.json()).toEqual({ [role.id]: 2, [String(botRole?.id)]: 1 });
  });
});
