import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { uniqueName } from '../../../test/support/fileServer.js';
import { expect, it } from 'vitest';
import { useChannelFixture } from '../../../test/support/channelFixture.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectSpecResponse } from '../../../test/support/guildApi.js';
import { seedDeveloper } from '../../../test/support/testServer.js';

/** PUT /channels/{id}/voice-status. */
describeDrivers('channel voice status on $driver', (driver) => {
  const fx = useChannelFixture(driver);
  const { call, addBob, auditOf, snapshot } = fx;

  it('PUT /channels/{id}/voice-status sets and clears an ephemeral status, audited 192/193', async () => {
    // Voice states come with the gateway: nobody is connected, so MANAGE_CHANNELS is needed too.
    await addBob(P.VIEW_CHANNEL | P.CONNECT | P.SET_VOICE_CHANNEL_STATUS);
    const before = await snapshot();
    const bobAuth = `Bot ${fx.bob.botToken}`;
    const refused: [string, string, object, number, number][] = [
      [bobAuth, fx.voiceId, { status: 'hi' }, 403, 50013],
      [`Bot ${fx.ada.botToken}`, fx.textId, { status: 'hi' }, 400, 50024],
      [`Bot ${fx.ada.botToken}`, fx.voiceId, { status: 'x'.repeat(501) }, 400, 50035],
      [`Bot ${fx.ada.botToken}`, fx.voiceId, { status: 5 }, 400, 50035],
      [`Bot ${fx.ada.botToken}`, fx.voiceId, {}, 400, 50035],
      [`Bot ${fx.ada.botToken}`, '1234', { status: 'hi' }, 404, 10003],
    ];
    for (const [token, id, payload, status, code] of refused) {
      const res = await call(`PUT /channels/${id}/voice-status`, token, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectSpecResponse(res, 'PUT', `/channels/${id}/voice-status`);
    }
    expect(await snapshot()).toEqual(before);
    expect(await fx.server.app.storage.voiceStatus.find(fx.voiceId)).toBeNull();

    const carol = await seedDeveloper(fx.server.app, uniqueName('carol'));
    await fx.server.app.services.guilds.addBot({
      guildId: fx.guildId,
      applicationId: carol.applicationId,
      permissions: P.VIEW_CHANNEL | P.SET_VOICE_CHANNEL_STATUS | P.MANAGE_CHANNELS,
    });
    const set = await call(`PUT /channels/${fx.voiceId}/voice-status`, `Bot ${carol.botToken}`, {
      reason: 'raid night',
      payload: { status: 'Raid night 🎮' },
    });
    expect(set.statusCode).toBe(204);
    expectSpecResponse(set, 'PUT', `/channels/${fx.voiceId}/voice-status`);
    expect(await fx.server.app.storage.voiceStatus.find(fx.voiceId)).toMatchObject({
      status: 'Raid night 🎮',
    });
    // Ephemeral: never a field of the channel object.
    const channel = await call(`GET /channels/${fx.voiceId}`, fx.ada.userToken);
    expect(channel.json()).not.toHaveProperty('status');
    expect(await auditOf(AuditLogActions.VOICE_CHANNEL_STATUS_CREATE)).toMatchObject([
      {
        userId: carol.botUserId,
        targetId: fx.voiceId,
        reason: 'raid night',
        options: { channel_id: fx.voiceId, status: 'Raid night 🎮' },
      },
    ]);

    const cleared = await call(
      `PUT /channels/${fx.voiceId}/voice-status`,
      `Bot ${carol.botToken}`,
      {
        reason: 'raid over',
        payload: { status: null },
      },
    );
    expect(cleared.statusCode).toBe(204);
    expectSpecResponse(cleared, 'PUT', `/channels/${fx.voiceId}/voice-status`);
    expect(await fx.server.app.storage.voiceStatus.find(fx.voiceId)).toBeNull();
    expect(await auditOf(AuditLogActions.VOICE_CHANNEL_STATUS_DELETE)).toMatchObject([
      {
        userId: carol.botUserId,
        targetId: fx.voiceId,
        reason: 'raid over',
        options: { channel_id: fx.voiceId, status: 'Raid night 🎮' },
      },
    ]);
  });

  it('voice status needs SET_VOICE_CHANNEL_STATUS and, unconnected, MANAGE_CHANNELS', async () => {
    const bot = async (name: string, permissions: bigint) => {
      const seed = await seedDeveloper(fx.server.app, name);
      await fx.server.app.services.guilds.addBot({
        guildId: fx.guildId,
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
      call(`PUT /channels/${fx.voiceId}/voice-status`, auth, {
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
        expectSpecResponse(res, 'PUT', `/channels/${fx.voiceId}/voice-status`);
      }
    }
    expect(await snapshot()).toEqual(before);
    expect(await fx.server.app.storage.voiceStatus.find(fx.voiceId)).toMatchObject({
      status: 'First',
    });

    const set = await put(both.auth, 'Second', 'update');
    expect(set.statusCode).toBe(204);
    expect(await fx.server.app.storage.voiceStatus.find(fx.voiceId)).toMatchObject({
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
    expect(await fx.server.app.storage.voiceStatus.find(fx.voiceId)).toBeNull();
    expect(await auditOf(AuditLogActions.VOICE_CHANNEL_STATUS_DELETE)).toMatchObject([
      { userId: both.userId, targetId: fx.voiceId, reason: 'done', options: { status: 'Second' } },
    ]);
  });
});
