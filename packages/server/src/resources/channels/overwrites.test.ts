import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { uniqueName } from '../../../test/support/fileServer.js';
import { expect, it } from 'vitest';
import { useChannelFixture } from '../../../test/support/channelFixture.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectSpecResponse } from '../../../test/support/guildApi.js';
import { seedDeveloper } from '../../../test/support/testServer.js';

/** Permission overwrites: PUT and DELETE /channels/{id}/permissions/{target}. */
describeDrivers('channel overwrites on $driver', (driver) => {
  const fx = useChannelFixture(driver);
  const { call, addBob, bobRoleId, auditOf, snapshot } = fx;

  it('PUT and DELETE an overwrite, with CHANNEL_OVERWRITE entries', async () => {
    await addBob(P.VIEW_CHANNEL | P.MANAGE_ROLES | P.SEND_MESSAGES);
    const bobAuth = `Bot ${fx.bob.botToken}`;
    const put = (allow: bigint) =>
      call(`PUT /channels/${fx.textId}/permissions/${fx.ada.userId}`, bobAuth, {
        reason: 'quiet',
        payload: { type: 1, deny: String(allow) },
      });
    const first = await put(P.SEND_MESSAGES);
    expect(first.statusCode).toBe(204);
    expectSpecResponse(first, 'PUT', `/channels/${fx.textId}/permissions/${fx.ada.userId}`);
    const second = await put(P.SEND_MESSAGES | P.VIEW_CHANNEL);
    expect(second.statusCode).toBe(204);
    expect(await fx.server.app.storage.overwrites.listByChannel(fx.textId)).toEqual([
      {
        channelId: fx.textId,
        targetId: fx.ada.userId,
        type: 1,
        allow: 0n,
        deny: P.SEND_MESSAGES | P.VIEW_CHANNEL,
      },
    ]);
    expect(await auditOf(AuditLogActions.CHANNEL_OVERWRITE_CREATE)).toMatchObject([
      {
        userId: fx.bob.botUserId,
        targetId: fx.textId,
        reason: 'quiet',
        options: { id: fx.ada.userId, type: '1' },
        changes: [
          { key: 'allow', new_value: '0' },
          { key: 'deny', new_value: String(P.SEND_MESSAGES) },
        ],
      },
    ]);
    expect(await auditOf(AuditLogActions.CHANNEL_OVERWRITE_UPDATE)).toMatchObject([
      {
        options: { id: fx.ada.userId, type: '1' },
        changes: [
          {
            key: 'deny',
            old_value: String(P.SEND_MESSAGES),
            new_value: String(P.SEND_MESSAGES | P.VIEW_CHANNEL),
          },
        ],
      },
    ]);
    const removed = await call(
      `DELETE /channels/${fx.textId}/permissions/${fx.ada.userId}`,
      bobAuth,
      {
        reason: 'lifted',
      },
    );
    expect(removed.statusCode).toBe(204);
    expectSpecResponse(removed, 'DELETE', `/channels/${fx.textId}/permissions/${fx.ada.userId}`);
    expect(await fx.server.app.storage.overwrites.listByChannel(fx.textId)).toEqual([]);
    expect(await auditOf(AuditLogActions.CHANNEL_OVERWRITE_DELETE)).toMatchObject([
      {
        userId: fx.bob.botUserId,
        targetId: fx.textId,
        reason: 'lifted',
        options: { id: fx.ada.userId, type: '1' },
      },
    ]);

    const missing = await call(
      `DELETE /channels/${fx.textId}/permissions/${fx.ada.userId}`,
      bobAuth,
    );
    expect(missing.json()).toMatchObject({ code: 10009 });
    expectSpecResponse(missing, 'DELETE', `/channels/${fx.textId}/permissions/${fx.ada.userId}`);
  });

  it('overwrite edits refuse bad input and change nothing', async () => {
    await addBob(P.VIEW_CHANNEL | P.MANAGE_ROLES);
    const roleId = await bobRoleId();
    const before = await snapshot();
    const cases: [string, string, object, number, number][] = [
      // Bits the caller lacks cannot be granted or denied.
      [`Bot ${fx.bob.botToken}`, roleId, { type: 0, allow: String(P.KICK_MEMBERS) }, 403, 50013],
      // MANAGE_ROLES in an overwrite is for administrators.
      [`Bot ${fx.bob.botToken}`, roleId, { type: 0, allow: String(P.MANAGE_ROLES) }, 403, 50013],
      [fx.ada.userToken, '1234', { type: 0 }, 404, 10011],
      [fx.ada.userToken, fx.bob.userId, { type: 1 }, 404, 10007],
      [fx.ada.userToken, roleId, { type: 2 }, 400, 50035],
      [fx.ada.userToken, roleId, { type: 0, allow: 'lots' }, 400, 50035],
      [fx.ada.userToken, 'abc', { type: 0 }, 400, 50035],
    ];
    for (const [token, target, payload, status, code] of cases) {
      const res = await call(`PUT /channels/${fx.textId}/permissions/${target}`, token, {
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectSpecResponse(res, 'PUT', `/channels/${fx.textId}/permissions/${target}`);
    }
    const unknown = await call(`PUT /channels/1234/permissions/${roleId}`, fx.ada.userToken, {
      payload: { type: 0 },
    });
    expect(unknown.json()).toMatchObject({ code: 10003 });
    expectSpecResponse(unknown, 'PUT', `/channels/1234/permissions/${roleId}`);
    expect(await snapshot()).toEqual(before);
    // Without MANAGE_ROLES (adding the bot writes its own BOT_ADD entry first).
    const carol = await seedDeveloper(fx.server.app, uniqueName('carol'));
    await fx.server.app.services.guilds.addBot({
      guildId: fx.guildId,
      applicationId: carol.applicationId,
      permissions: P.VIEW_CHANNEL | P.MANAGE_CHANNELS,
    });
    const withCarol = await snapshot();
    const noRoles = await call(
      `PUT /channels/${fx.textId}/permissions/${roleId}`,
      `Bot ${carol.botToken}`,
      {
        payload: { type: 0 },
      },
    );
    expect(noRoles.json()).toMatchObject({ code: 50013 });
    const noDelete = await call(
      `DELETE /channels/${fx.textId}/permissions/${roleId}`,
      `Bot ${carol.botToken}`,
    );
    expect(noDelete.json()).toMatchObject({ code: 50013 });
    expectSpecResponse(noDelete, 'DELETE', `/channels/${fx.textId}/permissions/${roleId}`);
    expect(await snapshot()).toEqual(withCarol);
  });
});
