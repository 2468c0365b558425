import { AuditLogActions } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { useCommandFixture } from '../../../test/support/commandFixture.js';
import { describeDrivers } from '../../../test/support/drivers.js';

const PERMISSIONS_SCOPE = 'applications.commands.permissions.update';

describeDrivers('application command permissions on $driver', (driver) => {
  const fx = useCommandFixture(driver);
  const base = (guildId = fx.guild.guildId) =>
    `/applications/${fx.appId}/guilds/${guildId}/commands`;

  const setup = async () => {
    const made = await fx.call(`POST ${base()}`, fx.bot, {
      payload: { name: 'ban', description: 'Bans someone', default_member_permissions: '4' },
    });
    expect(made.statusCode).toBe(201);
    const command = made.json<{ id: string }>();
    const [channel] = await fx.app.storage.channels.listByGuild(fx.guild.guildId);
    const owner = await fx.bearer(fx.guild.owner.userId, [PERMISSIONS_SCOPE]);
    const audits = await fx.guild.auditCount();
    return { command, channelId: channel?.id ?? '', owner, audits };
  };

  it('puts, gets and lists a command’s overwrites; audits (121) and announces the change', async () => {
    const { command, channelId, owner } = await setup();
    const mod = await fx.guild.join('mod');
    const guildId = fx.guild.guildId;
    const allChannels = (BigInt(guildId) - 1n).toString();
    const permissions = [
      { id: guildId, type: 1, permission: false },
      { id: mod.userId, type: 2, permission: true },
      { id: channelId, type: 3, permission: true },
      { id: allChannels, type: 3, permission: false },
    ];
    const put = await fx.call(`PUT ${base()}/${command.id}/permissions`, owner, {
      payload: { permissions },
    });
    expect(put.statusCode, put.body).toBe(200);
    const expected = { id: command.id, application_id: fx.appId, guild_id: guildId, permissions };
    expect(put.json()).toEqual(expected);

    const got = await fx.call(`GET ${base()}/${command.id}/permissions`, fx.bot);
    expect(got.json()).toEqual(expected);
    const list = await fx.call(`GET ${base()}/permissions`, fx.bot);
    expect(list.json()).toEqual([expected]);

    const dispatch = await fx.dispatches.next('APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    expect(dispatch.guildId).toBe(guildId);
    expect(dispatch.data).toEqual(expected);

    const audit = await fx.app.storage.auditLog.list(guildId, {
      actionType: AuditLogActions.APPLICATION_COMMAND_PERMISSION_UPDATE,
      limit: 10,
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      userId: fx.guild.owner.userId,
      targetId: command.id,
      options: { application_id: fx.appId },
    });
    expect(audit[0]?.changes).toContainEqual({ key: mod.userId, new_value: permissions[1] });

    // A second put replaces the list: removed targets show as old values.
    const again = await fx.call(`PUT ${base()}/${command.id}/permissions`, owner, {
      payload: { permissions: [{ id: guildId, type: 1, permission: true }] },
    });
    expect(again.json()).toMatchObject({
      permissions: [{ id: guildId, type: 1, permission: true }],
    });
    const entries = await fx.app.storage.auditLog.list(guildId, {
      actionType: AuditLogActions.APPLICATION_COMMAND_PERMISSION_UPDATE,
      limit: 10,
    });
    expect(entries).toHaveLength(2);
    const latest = entries.find((e) => e.id !== audit[0]?.id);
    expect(latest?.changes).toContainEqual({
      key: guildId,
      old_value: permissions[0],
      new_value: { id: guildId, type: 1, permission: true },
    });
    expect(latest?.changes).toContainEqual({ key: mod.userId, old_value: permissions[1] });

    // An empty list removes them: the GET is 10066 again.
    await fx.call(`PUT ${base()}/${command.id}/permissions`, owner, {
      payload: { permissions: [] },
    });
    const none = await fx.call(`GET ${base()}/${command.id}/permissions`, fx.bot);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 10066 });
  });

  it('keeps application-wide overwrites under the application id, and global commands’ per guild', async () => {
    const { owner } = await setup();
    const global = await fx.call(`POST /applications/${fx.appId}/commands`, fx.bot, {
      payload: { name: 'hello', description: 'd' },
    });
    const globalId = global.json<{ id: string }>().id;
    const everyoneOff = [{ id: fx.guild.guildId, type: 1, permission: false }];
    for (const id of [fx.appId, globalId]) {
      const res = await fx.call(`PUT ${base()}/${id}/permissions`, owner, {
        payload: { permissions: everyoneOff },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id, permissions: everyoneOff });
    }
    const list = await fx.call(`GET ${base()}/permissions`, fx.bot);
    expect(
      list
        .json<{ id: string }[]>()
        .map((p) => p.id)
        .sort(),
    ).toEqual([fx.appId, globalId].sort());

    // Renaming a command drops its overwrites; deleting it too.
    await fx.call(`PATCH /applications/${fx.appId}/commands/${globalId}`, fx.bot, {
      payload: { name: 'hi' },
    });
    expect((await fx.call(`GET ${base()}/${globalId}/permissions`, fx.bot)).statusCode).toBe(404);
    expect((await fx.call(`GET ${base()}/${fx.appId}/permissions`, fx.bot)).statusCode).toBe(200);
  });

  it('lets only a user’s Bearer token with the scope, MANAGE_GUILD and MANAGE_ROLES put', async () => {
    const { command, owner, audits } = await setup();
    const path = `PUT ${base()}/${command.id}/permissions`;
    const payload = { permissions: [{ id: fx.guild.guildId, type: 1, permission: false }] };

    const bot = await fx.call(path, fx.bot, { payload });
    expect(bot.statusCode).toBe(403);
    expect(bot.json()).toMatchObject({ code: 20001 });

    const mod = await fx.guild.join('mod');
    const modToken = await fx.bearer(mod.userId, [PERMISSIONS_SCOPE]);
    const weak = await fx.call(path, modToken, { payload });
    expect(weak.statusCode).toBe(403);
    expect(weak.json()).toMatchObject({ code: 50013 });

    const wrongScope = await fx.bearer(fx.guild.owner.userId, ['applications.commands.update']);
    expect((await fx.call(path, wrongScope, { payload })).json()).toMatchObject({ code: 50001 });
    const stranger = await fx.bearer(fx.other.userId, [PERMISSIONS_SCOPE]);
    const notMember = await fx.call(path, stranger, { payload });
    expect(notMember.json()).toMatchObject({ code: 50001 });
    const otherBot = await fx.call(`GET ${base()}/permissions`, `Bot ${fx.other.botToken}`);
    expect(otherBot.json()).toMatchObject({ code: 50001 });

    expect((await fx.call(`GET ${base()}/${command.id}/permissions`, fx.bot)).statusCode).toBe(404);
    expect(await fx.guild.auditCount()).toBe(audits);
    expect((await fx.call(path, owner, { payload })).statusCode).toBe(200);
  });

  it('refuses unknown commands and targets, duplicates and more than 100 entries', async () => {
    const { command, owner, audits } = await setup();
    const put = (commandId: string, permissions: unknown) =>
      fx.call(`PUT ${base()}/${commandId}/permissions`, owner, { payload: { permissions } });
    const ok = [{ id: fx.guild.guildId, type: 1, permission: true }];

    expect((await put('123', ok)).json()).toMatchObject({ code: 10063 });
    const elsewhere = await fx.call(
      `POST /applications/${fx.other.applicationId}/commands`,
      `Bot ${fx.other.botToken}`,
      {
        payload: { name: 'x', description: 'd' },
      },
    );
    expect((await put(elsewhere.json<{ id: string }>().id, ok)).json()).toMatchObject({
      code: 10063,
    });
    expect(
      (await put(command.id, [{ id: '999', type: 1, permission: true }])).json(),
    ).toMatchObject({
      code: 50035,
      errors: { permissions: { '0': { id: {} } } },
    });
    expect(
      (await put(command.id, [{ id: '999', type: 3, permission: true }])).json(),
    ).toMatchObject({
      code: 50035,
    });
    expect(
      (await put(command.id, [{ id: '999', type: 2, permission: true }])).json(),
    ).toMatchObject({
      code: 50035,
    });
    expect((await put(command.id, [...ok, ...ok])).json()).toMatchObject({
      code: 50035,
      errors: { permissions: { '1': { id: {} } } },
    });
    expect(
      (await put(command.id, [{ id: fx.guild.guildId, type: 4, permission: true }])).json(),
    ).toMatchObject({
      code: 50035,
    });
    expect((await put(command.id, [{ id: 'x', type: 1, permission: 'yes' }])).json()).toMatchObject(
      {
        code: 50035,
      },
    );
    const many = Array.from({ length: 101 }, (_, i) => ({
      id: String(1000 + i),
      type: 2,
      permission: true,
    }));
    expect((await put(command.id, many)).json()).toMatchObject({
      code: 50035,
      errors: { permissions: {} },
    });
    expect((await put(command.id, undefined)).json()).toMatchObject({ code: 50035 });
    expect(await fx.guild.auditCount()).toBe(audits);
    const bare = await fx.call(`GET ${base(fx.bareGuildId)}/permissions`, fx.bot);
    expect(bare.json()).toMatchObject({ code: 50001 });
  });
});
