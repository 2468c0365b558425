import { AuditLogActions, ChannelFlags, PermissionFlags as P } from '@guildhall/protocol';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { apiCall, expectSpecResponse } from '../../../test/support/guildApi.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
} from '../../../test/support/testServer.js';

interface ChannelWire {
  id: string;
  name: string;
  type: number;
  parent_id: string | null;
  position: number;
  permission_overwrites: { id: string; type: number; allow: string; deny: string }[];
}

describeDrivers('channels on $driver', (driver) => {
  const clock = manualClock(CHANNEL_LIST_VISIBILITY_FROM_MS - 24 * 60 * 60 * 1000);
  let server: TestServer;
  let ada: Awaited<ReturnType<typeof seedDeveloper>>;
  let bob: Awaited<ReturnType<typeof seedDeveloper>>;
  let call: ReturnType<typeof apiCall>;
  let guildId: string;
  let textId: string;
  let voiceId: string;

  beforeEach(async () => {
    clock.set(CHANNEL_LIST_VISIBILITY_FROM_MS - 24 * 60 * 60 * 1000);
    server = await startTestServer({ storage: driver, clock });
    ada = await seedDeveloper(server.app, 'ada');
    bob = await seedDeveloper(server.app, 'bob');
    call = apiCall(server.app);
    const created = await server.app.services.guilds.create({
      ownerId: ada.userId,
      name: 'Guild',
      channels: [
        { name: 'general', type: 'text' },
        { name: 'Lounge', type: 'voice' },
      ],
    });
    guildId = created.guild.id;
    textId = created.channels[0]?.id ?? '';
    voiceId = created.channels[1]?.id ?? '';
    await server.app.services.guilds.addBot({
      guildId,
      applicationId: ada.applicationId,
      permissions: P.ADMINISTRATOR,
    });
  });
  afterEach(async () => {
    await server.close();
  });

  const addBob = (permissions: bigint) =>
    server.app.services.guilds.addBot({ guildId, applicationId: bob.applicationId, permissions });
  const bobRoleId = async () =>
    (await server.app.storage.roles.listByGuild(guildId)).find((r) => r.botUserId === bob.botUserId)
      ?.id ?? '';
  const auditOf = (actionType: number) =>
    server.app.storage.auditLog.list(guildId, { actionType, limit: 50 });
  const snapshot = async () => {
    const channels = await server.app.storage.channels.listByGuild(guildId);
    return {
      channels,
      overwrites: await server.app.storage.overwrites.listByChannels(channels.map((c) => c.id)),
      audit: await server.app.storage.auditLog.list(guildId, { limit: 100 }),
    };
  };

  it('create, read, move, modify and delete channels, with their audit entries', async () => {
    const admin = `Bot ${ada.botToken}`;
    const category = await call(`POST /guilds/${guildId}/channels`, admin, {
      reason: 'new area',
      payload: {
        name: 'Staff',
        type: 4,
        permission_overwrites: [{ id: guildId, type: 0, deny: String(P.VIEW_CHANNEL) }],
      },
    });
    expect(category.statusCode).toBe(201);
    expectSpecResponse(category, 'POST', `/guilds/${guildId}/channels`);
    const staff = category.json<ChannelWire>();

    // A channel made under a category copies its overwrites.
    const child = await call(`POST /guilds/${guildId}/channels`, admin, {
      payload: { name: 'Mod Chat', parent_id: staff.id, topic: 'shh', rate_limit_per_user: 5 },
    });
    expect(child.statusCode).toBe(201);
    expectSpecResponse(child, 'POST', `/guilds/${guildId}/channels`);
    const modChat = child.json<ChannelWire & { application_id: null }>();
    expect(modChat).toMatchObject({
      name: 'mod-chat',
      type: 0,
      parent_id: staff.id,
      topic: 'shh',
      rate_limit_per_user: 5,
      application_id: null,
      permission_overwrites: [{ id: guildId, type: 0, allow: '0', deny: String(P.VIEW_CHANNEL) }],
    });

    const media = await call(`POST /guilds/${guildId}/channels`, admin, {
      payload: { name: 'Clips', type: 16, topic: 'x'.repeat(2000) },
    });
    expect(media.statusCode).toBe(201);
    expectSpecResponse(media, 'POST', `/guilds/${guildId}/channels`);
    const stage = await call(`POST /guilds/${guildId}/channels`, admin, {
      payload: { name: 'Town Hall', type: 13, user_limit: 500 },
    });
    expectSpecResponse(stage, 'POST', `/guilds/${guildId}/channels`);
    expect(stage.json()).toMatchObject({ type: 13, bitrate: 64000, user_limit: 500 });

    const got = await call(`GET /channels/${modChat.id}`, admin);
    expect(got.statusCode).toBe(200);
    expectSpecResponse(got, 'GET', `/channels/${modChat.id}`);
    expect(got.json()).toEqual(modChat);

    const listed = await call(`GET /guilds/${guildId}/channels`, ada.userToken);
    expectSpecResponse(listed, 'GET', `/guilds/${guildId}/channels`);
    expect(listed.json<ChannelWire[]>().map((c) => c.name)).toEqual([
      'general',
      'Lounge',
      'Staff',
      'mod-chat',
      'clips',
      'Town Hall',
    ]);

    const modified = await call(`PATCH /channels/${modChat.id}`, admin, {
      reason: 'tidy',
      payload: { name: 'Mods', topic: null, nsfw: true, parent_id: null, type: 5 },
    });
    expect(modified.statusCode).toBe(200);
    expectSpecResponse(modified, 'PATCH', `/channels/${modChat.id}`);
    expect(modified.json()).toMatchObject({
      name: 'mods',
      type: 5,
      topic: null,
      nsfw: true,
      parent_id: null,
    });
    const [update] = await auditOf(AuditLogActions.CHANNEL_UPDATE);
    expect(update).toMatchObject({ targetId: modChat.id, reason: 'tidy' });
    expect(update?.changes).toEqual(
      expect.arrayContaining([
        { key: 'name', old_value: 'mod-chat', new_value: 'mods' },
        { key: 'type', old_value: 0, new_value: 5 },
        { key: 'parent_id', old_value: staff.id },
      ]),
    );

    // Back under the category, position 0, with the category's overwrites made its own.
    await server.app.storage.overwrites.delete(modChat.id, guildId);
    const moved = await call(`PATCH /guilds/${guildId}/channels`, admin, {
      reason: 'regroup',
      payload: [{ id: modChat.id, position: 0, parent_id: staff.id, lock_permissions: true }],
    });
    expect(moved.statusCode).toBe(204);
    expectSpecResponse(moved, 'PATCH', `/guilds/${guildId}/channels`);
    expect(await server.app.storage.channels.findById(modChat.id)).toMatchObject({
      position: 0,
      parentId: staff.id,
    });
    expect(await server.app.storage.overwrites.listByChannel(modChat.id)).toMatchObject([
      { targetId: guildId, deny: P.VIEW_CHANNEL },
    ]);
    const [move] = await auditOf(AuditLogActions.CHANNEL_UPDATE);
    expect(move).toMatchObject({ targetId: modChat.id, reason: 'regroup' });
    expect(move?.changes).toContainEqual({ key: 'parent_id', new_value: staff.id });
    expect(await auditOf(AuditLogActions.CHANNEL_OVERWRITE_CREATE)).toMatchObject([
      {
        targetId: modChat.id,
        reason: 'regroup',
        options: { id: guildId, type: '0', role_name: '@everyone' },
      },
    ]);

    const deleted = await call(`DELETE /channels/${staff.id}`, admin, { reason: 'gone' });
    expect(deleted.statusCode).toBe(200);
    expectSpecResponse(deleted, 'DELETE', `/channels/${staff.id}`);
    expect(deleted.json()).toEqual(staff);
    expect(await server.app.storage.channels.findById(staff.id)).toBeNull();
    // Its channel stays, without a parent.
    expect(await server.app.storage.channels.findById(modChat.id)).toMatchObject({
      parentId: null,
    });
    const [deletion] = await auditOf(AuditLogActions.CHANNEL_DELETE);
    expect(deletion).toMatchObject({ targetId: staff.id, reason: 'gone' });
    expect(deletion?.changes).toEqual(
      expect.arrayContaining([
        { key: 'name', old_value: 'Staff' },
        { key: 'type', old_value: 4 },
      ]),
    );
    const created = await auditOf(AuditLogActions.CHANNEL_CREATE);
    expect(created).toHaveLength(4);
    expect(created.at(-1)).toMatchObject({ targetId: staff.id, reason: 'new area' });
    expect(created.at(-1)?.changes).toEqual(
      expect.arrayContaining([
        { key: 'name', new_value: 'Staff' },
        {
          key: 'permission_overwrites',
          new_value: [{ id: guildId, type: 0, allow: '0', deny: String(P.VIEW_CHANNEL) }],
        },
      ]),
    );
  });

  it('PUT and DELETE an overwrite, with CHANNEL_OVERWRITE entries', async () => {
    await addBob(P.VIEW_CHANNEL | P.MANAGE_ROLES | P.SEND_MESSAGES);
    const bobAuth = `Bot ${bob.botToken}`;
    const put = (allow: bigint) =>
      call(`PUT /channels/${textId}/permissions/${ada.userId}`, bobAuth, {
        reason: 'quiet',
        payload: { type: 1, deny: String(allow) },
      });
    const first = await put(P.SEND_MESSAGES);
    expect(first.statusCode).toBe(204);
    expectSpecResponse(first, 'PUT', `/channels/${textId}/permissions/${ada.userId}`);
    const second = await put(P.SEND_MESSAGES | P.VIEW_CHANNEL);
    expect(second.statusCode).toBe(204);
    expect(await server.app.storage.overwrites.listByChannel(textId)).toEqual([
      {
        channelId: textId,
        targetId: ada.userId,
        type: 1,
        allow: 0n,
        deny: P.SEND_MESSAGES | P.VIEW_CHANNEL,
      },
    ]);
    expect(await auditOf(AuditLogActions.CHANNEL_OVERWRITE_CREATE)).toMatchObject([
      {
        userId: bob.botUserId,
        targetId: textId,
        reason: 'quiet',
        options: { id: ada.userId, type: '1' },
        changes: [
          { key: 'allow', new_value: '0' },
          { key: 'deny', new_value: String(P.SEND_MESSAGES) },
        ],
      },
    ]);
    expect(await auditOf(AuditLogActions.CHANNEL_OVERWRITE_UPDATE)).toMatchObject([
      {
        options: { id: ada.userId, type: '1' },
        changes: [
          {
            key: 'deny',
            old_value: String(P.SEND_MESSAGES),
            new_value: String(P.SEND_MESSAGES | P.VIEW_CHANNEL),
          },
        ],
      },
    ]);
    const removed = await call(`DELETE /channels/${textId}/permissions/${ada.userId}`, bobAuth, {
      reason: 'lifted',
    });
    expect(removed.statusCode).toBe(204);
    expectSpecResponse(removed, 'DELETE', `/channels/${textId}/permissions/${ada.userId}`);
    expect(await server.app.storage.overwrites.listByChannel(textId)).toEqual([]);
    expect(await auditOf(AuditLogActions.CHANNEL_OVERWRITE_DELETE)).toMatchObject([
      {
        userId: bob.botUserId,
        targetId: textId,
        reason: 'lifted',
        options: { id: ada.userId, type: '1' },
      },
    ]);

    const missing = await call(`DELETE /channels/${textId}/permissions/${ada.userId}`, bobAuth);
    expect(missing.json()).toMatchObject({ code: 10009 });
    expectSpecResponse(missing, 'DELETE', `/channels/${textId}/permissions/${ada.userId}`);
  });

  it('overwrite edits refuse bad input and change nothing', async () => {
    await addBob(P.VIEW_CHANNEL | P.MANAGE_ROLES);
    const roleId = await bobRoleId();
    const before = await snapshot();
    const cases: [string, string, object, number, number][] = [
      // Bits the caller lacks cannot be granted or denied.
      [`Bot ${bob.botToken}`, roleId, { type: 0, allow: String(P.KICK_MEMBERS) }, 403, 50013],
      // MANAGE_ROLES in an overwrite is for administrators.
      [`Bot ${bob.botToken}`, roleId, { type: 0, allow: String(P.MANAGE_ROLES) }, 403, 50013],
      [ada.userToken, '1234', { type: 0 }, 404, 10011],
      [ada.userToken, bob.userId, { type: 1 }, 404, 10007],
      [ada.userToken, roleId, { type: 2 }, 400, 50035],
      [ada.userToken, roleId, { type: 0, allow: 'lots' }, 400, 50035],
      [ada.userToken, 'abc', { type: 0 }, 400, 50035],
    ];
    for (const [token, target, payload, status, code] of cases) {
      const res = await call(`PUT /channels/${textId}/permissions/${target}`, token, {
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectSpecResponse(res, 'PUT', `/channels/${textId}/permissions/${target}`);
    }
    const unknown = await call(`PUT /channels/1234/permissions/${roleId}`, ada.userToken, {
      payload: { type: 0 },
    });
    expect(unknown.json()).toMatchObject({ code: 10003 });
    expectSpecResponse(unknown, 'PUT', `/channels/1234/permissions/${roleId}`);
    expect(await snapshot()).toEqual(before);
    // Without MANAGE_ROLES (adding the bot writes its own BOT_ADD entry first).
    const carol = await seedDeveloper(server.app, 'carol');
    await server.app.services.guilds.addBot({
      guildId,
      applicationId: carol.applicationId,
      permissions: P.VIEW_CHANNEL | P.MANAGE_CHANNELS,
    });
    const withCarol = await snapshot();
    const noRoles = await call(
      `PUT /channels/${textId}/permissions/${roleId}`,
      `Bot ${carol.botToken}`,
      {
        payload: { type: 0 },
      },
    );
    expect(noRoles.json()).toMatchObject({ code: 50013 });
    const noDelete = await call(
      `DELETE /channels/${textId}/permissions/${roleId}`,
      `Bot ${carol.botToken}`,
    );
    expect(noDelete.json()).toMatchObject({ code: 50013 });
    expectSpecResponse(noDelete, 'DELETE', `/channels/${textId}/permissions/${roleId}`);
    expect(await snapshot()).toEqual(withCarol);
  });

  it('channel routes refuse bad input and change nothing', async () => {
    await addBob(P.VIEW_CHANNEL);
    const other = await server.app.services.guilds.create({
      ownerId: bob.userId,
      name: 'Other',
      channels: [{ name: 'cat', type: 'category' }],
    });
    const before = await snapshot();
    const admin = `Bot ${ada.botToken}`;
    const creates: [string, object, number, number][] = [
      [admin, { name: 'dm', type: 1 }, 400, 50035],
      [admin, { name: 'thread', type: 11 }, 400, 50035],
      [admin, { name: '' }, 400, 50035],
      [admin, { name: '   ' }, 400, 50035],
      [admin, { name: 'x'.repeat(101) }, 400, 50035],
      [admin, { name: 'a', topic: 'x'.repeat(1025) }, 400, 50035],
      [admin, { name: 'a', rate_limit_per_user: 21_601 }, 400, 50035],
      [admin, { name: 'a', type: 2, bitrate: 100_000 }, 400, 50035],
      [admin, { name: 'a', type: 2, bitrate: 7999 }, 400, 50035],
      [admin, { name: 'a', type: 2, user_limit: 100 }, 400, 50035],
      [admin, { name: 'a', parent_id: textId }, 400, 50035],
      [admin, { name: 'a', parent_id: other.channels[0]?.id }, 400, 50035],
      [admin, { name: 'a', type: 4, parent_id: textId }, 400, 50035],
      [admin, { name: 'a', nsfw: 'yes' }, 400, 50035],
      [`Bot ${bob.botToken}`, { name: 'mine' }, 403, 50013],
      [bob.userToken, { name: 'mine' }, 403, 50001],
    ];
    for (const [token, payload, status, code] of creates) {
      const res = await call(`POST /guilds/${guildId}/channels`, token, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectSpecResponse(res, 'POST', `/guilds/${guildId}/channels`);
    }
    const unknownGuild = await call('POST /guilds/1234/channels', admin, {
      payload: { name: 'a' },
    });
    expect(unknownGuild.json()).toMatchObject({ code: 10004 });
    expectSpecResponse(unknownGuild, 'POST', '/guilds/1234/channels');

    const patches: [string, string, object, number, number][] = [
      [admin, textId, { name: '' }, 400, 50035],
      [admin, textId, { type: 2 }, 400, 50035],
      [admin, textId, { topic: 'x'.repeat(1025) }, 400, 50035],
      [admin, voiceId, { bitrate: 200_000 }, 400, 50035],
      [admin, textId, { parent_id: voiceId }, 400, 50035],
      [`Bot ${bob.botToken}`, textId, { name: 'mine' }, 403, 50013],
      [admin, '1234', { name: 'x' }, 404, 10003],
    ];
    for (const [token, id, payload, status, code] of patches) {
      const res = await call(`PATCH /channels/${id}`, token, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectSpecResponse(res, 'PATCH', `/channels/${id}`);
    }
    const moves: [string, unknown, number, number][] = [
      [admin, [{ id: '1234', position: 1 }], 400, 50035],
      [admin, [{ id: textId, parent_id: voiceId }], 400, 50035],
      [admin, [{ id: textId, position: -1 }], 400, 50035],
      [admin, { id: textId }, 400, 50035],
      [`Bot ${bob.botToken}`, [{ id: textId, position: 5 }], 403, 50013],
    ];
    for (const [token, payload, status, code] of moves) {
      const res = await call(`PATCH /guilds/${guildId}/channels`, token, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectSpecResponse(res, 'PATCH', `/guilds/${guildId}/channels`);
    }
    for (const [token, id, code] of [
      [`Bot ${bob.botToken}`, textId, 50013],
      [admin, '1234', 10003],
      [admin, 'abc', 10003],
    ] as const) {
      const res = await call(`DELETE /channels/${id}`, token);
      expect(res.json()).toMatchObject({ code });
      expectSpecResponse(res, 'DELETE', `/channels/${id}`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('GET /channels/{id} needs VIEW_CHANNEL; unknown is 10003', async () => {
    await addBob(P.VIEW_CHANNEL);
    await server.app.storage.overwrites.put({
      channelId: textId,
      targetId: await bobRoleId(),
      type: 0,
      allow: 0n,
      deny: P.VIEW_CHANNEL,
    });
    const hidden = await call(`GET /channels/${textId}`, `Bot ${bob.botToken}`);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json()).toMatchObject({ code: 50001 });
    expectSpecResponse(hidden, 'GET', `/channels/${textId}`);
    const seen = await call(`GET /channels/${voiceId}`, `Bot ${bob.botToken}`);
    expect(seen.statusCode).toBe(200);
    expectSpecResponse(seen, 'GET', `/channels/${voiceId}`);
    for (const id of ['1234', 'abc']) {
      const res = await call(`GET /channels/${id}`, ada.userToken);
      expect(res.json()).toMatchObject({ code: 10003 });
      expectSpecResponse(res, 'GET', `/channels/${id}`);
    }
    const outsider = await call(`GET /channels/${textId}`, bob.userToken);
    expect(outsider.json()).toMatchObject({ code: 50001 });
  });

  it('GET /guilds/{id}/channels lists unviewable channels until November 16, 2026', async () => {
    await addBob(P.VIEW_CHANNEL);
    const roleId = await bobRoleId();
    const staff = await call(`POST /guilds/${guildId}/channels`, `Bot ${ada.botToken}`, {
      payload: {
        name: 'Staff',
        type: 4,
        permission_overwrites: [{ id: roleId, type: 0, deny: String(P.VIEW_CHANNEL) }],
      },
    });
    const staffId = staff.json<ChannelWire>().id;
    // A visible channel inside a hidden category keeps the category listed.
    const open = await call(`POST /guilds/${guildId}/channels`, `Bot ${ada.botToken}`, {
      payload: { name: 'open', parent_id: staffId, permission_overwrites: [] },
    });
    const openId = open.json<ChannelWire>().id;
    await server.app.storage.overwrites.put({
      channelId: textId,
      targetId: roleId,
      type: 0,
      allow: 0n,
      deny: P.VIEW_CHANNEL,
    });
    const list = async () => {
      const res = await call(`GET /guilds/${guildId}/channels`, `Bot ${bob.botToken}`);
      expect(res.statusCode).toBe(200);
      expectSpecResponse(res, 'GET', `/guilds/${guildId}/channels`);
      return res.json<ChannelWire[]>().map((c) => c.id);
    };
    expect(await list()).toEqual([textId, voiceId, staffId, openId]);
    clock.set(CHANNEL_LIST_VISIBILITY_FROM_MS - 1);
    expect(await list()).toHaveLength(4);
    clock.set(CHANNEL_LIST_VISIBILITY_FROM_MS);
    expect(await list()).toEqual([voiceId, staffId, openId]);
    await server.app.storage.overwrites.put({
      channelId: openId,
      targetId: roleId,
      type: 0,
      allow: 0n,
      deny: P.VIEW_CHANNEL,
    });
    expect(await list()).toEqual([voiceId]);
    // The owner still sees everything.
    const owner = await call(`GET /guilds/${guildId}/channels`, ada.userToken);
    expect(owner.json<unknown[]>()).toHaveLength(4);
    const outsider = await call(`GET /guilds/${guildId}/channels`, bob.userToken);
    expect(outsider.json()).toMatchObject({ code: 50001 });
    expectSpecResponse(outsider, 'GET', `/guilds/${guildId}/channels`);
  });

  it('until November 16, 2026 an unviewable channel is listed obfuscated, hiding its last message', async () => {
    await addBob(P.VIEW_CHANNEL);
    const roleId = await bobRoleId();
    const admin = `Bot ${ada.botToken}`;
    const secret = await call(`POST /guilds/${guildId}/channels`, admin, {
      payload: {
        name: 'secret-plans',
        topic: 'the plan',
        nsfw: true,
        rate_limit_per_user: 30,
        permission_overwrites: [{ id: roleId, type: 0, deny: String(P.VIEW_CHANNEL) }],
      },
    });
    const secretId = secret.json<ChannelWire>().id;
    const posted = async (channelId: string) => {
      const res = await call(`POST /channels/${channelId}/messages`, admin, {
        payload: { content: 'hello' },
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ id: string }>().id;
    };
    const secretMessageId = await posted(secretId);
    const openMessageId = await posted(textId);
    const list = async () => {
      const res = await call(`GET /guilds/${guildId}/channels`, `Bot ${bob.botToken}`);
      expect(res.statusCode).toBe(200);
      expectSpecResponse(res, 'GET', `/guilds/${guildId}/channels`);
      return res.json<Record<string, unknown>[]>();
    };

    clock.set(CHANNEL_LIST_VISIBILITY_FROM_MS - 1);
    const before = await list();
    // Denied side: only what the gateway's obfuscated channel shows.
    const hidden = before.find((c) => c['id'] === secretId);
    expect(hidden).toEqual({
      id: secretId,
      type: 0,
      guild_id: guildId,
      name: '___hidden___',
      position: expect.any(Number) as number,
      parent_id: null,
      flags: ChannelFlags.CHANNEL_OBFUSCATED,
      permission_overwrites: [{ id: guildId, type: 0, allow: '0', deny: String(P.VIEW_CHANNEL) }],
      topic: null,
      nsfw: false,
      last_message_id: null,
      rate_limit_per_user: 0,
    });
    expect(JSON.stringify(before)).not.toContain(secretMessageId);
    // Allowed side: the viewable channel comes whole.
    expect(before.find((c) => c['id'] === textId)).toMatchObject({
      name: 'general',
      last_message_id: openMessageId,
      flags: 0,
    });
    // The admin, who may view it, sees it whole.
    const full = await call(`GET /guilds/${guildId}/channels`, admin);
    expect(full.json<Record<string, unknown>[]>().find((c) => c['id'] === secretId)).toMatchObject({
      name: 'secret-plans',
      topic: 'the plan',
      last_message_id: secretMessageId,
    });

    clock.set(CHANNEL_LIST_VISIBILITY_FROM_MS);
    const after = await list();
    expect(after.map((c) => c['id'])).not.toContain(secretId);
    expect(after.find((c) => c['id'] === textId)).toMatchObject({
      last_message_id: openMessageId,
    });
  });

  it('PUT /channels/{id}/voice-status sets and clears an ephemeral status, audited 192/193', async () => {
    // Voice states come with the gateway: nobody is connected, so MANAGE_CHANNELS is needed too.
    await addBob(P.VIEW_CHANNEL | P.CONNECT | P.SET_VOICE_CHANNEL_STATUS);
    const before = await snapshot();
    const bobAuth = `Bot ${bob.botToken}`;
    const refused: [string, string, object, number, number][] = [
      [bobAuth, voiceId, { status: 'hi' }, 403, 50013],
      [`Bot ${ada.botToken}`, textId, { status: 'hi' }, 400, 50024],
      [`Bot ${ada.botToken}`, voiceId, { status: 'x'.repeat(501) }, 400, 50035],
      [`Bot ${ada.botToken}`, voiceId, { status: 5 }, 400, 50035],
      [`Bot ${ada.botToken}`, voiceId, {}, 400, 50035],
      [`Bot ${ada.botToken}`, '1234', { status: 'hi' }, 404, 10003],
    ];
    for (const [token, id, payload, status, code] of refused) {
      const res = await call(`PUT /channels/${id}/voice-status`, token, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectSpecResponse(res, 'PUT', `/channels/${id}/voice-status`);
    }
    expect(await snapshot()).toEqual(before);
    expect(await server.app.storage.voiceStatus.find(voiceId)).toBeNull();

    const carol = await seedDeveloper(server.app, 'carol');
    await server.app.services.guilds.addBot({
      guildId,
      applicationId: carol.applicationId,
      permissions: P.VIEW_CHANNEL | P.SET_VOICE_CHANNEL_STATUS | P.MANAGE_CHANNELS,
    });
    const set = await call(`PUT /channels/${voiceId}/voice-status`, `Bot ${carol.botToken}`, {
      reason: 'raid night',
      payload: { status: 'Raid night 🎮' },
    });
    expect(set.statusCode).toBe(204);
    expectSpecResponse(set, 'PUT', `/channels/${voiceId}/voice-status`);
    expect(await server.app.storage.voiceStatus.find(voiceId)).toMatchObject({
      status: 'Raid night 🎮',
    });
    // Ephemeral: never a field of the channel object.
    const channel = await call(`GET /channels/${voiceId}`, ada.userToken);
    expect(channel.json()).not.toHaveProperty('status');
    expect(await auditOf(AuditLogActions.VOICE_CHANNEL_STATUS_CREATE)).toMatchObject([
      {
        userId: carol.botUserId,
        targetId: voiceId,
        reason: 'raid night',
        options: { channel_id: voiceId, status: 'Raid night 🎮' },
      },
    ]);

    const cleared = await call(`PUT /channels/${voiceId}/voice-status`, `Bot ${carol.botToken}`, {
      reason: 'raid over',
      payload: { status: null },
    });
    expect(cleared.statusCode).toBe(204);
    expectSpecResponse(cleared, 'PUT', `/channels/${voiceId}/voice-status`);
    expect(await server.app.storage.voiceStatus.find(voiceId)).toBeNull();
    expect(await auditOf(AuditLogActions.VOICE_CHANNEL_STATUS_DELETE)).toMatchObject([
      {
        userId: carol.botUserId,
        targetId: voiceId,
        reason: 'raid over',
        options: { channel_id: voiceId, status: 'Raid night 🎮' },
      },
    ]);
  });

  it('voice status needs SET_VOICE_CHANNEL_STATUS and, unconnected, MANAGE_CHANNELS', async () => {
    const bot = async (name: string, permissions: bigint) => {
      const seed = await seedDeveloper(server.app, name);
      await server.app.services.guilds.addBot({
        guildId,
        applicationId: seed.applicationId,
        permissions,
      });
      return { userId: seed.botUserId, auth: `Bot ${seed.botToken}` };
    };
    const base = P.VIEW_CHANNEL | P.CONNECT;
    const manager = await bot('manager', base | P.MANAGE_CHANNELS);
    const setter = await bot('setter', base | P.SET_VOICE_CHANNEL_STATUS);
    const both = await bot('both', base | P.MANAGE_CHANNELS | P.SET_VOICE_CHANNEL_STATUS);
    const put = (auth: string, status: string | null, reason?: string) =>
      call(`PUT /channels/${voiceId}/voice-status`, auth, {
        payload: { status },
        ...(reason === undefined ? {} : { reason }),
      });
    const first = await put(both.auth, 'First');
    expect(first.statusCode).toBe(204);
    const before = await snapshot();
    // Neither bit alone is enough, to set or to clear: nobody can be connected to voice yet.
    for (const auth of [manager.auth, setter.auth]) {
      for (const status of ['Mine', null]) {
        const res = await put(auth, status, 'takeover');
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 50013 });
        expectSpecResponse(res, 'PUT', `/channels/${voiceId}/voice-status`);
      }
    }
    expect(await snapshot()).toEqual(before);
    expect(await server.app.storage.voiceStatus.find(voiceId)).toMatchObject({
      status: 'First',
    });

    const set = await put(both.auth, 'Second', 'update');
    expect(set.statusCode).toBe(204);
    expect(await server.app.storage.voiceStatus.find(voiceId)).toMatchObject({
      status: 'Second',
    });
    const [created] = await auditOf(AuditLogActions.VOICE_CHANNEL_STATUS_CREATE);
    expect(created).toMatchObject({
      userId: both.userId,
      reason: 'update',
      options: { status: 'Second' },
    });
    const cleared = await put(both.auth, null, 'done');
    expect(cleared.statusCode).toBe(204);
    expect(await server.app.storage.voiceStatus.find(voiceId)).toBeNull();
    expect(await auditOf(AuditLogActions.VOICE_CHANNEL_STATUS_DELETE)).toMatchObject([
      { userId: both.userId, targetId: voiceId, reason: 'done', options: { status: 'Second' } },
    ]);
  });
});
