import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { DRIVERS } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { startTestServer, type TestServer } from '../../../test/support/testServer.js';

const NOW = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;

describe.each(DRIVERS)('prune on $driver', ({ driver, skip }) => {
  let server: TestServer;
  let g: GuildFixture;
  const clock = manualClock(NOW);
  let roleId: string;

  beforeEach(async () => {
    if (skip) return;
    clock.set(NOW);
    server = await startTestServer({ storage: driver, clock });
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
    await g.join('old', { joinedAt: NOW - 10 * DAY });
    await g.join('edge', { joinedAt: NOW - 7 * DAY });
    await g.join('new', { joinedAt: NOW });
    await g.join('oldrole', { joinedAt: NOW - 10 * DAY, roleIds: [roleId] });
  });
  afterEach(async () => {
    if (!skip) await server.close();
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

  it.skipIf(skip)('prune needs MANAGE_GUILD and KICK_MEMBERS, not either alone', async () => {
    await grantBot(P.MANAGE_GUILD);
    await expectRefused('MANAGE_GUILD only');
    await grantBot(P.KICK_MEMBERS);
    await expectRefused('KICK_MEMBERS only');
    await grantBot(P.MANAGE_GUILD | P.KICK_MEMBERS);
    const before = await members();
    expect(await pruneAsBot()).toEqual({ pruned: 1 });
    expect(await members()).toBe(before - 1);
  });

  it.skipIf(skip)('with PRUNE_REQUIRES_ADMIN, only ADMINISTRATOR prunes', async () => {
    await server.app.storage.guilds.update(g.guildId, { features: ['PRUNE_REQUIRES_ADMIN'] });
    await grantBot(P.MANAGE_GUILD | P.KICK_MEMBERS);
    await expectRefused('MANAGE_GUILD | KICK_MEMBERS with PRUNE_REQUIRES_ADMIN');
    await grantBot(P.ADMINISTRATOR);
    const before = await members();
    expect(await pruneAsBot()).toEqual({ pruned: 1 });
    expect(await members()).toBe(before - 1);
  });

  it.skipIf(skip)('counts members without roles inactive for `days` (join time)', async () => {
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

  it.skipIf(skip)('prunes, audits MEMBER_PRUNE, and hides the count when asked', async () => {
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

  it.skipIf(skip)('bad bodies and missing permissions prune nobody', async () => {
    const before = await members();
    const audits = await g.auditCount();
    const pat = await g.join('pat', { joinedAt: NOW - 20 * DAY });
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

  it.skipIf(skip)(
    'PRUNE_REQUIRES_ADMIN restricts prune to administrators and the owner',
    async () => {
      await server.app.storage.guilds.update(g.guildId, { features: ['PRUNE_REQUIRES_ADMIN'] });
      const before = await members();
      expect((await count('')).json()).toMatchObject({ code: 50013 });
      const denied = await g.call('POST', url(), { auth: g.bot.token, payload: {} });
      expect(denied.json()).toMatchObject({ code: 50013 });
      expectOpenApiResponse(denied, 'POST', url());
      expect(await members()).toBe(before);
      expect((await count('', g.owner.token)).json()).toEqual({ pruned: 1 });
      const botRole = (await server.app.storage.roles.listByGuild(g.guildId)).find(
        (r) => r.managed,
      );
      await server.app.storage.roles.update(g.guildId, botRole?.id ?? '', {
        permissions: P.ADMINISTRATOR,
      });
      expect((await count('')).json()).toEqual({ pruned: 1 });
    },
  );
});
