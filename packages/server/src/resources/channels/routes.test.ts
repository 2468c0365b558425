import { AuditLogActions, ChannelFlags, PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { useChannelFixture, type ChannelWire } from '../../../test/support/channelFixture.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectSpecResponse } from '../../../test/support/guildApi.js';

describeDrivers('channels on $driver', (driver) => {
  const fx = useChannelFixture(driver);
  const { call, addBob, bobRoleId, auditOf, snapshot } = fx;

  it('create, read, move, modify and delete channels, with their audit entries', async () => {
    const admin = `Bot ${fx.ada.botToken}`;
    const category = await call(`POST /guilds/${fx.guildId}/channels`, admin, {
      reason: 'new area',
      payload: {
        name: 'Staff',
        type: 4,
        permission_overwrites: [{ id: fx.guildId, type: 0, deny: String(P.VIEW_CHANNEL) }],
      },
    });
    expect(category.statusCode).toBe(201);
    expectSpecResponse(category, 'POST', `/guilds/${fx.guildId}/channels`);
    const staff = category.json<ChannelWire>();

    // A channel made under a category copies its overwrites.
    const child = await call(`POST /guilds/${fx.guildId}/channels`, admin, {
      payload: { name: 'Mod Chat', parent_id: staff.id, topic: 'shh', rate_limit_per_user: 5 },
    });
    expect(child.statusCode).toBe(201);
    expectSpecResponse(child, 'POST', `/guilds/${fx.guildId}/channels`);
    const modChat = child.json<ChannelWire & { application_id: null }>();
    expect(modChat).toMatchObject({
      name: 'mod-chat',
      type: 0,
      parent_id: staff.id,
      topic: 'shh',
      rate_limit_per_user: 5,
      application_id: null,
      permission_overwrites: [
        { id: fx.guildId, type: 0, allow: '0', deny: String(P.VIEW_CHANNEL) },
      ],
    });

    const media = await call(`POST /guilds/${fx.guildId}/channels`, admin, {
      payload: { name: 'Clips', type: 16, topic: 'x'.repeat(2000) },
    });
    expect(media.statusCode).toBe(201);
    expectSpecResponse(media, 'POST', `/guilds/${fx.guildId}/channels`);
    const stage = await call(`POST /guilds/${fx.guildId}/channels`, admin, {
      payload: { name: 'Town Hall', type: 13, user_limit: 500 },
    });
    expectSpecResponse(stage, 'POST', `/guilds/${fx.guildId}/channels`);
    expect(stage.json()).toMatchObject({ type: 13, bitrate: 64000, user_limit: 500 });

    const got = await call(`GET /channels/${modChat.id}`, admin);
    expect(got.statusCode).toBe(200);
    expectSpecResponse(got, 'GET', `/channels/${modChat.id}`);
    expect(got.json()).toEqual(modChat);

    const listed = await call(`GET /guilds/${fx.guildId}/channels`, fx.ada.userToken);
    expectSpecResponse(listed, 'GET', `/guilds/${fx.guildId}/channels`);
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
    await fx.server.app.storage.overwrites.delete(modChat.id, fx.guildId);
    const moved = await call(`PATCH /guilds/${fx.guildId}/channels`, admin, {
      reason: 'regroup',
      payload: [{ id: modChat.id, position: 0, parent_id: staff.id, lock_permissions: true }],
    });
    expect(moved.statusCode).toBe(204);
    expectSpecResponse(moved, 'PATCH', `/guilds/${fx.guildId}/channels`);
    expect(await fx.server.app.storage.channels.findById(modChat.id)).toMatchObject({
      position: 0,
      parentId: staff.id,
    });
    expect(await fx.server.app.storage.overwrites.listByChannel(modChat.id)).toMatchObject([
      { targetId: fx.guildId, deny: P.VIEW_CHANNEL },
    ]);
    const [move] = await auditOf(AuditLogActions.CHANNEL_UPDATE);
    expect(move).toMatchObject({ targetId: modChat.id, reason: 'regroup' });
    expect(move?.changes).toContainEqual({ key: 'parent_id', new_value: staff.id });
    expect(await auditOf(AuditLogActions.CHANNEL_OVERWRITE_CREATE)).toMatchObject([
      {
        targetId: modChat.id,
        reason: 'regroup',
        options: { id: fx.guildId, type: '0', role_name: '@everyone' },
      },
    ]);

    const deleted = await call(`DELETE /channels/${staff.id}`, admin, { reason: 'gone' });
    expect(deleted.statusCode).toBe(200);
    expectSpecResponse(deleted, 'DELETE', `/channels/${staff.id}`);
    expect(deleted.json()).toEqual(staff);
    expect(await fx.server.app.storage.channels.findById(staff.id)).toBeNull();
    // Its channel stays, without a parent.
    expect(await fx.server.app.storage.channels.findById(modChat.id)).toMatchObject({
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
          new_value: [{ id: fx.guildId, type: 0, allow: '0', deny: String(P.VIEW_CHANNEL) }],
        },
      ]),
    );
  });

  it('channel routes refuse bad input and change nothing', async () => {
    await addBob(P.VIEW_CHANNEL);
    const other = await fx.server.app.services.guilds.create({
      ownerId: fx.bob.userId,
      name: 'Other',
      channels: [{ name: 'cat', type: 'category' }],
    });
    const before = await snapshot();
    const admin = `Bot ${fx.ada.botToken}`;
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
      [admin, { name: 'a', parent_id: fx.textId }, 400, 50035],
      [admin, { name: 'a', parent_id: other.channels[0]?.id }, 400, 50035],
      [admin, { name: 'a', type: 4, parent_id: fx.textId }, 400, 50035],
      [admin, { name: 'a', nsfw: 'yes' }, 400, 50035],
      [`Bot ${fx.bob.botToken}`, { name: 'mine' }, 403, 50013],
      [fx.bob.userToken, { name: 'mine' }, 403, 50001],
    ];
    for (const [token, payload, status, code] of creates) {
      const res = await call(`POST /guilds/${fx.guildId}/channels`, token, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectSpecResponse(res, 'POST', `/guilds/${fx.guildId}/channels`);
    }
    const unknownGuild = await call('POST /guilds/1234/channels', admin, {
      payload: { name: 'a' },
    });
    expect(unknownGuild.json()).toMatchObject({ code: 10004 });
    expectSpecResponse(unknownGuild, 'POST', '/guilds/1234/channels');

    const patches: [string, string, object, number, number][] = [
      [admin, fx.textId, { name: '' }, 400, 50035],
      [admin, fx.textId, { type: 2 }, 400, 50035],
      [admin, fx.textId, { topic: 'x'.repeat(1025) }, 400, 50035],
      [admin, fx.voiceId, { bitrate: 200_000 }, 400, 50035],
      [admin, fx.textId, { parent_id: fx.voiceId }, 400, 50035],
      [`Bot ${fx.bob.botToken}`, fx.textId, { name: 'mine' }, 403, 50013],
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
      [admin, [{ id: fx.textId, parent_id: fx.voiceId }], 400, 50035],
      [admin, [{ id: fx.textId, position: -1 }], 400, 50035],
      [admin, { id: fx.textId }, 400, 50035],
      [`Bot ${fx.bob.botToken}`, [{ id: fx.textId, position: 5 }], 403, 50013],
    ];
    for (const [token, payload, status, code] of moves) {
      const res = await call(`PATCH /guilds/${fx.guildId}/channels`, token, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectSpecResponse(res, 'PATCH', `/guilds/${fx.guildId}/channels`);
    }
    for (const [token, id, code] of [
      [`Bot ${fx.bob.botToken}`, fx.textId, 50013],
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
    await fx.server.app.storage.overwrites.put({
      channelId: fx.textId,
      targetId: await bobRoleId(),
      type: 0,
      allow: 0n,
      deny: P.VIEW_CHANNEL,
    });
    const hidden = await call(`GET /channels/${fx.textId}`, `Bot ${fx.bob.botToken}`);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json()).toMatchObject({ code: 50001 });
    expectSpecResponse(hidden, 'GET', `/channels/${fx.textId}`);
    const seen = await call(`GET /channels/${fx.voiceId}`, `Bot ${fx.bob.botToken}`);
    expect(seen.statusCode).toBe(200);
    expectSpecResponse(seen, 'GET', `/channels/${fx.voiceId}`);
    for (const id of ['1234', 'abc']) {
      const res = await call(`GET /channels/${id}`, fx.ada.userToken);
      expect(res.json()).toMatchObject({ code: 10003 });
      expectSpecResponse(res, 'GET', `/channels/${id}`);
    }
    const outsider = await call(`GET /channels/${fx.textId}`, fx.bob.userToken);
    expect(outsider.json()).toMatchObject({ code: 50001 });
  });

  it('GET /guilds/{id}/channels lists unviewable channels until November 16, 2026', async () => {
    await addBob(P.VIEW_CHANNEL);
    const roleId = await bobRoleId();
    const staff = await call(`POST /guilds/${fx.guildId}/channels`, `Bot ${fx.ada.botToken}`, {
      payload: {
        name: 'Staff',
        type: 4,
        permission_overwrites: [{ id: roleId, type: 0, deny: String(P.VIEW_CHANNEL) }],
      },
    });
    const staffId = staff.json<ChannelWire>().id;
    // A visible channel inside a hidden category keeps the category listed.
    const open = await call(`POST /guilds/${fx.guildId}/channels`, `Bot ${fx.ada.botToken}`, {
      payload: { name: 'open', parent_id: staffId, permission_overwrites: [] },
    });
    const openId = open.json<ChannelWire>().id;
    await fx.server.app.storage.overwrites.put({
      channelId: fx.textId,
      targetId: roleId,
      type: 0,
      allow: 0n,
      deny: P.VIEW_CHANNEL,
    });
    const list = async () => {
      const res = await call(`GET /guilds/${fx.guildId}/channels`, `Bot ${fx.bob.botToken}`);
      expect(res.statusCode).toBe(200);
      expectSpecResponse(res, 'GET', `/guilds/${fx.guildId}/channels`);
      return res.json<ChannelWire[]>().map((c) => c.id);
    };
    expect(await list()).toEqual([fx.textId, fx.voiceId, staffId, openId]);
    fx.clock.set(CHANNEL_LIST_VISIBILITY_FROM_MS - 1);
    expect(await list()).toHaveLength(4);
    fx.clock.set(CHANNEL_LIST_VISIBILITY_FROM_MS);
    expect(await list()).toEqual([fx.voiceId, staffId, openId]);
    await fx.server.app.storage.overwrites.put({
      channelId: openId,
      targetId: roleId,
      type: 0,
      allow: 0n,
      deny: P.VIEW_CHANNEL,
    });
    expect(await list()).toEqual([fx.voiceId]);
    // The owner still sees everything.
    const owner = await call(`GET /guilds/${fx.guildId}/channels`, fx.ada.userToken);
    expect(owner.json<unknown[]>()).toHaveLength(4);
    const outsider = await call(`GET /guilds/${fx.guildId}/channels`, fx.bob.userToken);
    expect(outsider.json()).toMatchObject({ code: 50001 });
    expectSpecResponse(outsider, 'GET', `/guilds/${fx.guildId}/channels`);
  });

  it('until November 16, 2026 an unviewable channel is listed obfuscated, hiding its last message', async () => {
    await addBob(P.VIEW_CHANNEL);
    const roleId = await bobRoleId();
    const admin = `Bot ${fx.ada.botToken}`;
    const secret = await call(`POST /guilds/${fx.guildId}/channels`, admin, {
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
    const openMessageId = await posted(fx.textId);
    const list = async () => {
      const res = await call(`GET /guilds/${fx.guildId}/channels`, `Bot ${fx.bob.botToken}`);
      expect(res.statusCode).toBe(200);
      expectSpecResponse(res, 'GET', `/guilds/${fx.guildId}/channels`);
      return res.json<Record<string, unknown>[]>();
    };

    fx.clock.set(CHANNEL_LIST_VISIBILITY_FROM_MS - 1);
    const before = await list();
    // Denied side: only what the gateway's obfuscated channel shows.
    const hidden = before.find((c) => c['id'] === secretId);
    expect(hidden).toEqual({
      id: secretId,
      type: 0,
      guild_id: fx.guildId,
      name: '___hidden___',
      position: expect.any(Number) as number,
      parent_id: null,
      flags: ChannelFlags.CHANNEL_OBFUSCATED,
      permission_overwrites: [
        { id: fx.guildId, type: 0, allow: '0', deny: String(P.VIEW_CHANNEL) },
      ],
      topic: null,
      nsfw: false,
      last_message_id: null,
      rate_limit_per_user: 0,
    });
    expect(JSON.stringify(before)).not.toContain(secretMessageId);
    // Allowed side: the viewable channel comes whole.
    expect(before.find((c) => c['id'] === fx.textId)).toMatchObject({
      name: 'general',
      last_message_id: openMessageId,
      flags: 0,
    });
    // The admin, who may view it, sees it whole.
    const full = await call(`GET /guilds/${fx.guildId}/channels`, admin);
    expect(full.json<Record<string, unknown>[]>().find((c) => c['id'] === secretId)).toMatchObject({
      name: 'secret-plans',
      topic: 'the plan',
      last_message_id: secretMessageId,
    });

    fx.clock.set(CHANNEL_LIST_VISIBILITY_FROM_MS);
    const after = await list();
    expect(after.map((c) => c['id'])).not.toContain(secretId);
    expect(after.find((c) => c['id'] === fx.textId)).toMatchObject({
      last_message_id: openMessageId,
    });
  });
});
