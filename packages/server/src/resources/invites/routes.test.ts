import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { fabricatedId, registration, useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import { expectOpenApiResponse, getOpenApiValidator } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';

/** The earliest a test starts at: after the permission splits. */
const EARLIEST = Date.UTC(2026, 2, 1);
const DAY_S = 86_400;

interface InviteBody {
  code: string;
  guild_id: string;
  channel: { id: string };
  inviter?: { id: string };
  uses?: number;
  max_uses?: number;
  max_age?: number;
  temporary?: boolean;
  created_at?: string;
  expires_at: string | null;
  roles: { id: string }[];
  target_type?: number;
  target_user?: { id: string };
  target_application?: { id: string };
  approximate_member_count?: number;
}

const inviteOf = (res: LightMyRequestResponse) => res.json<InviteBody>();
const invitesOf = (res: LightMyRequestResponse) => res.json<InviteBody[]>();
const errorCode = (res: LightMyRequestResponse) => res.json<{ code: number }>().code;

describeDrivers('invites on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let channelId: string;
  const shared = useClockedServer({ storage: driver }, 'api-clock', {
    from: EARLIEST,
    until: CHANNEL_LIST_VISIBILITY_FROM_MS,
  });
  const { clock } = shared;
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, {
      botPermissions: P.CREATE_INSTANT_INVITE | P.MANAGE_CHANNELS | P.MANAGE_GUILD | P.MANAGE_ROLES,
      nowMs: () => clock.now(),
    });
    const [channel] = await server.app.storage.channels.listByGuild(g.guildId);
    channelId = channel?.id ?? '';
  });

  const createUrl = () => `/channels/${channelId}/invites`;
  const create = (payload: unknown, auth = g.bot.token) =>
    g.call('POST', createUrl(), { auth, payload, reason: 'welcome' });
  const created = async (payload: unknown = {}, auth = g.bot.token) => {
    const res = await create(payload, auth);
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'POST', createUrl());
    return inviteOf(res);
  };
  /** A person outside the guild, with a session. */
  const stranger = async (name: string) => {
    const session = await server.app.services.auth.register(registration(name));
    return { userId: session.user_id, token: session.token };
  };
  const makeRole = (name: string, position: number) =>
    server.app.storage.roles.create({
      id: fabricatedId(g.guildId),
      guildId: g.guildId,
      name,
      permissions: 0n,
      position,
      color: 0x3498db,
      hoist: false,
      mentionable: false,
      managed: false,
      botUserId: null,
      flags: 0,
    });
  const audit = (actionType: number) =>
    server.app.storage.auditLog.list(g.guildId, { actionType, limit: 100 });

  describe('POST /channels/{id}/invites', () => {
    it('creates an invite with its metadata, audits and dispatches it', async () => {
      const watch = await recordDispatches(server.app);
      onTestFinished(watch.stop);
      const invite = await created({});
      expect(invite).toMatchObject({
        guild_id: g.guildId,
        channel: { id: channelId },
        inviter: { id: g.bot.userId },
        uses: 0,
        max_uses: 0,
        max_age: DAY_S,
        temporary: false,
        created_at: new Date(shared.startedAt).toISOString(),
        expires_at: new Date(shared.startedAt + DAY_S * 1000).toISOString(),
        roles: [],
      });
      expect(invite.code).toMatch(/^[A-Za-z0-9]{10}$/);
      const [entry] = await audit(AuditLogActions.INVITE_CREATE);
      expect(entry).toMatchObject({
        userId: g.bot.userId,
        targetId: invite.code,
        reason: 'welcome',
      });
      const dispatch = await watch.next('INVITE_CREATE');
      expect(dispatch.subject).toBe(`dispatch.guild.${g.guildId}`);
      expect(dispatch).toMatchObject({
        guildId: g.guildId,
        channelId,
        data: { code: invite.code, channel_id: channelId, guild_id: g.guildId, uses: 0 },
      });
    });

    it('needs a body, but {} is enough', async () => {
      const res = await g.call('POST', createUrl(), g.bot.token);
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe(50035);
      expectOpenApiResponse(res, 'POST', createUrl());
    });

    it('reuses an equivalent invite unless unique is true', async () => {
      const first = await created({ max_age: 3600, max_uses: 5 });
      const again = await created({ max_age: 3600, max_uses: 5, unique: false });
      expect(again.code).toBe(first.code);
      const other = await created({ max_age: 3600, max_uses: 6 });
      expect(other.code).not.toBe(first.code);
      const forced = await created({ max_age: 3600, max_uses: 5, unique: true });
      expect(forced.code).not.toBe(first.code);
      expect(await audit(AuditLogActions.INVITE_CREATE)).toHaveLength(3);
    });

    it('takes max_age 0 (never expires) up to the spec maximum', async () => {
      expect((await created({ max_age: 0 })).expires_at).toBeNull();
      const longest = await created({ max_age: 5_184_000, unique: true });
      expect(longest.max_age).toBe(5_184_000);
      expect((await created({ temporary: true, unique: true })).temporary).toBe(true);
    });

    it('refuses out-of-range values with 50035', async () => {
      for (const body of [
        { max_age: -1 },
        { max_age: 5_184_001 },
        { max_age: 1.5 },
        { max_uses: 101 },
        { max_uses: -1 },
        { temporary: 'yes' },
        { target_type: 3 },
        { target_user_id: 'abc' },
        { role_ids: Array.from({ length: 251 }, (_, i) => String(1000 + i)) },
        { role_ids: ['1', '1'] },
        { target_user_ids: Array.from({ length: 1001 }, (_, i) => String(1000 + i)) },
        { target_user_ids: ['x'] },
      ]) {
        const res = await create(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorCode(res)).toBe(50035);
        expectOpenApiResponse(res, 'POST', createUrl());
      }
    });

    it('needs CREATE_INSTANT_INVITE in the channel', async () => {
      await server.app.storage.roles.update(g.guildId, g.guildId, { permissions: P.VIEW_CHANNEL });
      const mal = await g.join('mal');
      const res = await create({}, mal.token);
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe(50013);
      expectOpenApiResponse(res, 'POST', createUrl());
      expect(await g.auditCount()).toBe(1); // only the bot's BOT_ADD
      const category = await server.app.storage.channels.create({
        id: fabricatedId(channelId),
        guildId: g.guildId,
        type: 4,
        name: 'info',
        position: 1,
        parentId: null,
        topic: null,
        nsfw: false,
        rateLimitPerUser: 0,
        bitrate: null,
        userLimit: null,
        flags: 0,
        lastMessageId: null,
        createdAt: clock.now(),
      });
      const toCategory = await g.call('POST', `/channels/${category.id}/invites`, {
        auth: g.bot.token,
        payload: {},
      });
      expect(errorCode(toCategory)).toBe(50024);
      const unknown = await g.call('POST', '/channels/123/invites', {
        auth: g.bot.token,
        payload: {},
      });
      expect(errorCode(unknown)).toBe(10003);
    });

    it('targets a stream user or an embedded application', async () => {
      const streamer = await g.join('streamer');
      const stream = await created({ target_type: 1, target_user_id: streamer.userId });
      expect(stream).toMatchObject({ target_type: 1, target_user: { id: streamer.userId } });
      const app = await created({ target_type: 2, target_application_id: g.bot.applicationId });
      expect(app).toMatchObject({
        target_type: 2,
        target_application: { id: g.bot.applicationId },
      });
      const missingUser = await create({ target_type: 1 });
      expect(errorCode(missingUser)).toBe(50035);
      const missingApp = await create({ target_type: 2 });
      expect(errorCode(missingApp)).toBe(50035);
      const unknownUser = await create({ target_type: 1, target_user_id: '42' });
      expect(errorCode(unknownUser)).toBe(10013);
    });

    it('gives roles below the inviter, as partial roles, with MANAGE_ROLES', async () => {
      // The bot's managed role is at position 1; these sit below and above it.
      await server.app.storage.roles.setPositions(g.guildId, []);
      const roles = await server.app.storage.roles.listByGuild(g.guildId);
      const botRole = roles.find((r) => r.managed);
      await server.app.storage.roles.update(g.guildId, botRole?.id ?? '', { position: 5 });
      const low = await makeRole('low', 2);
      const high = await makeRole('high', 9);
      const invite = await created({ role_ids: [low.id] });
      expect(invite.roles).toEqual([
        {
          id: low.id,
          name: 'low',
          position: 2,
          color: 0x3498db,
          colors: { primary_color: 0x3498db, secondary_color: null, tertiary_color: null },
          icon: null,
          unicode_emoji: null,
        },
      ]);
      const above = await create({ role_ids: [high.id] });
      expect(above.statusCode).toBe(403);
      expect(errorCode(above)).toBe(50013);
      const managed = await create({ role_ids: [botRole?.id] });
      expect(errorCode(managed)).toBe(50013);
      const unknown = await create({ role_ids: ['12345'] });
      expect(errorCode(unknown)).toBe(10011);
      // The owner may give any role.
      const byOwner = await created({ role_ids: [high.id] }, g.owner.token);
      expect(byOwner.roles.map((r) => r.id)).toEqual([high.id]);
      // Without MANAGE_ROLES, no roles at all.
      const member = await g.join('helper');
      const withoutManageRoles = await create({ role_ids: [low.id] }, member.token);
      expect(errorCode(withoutManageRoles)).toBe(50013);
    });
  });

  describe('GET and DELETE /invites/{code}', () => {
    it('resolves a code, with counts when asked', async () => {
      const invite = await created({});
      const url = `/invites/${invite.code}`;
      const res = await server.app.http.inject({ method: 'GET', url: `/api/v10${url}` });
      expect(res.statusCode).toBe(200);
      expectOpenApiResponse(res, 'GET', url);
      expect(inviteOf(res)).not.toHaveProperty('uses');
      const counted = await g.call('GET', `${url}?with_counts=true&with_expiration=true`, '');
      expectOpenApiResponse(counted, 'GET', url);
      expect(inviteOf(counted).approximate_member_count).toBe(2);
    });

    it('answers 10006 for unknown, malformed and expired codes', async () => {
      const invite = await created({ max_age: 60 });
      for (const code of ['nope', 'x'.repeat(40), '%27%3B--']) {
        const res = await g.call('GET', `/invites/${code}`, '');
        expect(res.statusCode).toBe(404);
        expect(errorCode(res)).toBe(10006);
        expectOpenApiResponse(res, 'GET', `/invites/${code}`);
      }
      clock.advance(60_000);
      const expired = await g.call('GET', `/invites/${invite.code}`, '');
      expect(errorCode(expired)).toBe(10006);
    });

    it('revokes with MANAGE_CHANNELS or MANAGE_GUILD only', async () => {
      const watch = await recordDispatches(server.app);
      onTestFinished(watch.stop);
      const invite = await created({});
      const url = `/invites/${invite.code}`;
      const mal = await g.join('mal');
      const refused = await g.call('DELETE', url, mal.token);
      expect(refused.statusCode).toBe(403);
      expect(errorCode(refused)).toBe(50013);
      expectOpenApiResponse(refused, 'DELETE', url);
      const res = await g.call('DELETE', url, { auth: g.bot.token, reason: 'old' });
      expect(res.statusCode).toBe(200);
      expectOpenApiResponse(res, 'DELETE', url);
      expect(inviteOf(res).code).toBe(invite.code);
      expect(errorCode(await g.call('GET', url, ''))).toBe(10006);
      expect(errorCode(await g.call('DELETE', url, g.bot.token))).toBe(10006);
      const [entry] = await audit(AuditLogActions.INVITE_DELETE);
      expect(entry).toMatchObject({ targetId: invite.code, reason: 'old' });
      const dispatch = await watch.next('INVITE_DELETE');
      expect(dispatch.data).toEqual({
        channel_id: channelId,
        guild_id: g.guildId,
        code: invite.code,
      });
    });
  });

  describe('listing', () => {
    it('lists a channel’s and a guild’s live invites to managers only', async () => {
      const kept = await created({ max_age: 0 });
      await created({ max_age: 60, unique: true });
      clock.advance(61_000);
      const channelList = await g.call('GET', createUrl(), g.bot.token);
      expect(channelList.statusCode).toBe(200);
      expectOpenApiResponse(channelList, 'GET', createUrl());
      expect(invitesOf(channelList).map((i) => i.code)).toEqual([kept.code]);
      const guildUrl = `/guilds/${g.guildId}/invites`;
      const guildList = await g.call('GET', guildUrl, g.bot.token);
      expectOpenApiResponse(guildList, 'GET', guildUrl);
      expect(invitesOf(guildList)[0]).toMatchObject({ code: kept.code, uses: 0 });
      const mal = await g.join('mal');
      for (const url of [createUrl(), guildUrl]) {
        const res = await g.call('GET', url, mal.token);
        expect(errorCode(res)).toBe(50013);
        expectOpenApiResponse(res, 'GET', url);
      }
    });
  });

  describe('accepting', () => {
    /** The accept route is not in openapi.json: its body is the invite object GET returns. */
    const expectInviteBody = (res: LightMyRequestResponse, code: string) => {
      const result = getOpenApiValidator().validateResponse({
        method: 'GET',
        path: `/invites/${code}`,
        status: res.statusCode,
        body: res.json(),
      });
      expect(result).toEqual({ ok: true });
    };

    it('joins the guild with the invite’s roles and counts the use', async () => {
      const watch = await recordDispatches(server.app);
      onTestFinished(watch.stop);
      const low = await makeRole('low', 1);
      const invite = await created({ role_ids: [low.id] }, g.owner.token);
      const ann = await stranger('ann');
      const res = await g.call('POST', `/invites/${invite.code}`, ann.token);
      expect(res.statusCode, res.body).toBe(200);
      expectInviteBody(res, invite.code);
      const member = await server.app.storage.members.find(g.guildId, ann.userId);
      expect(member?.roleIds).toEqual([low.id]);
      expect((await server.app.storage.invites.find(invite.code))?.uses).toBe(1);
      const dispatch = await watch.next('GUILD_MEMBER_ADD');
      expect(dispatch.data).toMatchObject({
        guild_id: g.guildId,
        user: { id: ann.userId },
        roles: [low.id],
      });
      // Joining again changes nothing.
      const again = await g.call('POST', `/invites/${invite.code}`, ann.token);
      expect(again.statusCode).toBe(200);
      expect((await server.app.storage.invites.find(invite.code))?.uses).toBe(1);
    });

    it('is gone once max_uses is reached', async () => {
      const invite = await created({ max_uses: 1 });
      const ann = await stranger('ann');
      const bob = await stranger('bob');
      expect((await g.call('POST', `/invites/${invite.code}`, ann.token)).statusCode).toBe(200);
      const late = await g.call('POST', `/invites/${invite.code}`, bob.token);
      expect(late.statusCode).toBe(404);
      expect(errorCode(late)).toBe(10006);
      expect(await server.app.storage.invites.find(invite.code)).toBeNull();
    });

    it('admits one of two simultaneous accepts of a max_uses 1 invite', async () => {
      const invite = await created({ max_uses: 1 });
      const people = await Promise.all(['ann', 'bob', 'cid'].map((name) => stranger(name)));
      const answers = await Promise.all(
        people.map((person) => g.call('POST', `/invites/${invite.code}`, person.token)),
      );
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 404, 404]);
      for (const res of answers.filter((answer) => answer.statusCode === 404)) {
        expect(errorCode(res)).toBe(10006);
      }
      const joined = await Promise.all(
        people.map((person) => server.app.storage.members.find(g.guildId, person.userId)),
      );
      expect(joined.filter((member) => member !== null)).toHaveLength(1);
      expect(await server.app.storage.invites.find(invite.code)).toBeNull();
    });

    it('refuses banned users (40007), bots (20001) and expired codes', async () => {
      const invite = await created({ max_age: 120 });
      const ann = await stranger('ann');
      await server.app.storage.bans.create({
        guildId: g.guildId,
        userId: ann.userId,
        reason: null,
        deleteMessageSeconds: 0,
        createdAt: clock.now(),
      });
      const banned = await g.call('POST', `/invites/${invite.code}`, ann.token);
      expect(banned.statusCode).toBe(403);
      expect(errorCode(banned)).toBe(40007);
      const bot = await g.call('POST', `/invites/${invite.code}`, g.bot.token);
      expect(errorCode(bot)).toBe(20001);
      clock.advance(120_000);
      const bob = await stranger('bob');
      expect(errorCode(await g.call('POST', `/invites/${invite.code}`, bob.token))).toBe(10006);
      expect(await server.app.storage.members.find(g.guildId, bob.userId)).toBeNull();
    });

    it('refuses a user who is in 100 guilds already (30001)', async () => {
      const invite = await created({});
      const ann = await stranger('ann');
      for (let i = 0; i < 100; i++) {
        // Ids no snowflake of the server takes (the worker's files share it).
        const guildId = fabricatedId(g.guildId);
        await server.app.storage.guilds.create({
          id: guildId,
          name: `guild ${i}`,
          icon: null,
          description: null,
          ownerId: g.owner.userId,
          features: [],
          preferredLocale: 'en-US',
          createdAt: clock.now(),
        });
        await server.app.storage.members.add({
          guildId,
          userId: ann.userId,
          nick: null,
          joinedAt: clock.now(),
          deaf: false,
          mute: false,
          flags: 0,
          roleIds: [],
        });
      }
      const res = await g.call('POST', `/invites/${invite.code}`, ann.token);
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe(30001);
      expect((await server.app.storage.invites.find(invite.code))?.uses).toBe(0);
    });

    it('admits only the target users of an invite that has them', async () => {
      const ann = await stranger('ann');
      const bob = await stranger('bob');
      const invite = await created({ target_user_ids: [ann.userId] });
      const refused = await g.call('POST', `/invites/${invite.code}`, bob.token);
      expect(refused.statusCode).toBe(403);
      expect(errorCode(refused)).toBe(50001);
      expect(await server.app.storage.members.find(g.guildId, bob.userId)).toBeNull();
      const admitted = await g.call('POST', `/invites/${invite.code}`, ann.token);
      expect(admitted.statusCode).toBe(200);
    });
  });
});
