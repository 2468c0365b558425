import { AuditLogActions, PermissionFlags } from '@guildhall/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { fabricatedId, uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import { recordAudit } from './service.js';
import { apiRequest } from '../../../test/support/inject.js';

describeDrivers('audit log on $driver', (driver) => {
  let server: TestServer;
  let seed: Awaited<ReturnType<typeof seedDeveloper>>;
  let guildId: string;

  // The worker's plain server: each test makes a guild of its own on it.
  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('auditor'), 'auditor app');
    ({
      guild: { id: guildId },
    } = await server.app.services.guilds.create({
      ownerId: seed.userId,
      name: 'Audited',
      channels: [],
    }));
    // Ids no server mints (the guild's own next ids may be taken in the same millisecond).
    const ids = () => fabricatedId(guildId);
    await server.app.storage.transaction(async (tx) => {
      await recordAudit(tx, ids, {
        guildId,
        userId: seed.userId,
        targetId: guildId,
        actionType: AuditLogActions.GUILD_UPDATE,
        changes: [{ key: 'name', old_value: 'Old', new_value: 'Audited' }],
        reason: 'tidying up',
      });
      await recordAudit(tx, ids, {
        guildId,
        userId: seed.botUserId,
        targetId: seed.userId,
        actionType: AuditLogActions.MEMBER_UPDATE,
        reason: null,
      });
      await recordAudit(tx, ids, {
        guildId,
        userId: seed.userId,
        targetId: guildId,
        actionType: AuditLogActions.VOICE_CHANNEL_STATUS_CREATE,
        options: { status: 'Raid night', channel_id: guildId },
        reason: null,
      });
    });
  });

  const list = (query: string, authorization = seed.userToken) =>
    apiRequest(server.app, `GET /guilds/${guildId}/audit-logs${query}`, { auth: authorization });

  it('lists entries newest first with the users they name', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'GET', `/guilds/${guildId}/audit-logs`);
    const body = res.json<{
      audit_log_entries: { action_type: number; reason?: string }[];
      users: { id: string }[];
    }>();
    expect(body.audit_log_entries.map((e) => e.action_type)).toEqual([192, 24, 1]);
    expect(body.audit_log_entries[2]).toMatchObject({
      reason: 'tidying up',
      changes: [{ key: 'name', old_value: 'Old', new_value: 'Audited' }],
    });
    expect(body.audit_log_entries[0]).toMatchObject({ options: { status: 'Raid night' } });
    expect(body.users.map((u) => u.id).sort()).toEqual([seed.botUserId, seed.userId].sort());
  });

  it('filters by user, action type, before, after and limit', async () => {
    const byUser = (await list(`?user_id=${seed.botUserId}`)).json<{
      audit_log_entries: unknown[];
    }>();
    expect(byUser.audit_log_entries).toHaveLength(1);
    const byType = (await list('?action_type=1')).json<{
      audit_log_entries: { action_type: number }[];
    }>();
    expect(byType.audit_log_entries.map((e) => e.action_type)).toEqual([1]);
    const all = (await list('')).json<{ audit_log_entries: { id: string }[] }>().audit_log_entries;
    const before = (await list(`?before=${all[0]?.id ?? ''}&limit=1`)).json<{
      audit_log_entries: { id: string }[];
    }>();
    expect(before.audit_log_entries.map((e) => e.id)).toEqual([all[1]?.id]);
    const after = (await list(`?after=${all[2]?.id ?? ''}`)).json<{
      audit_log_entries: { id: string }[];
    }>();
    expect(after.audit_log_entries.map((e) => e.id)).toEqual([all[1]?.id, all[0]?.id]);
  });

  it('needs VIEW_AUDIT_LOG, membership, a known guild and sane query values', async () => {
    await server.app.services.guilds.addBot({
      guildId,
      applicationId: seed.applicationId,
      permissions: 0n,
    });
    const noPermission = await list('', `Bot ${seed.botToken}`);
    expect(noPermission.statusCode).toBe(403);
    expect(noPermission.json()).toEqual({ code: 50013, message: 'Missing Permissions' });
    expectOpenApiResponse(noPermission, 'GET', `/guilds/${guildId}/audit-logs`);

    const outsider = await seedDeveloper(server.app, uniqueName('outsider'), 'outsider app');
    expect((await list('', outsider.userToken)).json()).toMatchObject({ code: 50001 });
    const unknown = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/guilds/1/audit-logs',
      headers: { authorization: seed.userToken },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 10004 });
    const badLimit = await list('?limit=500&user_id=abc');
    expect(badLimit.statusCode).toBe(400);
    expect(Object.keys(badLimit.json<{ errors: object }>().errors).sort()).toEqual([
      'limit',
      'user_id',
    ]);

    const viewer = await seedDeveloper(server.app, uniqueName('viewer'), 'viewer app');
    await server.app.services.guilds.addBot({
      guildId,
      applicationId: viewer.applicationId,
      permissions: PermissionFlags.VIEW_AUDIT_LOG,
    });
    expect((await list('', `Bot ${viewer.botToken}`)).statusCode).toBe(200);
  });

  describe('adding a bot', () => {
    it('writes BOT_ADD, and a banned bot stays out', async () => {
      const owner = await seedDeveloper(server.app, uniqueName('botadder'), 'botadder app');
      const { guild } = await server.app.services.guilds.create({
        ownerId: owner.userId,
        name: 'Bots',
        channels: [],
      });
      await server.app.services.guilds.addBot({
        guildId: guild.id,
        applicationId: owner.applicationId,
        permissions: 0n,
      });
      const [entry] = await server.app.storage.auditLog.list(guild.id, {
        actionType: AuditLogActions.BOT_ADD,
        limit: 10,
      });
      expect(entry).toMatchObject({ userId: owner.userId, targetId: owner.botUserId });

      const other = await seedDeveloper(server.app, uniqueName('bannedbot'), 'bannedbot app');
      await server.app.storage.bans.create({
        guildId: guild.id,
        userId: other.botUserId,
        reason: null,
        createdAt: Date.now(),
        deleteMessageSeconds: 0,
      });
      await expect(
        server.app.services.guilds.addBot({
          guildId: guild.id,
          applicationId: other.applicationId,
          permissions: 0n,
        }),
      ).rejects.toMatchObject({ code: 40007 });
      expect(await server.app.storage.members.find(guild.id, other.botUserId)).toBeNull();
    });
  });
});
