import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { uniqueName, useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';

/** The earliest a test starts at: after the permission splits, before channel list visibility. */
const EARLIEST = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;

describeDrivers('prune on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let roleId: string;
  /** Where this test's clock began: the members' join times count back from it. */
  let now: number;

  const shared = useClockedServer({ storage: driver }, 'api-clock', {
    from: EARLIEST,
    until: CHANNEL_LIST_VISIBILITY_FROM_MS,
  });
  const { clock } = shared;
  beforeEach(async () => {
    now = shared.startedAt;
    server = shared.server;
    g = await guildFixture(server, {
      botPermissions: P.MANAGE_GUILD | P.KICK_MEMBERS,
      nowMs: () => clock.now(),
    });
    roleId = (
      await g.call('POST', `/guilds/${g.guildId}/roles`, {
        auth: g.owner.token,
        payload: { name: 'R' },
      })
    ).json<{ id: string }>().id;
    // Join times stand for last activity: 10 days ago, exactly 7 days ago, and today.
    await g.join('old', { joinedAt: now - 10 * DAY });
    await g.join('edge', { joinedAt: now - 7 * DAY });
    await g.join('new', { joinedAt: now });
    await g.join('oldrole', { joinedAt: now - 10 * DAY, roleIds: [roleId] });
  });

  const url = () => `/guilds/${g.guildId}/prune`;
  const count = async (query: string, auth = g.bot.token) => {
    const res = await g.call('GET', `${url()}${query}`, auth);
    expectOpenApiResponse(res, 'GET', url());
    return res;
  };
  const members = async () =>
    (await server.app.storage.members.listByGuild(g.guildId, { limit: 1000 })).length;

  /** Gives the bot's managed role exactly these permissions. */
  const grantBot = async (permissions: bigint) => {
    const botRole = (await server.app.storage.roles.listByGuild(g.guildId)).find((r) => r.managed);
    await server.app.storage.roles.update(g.guildId, botRole?.id ?? '', { permissions });
  };
  /** Both prune routes refuse the bot with 50013, and nobody is removed or audited. */
  const expectRefused = async (label: string) => {
    const before = await members();
    const audits = await g.auditCount();
    const counted = await count('');
    expect(counted.statusCode, label).toBe(403);
    expect(counted.json(), label).toMatchObject({ code: 50013 });
    const res = await g.call('POST', url(), {
      auth: g.bot.token,
      payload: { days: 1 },
      reason: 'refused',
    });
    expect(res.statusCode, label).toBe(403);
    expect(res.json(), label).toMatchObject({ code: 50013 });
    expectOpenApiResponse(res, 'POST', url());
    expect(await members(), label).toBe(before);
    expect(await g.auditCount(), label).toBe(audits);
  };
  const pruneAsBot = async () => {
    const res = await g.call('POST', url(), { auth: g.bot.token, payload: {} });
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'POST', url());
    const body: { pruned: number | null } = res.json();
    return body;
  };

  it('prune needs MANAGE_GUILD and KICK_MEMBERS, not either alone', async () => {
    await grantBot(P.MANAGE_GUILD);
    await expectRefused('MANAGE_GUILD only');
    await grantBot(P.KICK_MEMBERS);
    await expectRefused('KICK_MEMBERS only');
    await grantBot(P.MANAGE_GUILD | P.KICK_MEMBERS);
    const before = await members();
    expect(await pruneAsBot()).toEqual({ pruned: 1 });
    expect(await members()).toBe(before - 1);
  });

  it('with PRUNE_REQUIRES_ADMIN, only ADMINISTRATOR prunes', async () => {
    await server.app.storage.guilds.update(g.guildId, { features: ['PRUNE_REQUIRES_ADMIN'] });
    await grantBot(P.MANAGE_GUILD | P.KICK_MEMBERS);
    await expectRefused('MANAGE_GUILD | KICK_MEMBERS with PRUNE_REQUIRES_ADMIN');
    await grantBot(P.ADMINISTRATOR);
    const before = await members();
    expect(await pruneAsBot()).toEqual({ pruned: 1 });
    expect(await members()).toBe(before - 1);
  });

  it('counts members without roles inactive for `days` (join time)', async () => {
    expect((await count('')).json()).toEqual({ pruned: 1 });
    expect((await count('?days=6')).json()).toEqual({ pruned: 2 });
    expect((await count('?days=11')).json()).toEqual({ pruned: 0 });
    expect((await count(`?include_roles=${roleId}`)).json()).toEqual({ pruned: 2 });
    expect((await count(`?include_roles=${roleId},${g.guildId}&days=6`)).json()).toEqual({
      pruned: 3,
    });
    for (const query of ['?days=0', '?days=31', '?include_roles=abc']) {
      const bad = await count(query);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json()).toMatchObject({ code: 50035 });
    }
  });

  it('prunes, audits MEMBER_PRUNE, and hides the count when asked', async () => {
    const res = await g.call('POST', url(), {
      auth: g.bot.token,
      payload: { days: 6, include_roles: [roleId] },
      reason: 'spring clean',
    });
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'POST', url());
    expect(res.json()).toEqual({ pruned: 3 });
    expect(await members()).toBe(3); // owner, bot, new
    const [entry] = await server.app.storage.auditLog.list(g.guildId, {
      actionType: AuditLogActions.MEMBER_PRUNE,
      limit: 10,
    });
    expect(entry).toMatchObject({
      options: { delete_member_days: '6', members_removed: '3' },
      reason: 'spring clean',
    });
    clock.advance(30 * DAY);
    const hidden = await g.call('POST', url(), {
      auth: g.bot.token,
      payload: { days: 1, compute_prune_count: false },
    });
    expect(hidden.json()).toEqual({ pruned: null });
    expectOpenApiResponse(hidden, 'POST', url());
    expect(await members()).toBe(2);
  });

  it('bad bodies and missing permissions prune nobody', async () => {
    const before = await members();
    const audits = await g.auditCount();
    const pat = await g.join('pat', { joinedAt: now - 20 * DAY });
    for (const payload of [{ days: 31 }, { days: 'week' }, { compute_prune_count: 'no' }]) {
      const res = await g.call('POST', url(), { auth: g.bot.token, payload });
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ code: 50035 });
      expectOpenApiResponse(res, 'POST', url());
    }
    const denied = await g.call('POST', url(), { auth: pat.token, payload: {} });
    expect(denied.json()).toMatchObject({ code: 50013 });
    expectOpenApiResponse(denied, 'POST', url());
    expect(await members()).toBe(before + 1);
    expect(await g.auditCount()).toBe(audits);
  });

  /** A role made by the owner, placed at `position` (the bot's managed role is above R). */
  const roleAt = async (name: string, position: number) => {
    const id = (
      await g.call('POST', `/guilds/${g.guildId}/roles`, {
        auth: g.owner.token,
        payload: { name },
      })
    ).json<{ id: string }>().id;
    await server.app.storage.roles.update(g.guildId, id, { position });
    return id;
  };
  const botTop = async () =>
    (await server.app.storage.roles.listByGuild(g.guildId)).find(
      (r) => r.managed && r.botUserId === g.bot.userId,
    );

  it('include_roles may name only roles below the caller, as kick', async () => {
    const same = await roleAt('same', 1);
    const above = await roleAt('above', 1);
    // Creating roles moves the others up: place them once the bot's position is final.
    const top = (await botTop())?.position ?? 0;
    await server.app.storage.roles.update(g.guildId, same, { position: top });
    await server.app.storage.roles.update(g.guildId, above, { position: top + 5 });
    await g.join('peer', { joinedAt: now - 10 * DAY, roleIds: [same] });
    await g.join('boss', { joinedAt: now - 10 * DAY, roleIds: [above] });
    const before = await members();
    const audits = await g.auditCount();
    for (const roleIds of [[same], [above], [roleId, above]]) {
      const counted = await count(`?include_roles=${roleIds.join(',')}`);
      expect(counted.statusCode, roleIds.join()).toBe(403);
      expect(counted.json()).toMatchObject({ code: 50013 });
      const res = await g.call('POST', url(), {
        auth: g.bot.token,
        payload: { include_roles: roleIds },
      });
      expect(res.statusCode, roleIds.join()).toBe(403);
      expect(res.json()).toMatchObject({ code: 50013 });
    }
    expect(await members()).toBe(before);
    expect(await g.auditCount()).toBe(audits);
    // The owner outranks every role: it may include them, and prunes their holders.
    expect((await count(`?include_roles=${same},${above}`, g.owner.token)).json()).toEqual({
      pruned: 3,
    });
    // A role below the caller is allowed (old and oldrole go); peer and boss stay.
    expect((await count(`?include_roles=${roleId}`)).json()).toEqual({ pruned: 2 });
  });

  it('never prunes the owner, nor bots, even through their managed role', async () => {
    const other = await seedDeveloper(server.app, uniqueName('otherdev'), 'otherdev app');
    await server.app.services.guilds.addBot({
      guildId: g.guildId,
      applicationId: other.applicationId,
      permissions: 0n,
    });
    const otherRole = (await server.app.storage.roles.listByGuild(g.guildId)).find(
      (r) => r.managed && r.botUserId === other.botUserId,
    );
    // The bot's own managed role is now below the caller's (the test bot's role moved up).
    await server.app.storage.roles.update(g.guildId, otherRole?.id ?? '', { position: 1 });
    await server.app.storage.roles.update(g.guildId, roleId, { position: 2 });
    const top = await botTop();
    await server.app.storage.roles.update(g.guildId, top?.id ?? '', { position: 3 });
    // Past 7 days for every member, and within the owner's 30-day session.
    clock.advance(8 * DAY);
    const pruned = async (query: string, auth = g.bot.token) => {
      const res = await count(query, auth);
      expect(res.statusCode, query).toBe(200);
      return res.json<{ pruned: number }>().pruned;
    };
    // old, edge, new (all role-less now); the owner, both bots and oldrole are kept.
    expect(await pruned('?days=7')).toBe(3);
    expect(await pruned(`?days=7&include_roles=${otherRole?.id ?? ''}`)).toBe(3);
    // Without its managed role the other bot is still a bot.
    await server.app.storage.members.removeRole(g.guildId, other.botUserId, otherRole?.id ?? '');
    expect(await pruned('?days=7')).toBe(3);
    // The owner counting: still never itself, nor the bots.
    expect(await pruned(`?days=7&include_roles=${roleId}`, g.owner.token)).toBe(4);
    const res = await g.call('POST', url(), {
      auth: g.owner.token,
      payload: { days: 7, include_roles: [roleId, otherRole?.id ?? ''] },
    });
    expect(res.json()).toEqual({ pruned: 4 });
    const left = (await server.app.storage.members.listByGuild(g.guildId, { limit: 100 })).map(
      (m) => m.userId,
    );
    expect(left.sort()).toEqual([g.owner.userId, g.bot.userId, other.botUserId].sort());
  });

  it('PRUNE_REQUIRES_ADMIN restricts prune to administrators and the owner', async () => {
    await server.app.storage.guilds.update(g.guildId, { features: ['PRUNE_REQUIRES_ADMIN'] });
    const before = await members();
    expect((await count('')).json()).toMatchObject({ code: 50013 });
    const denied = await g.call('POST', url(), { auth: g.bot.token, payload: {} });
    expect(denied.json()).toMatchObject({ code: 50013 });
    expectOpenApiResponse(denied, 'POST', url());
    expect(await members()).toBe(before);
    expect((await count('', g.owner.token)).json()).toEqual({ pruned: 1 });
    const botRole = (await server.app.storage.roles.listByGuild(g.guildId)).find((r) => r.managed);
    await server.app.storage.roles.update(g.guildId, botRole?.id ?? '', {
      permissions: P.ADMINISTRATOR,
    });
    expect((await count('')).json()).toEqual({ pruned: 1 });
  });
});
