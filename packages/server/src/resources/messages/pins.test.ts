import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { fabricatedId, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { firstChannelId, overwrite } from '../../../test/support/messageFixtures.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';

interface PinPage {
  items: { pinned_at: string; message: { id: string; pinned: boolean; content: string } }[];
  has_more: boolean;
}

const AFTER_SPLIT = Date.UTC(2026, 5, 1);
const BEFORE_SPLIT = Date.UTC(2026, 0, 15);

describeDrivers('pins on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let channelId: string;
  const clock = manualClock(AFTER_SPLIT);

  const shared = useFileServer({ storage: driver, clock });
  beforeEach(async () => {
    clock.set(AFTER_SPLIT);
    server = shared.server;
    g = await guildFixture(server, { botPermissions: P.PIN_MESSAGES, nowMs: () => clock.now() });
    channelId = await firstChannelId(server.app, g.guildId);
  });

  const send = async (content: string) => {
    const res = await g.call('POST', `/channels/${channelId}/messages`, {
      auth: g.owner.token,
      payload: { content },
    });
    return res.json<{ id: string }>().id;
  };
  const pinPath = (id: string) => `/channels/${channelId}/messages/pins/${id}`;
  const listPath = (query = '') => `/channels/${channelId}/messages/pins${query}`;
  const expectRefused = (
    res: Awaited<ReturnType<GuildFixture['call']>>,
    [status, code]: [number, number],
    [method, path]: [string, string],
  ) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ code });
    expectOpenApiResponse(res, method, path);
  };

  it('pins with a system message, CHANNEL_PINS_UPDATE and an audit entry', async () => {
    const dispatches = await recordDispatches(server.app);
    const id = await send('pin me');
    clock.advance(1000);
    const res = await g.call('PUT', pinPath(id), { auth: g.bot.token, reason: 'important' });
    expect(res.statusCode, res.body).toBe(204);
    expectOpenApiResponse(res, 'PUT', pinPath(id));
    const pinnedAt = new Date(clock.now()).toISOString();
    expect((await dispatches.next('CHANNEL_PINS_UPDATE')).data).toEqual({
      guild_id: g.guildId,
      channel_id: channelId,
      last_pin_timestamp: pinnedAt,
    });
    const created = dispatches.ofType('MESSAGE_CREATE').map((event) => event.data);
    expect(created).toContainEqual(
      expect.objectContaining({
        type: 6,
        author: expect.objectContaining({ id: g.bot.userId }) as unknown,
        message_reference: {
          type: 0,
          channel_id: channelId,
          message_id: id,
          guild_id: g.guildId,
        },
      }),
    );
    const [entry] = await server.app.storage.auditLog.list(g.guildId, {
      actionType: AuditLogActions.MESSAGE_PIN,
      limit: 5,
    });
    expect(entry).toMatchObject({
      userId: g.bot.userId,
      targetId: g.owner.userId,
      reason: 'important',
      options: { channel_id: channelId, message_id: id },
    });

    const page = await g.call('GET', listPath(), g.owner.token);
    expect(page.statusCode).toBe(200);
    expectOpenApiResponse(page, 'GET', listPath());
    expect(page.json<PinPage>()).toMatchObject({
      items: [{ pinned_at: pinnedAt, message: { id, pinned: true, content: 'pin me' } }],
      has_more: false,
    });
    // Pinning again changes nothing.
    expect((await g.call('PUT', pinPath(id), g.bot.token)).statusCode).toBe(204);
    expect(
      await server.app.storage.auditLog.list(g.guildId, {
        actionType: AuditLogActions.MESSAGE_PIN,
        limit: 5,
      }),
    ).toHaveLength(1);

    const unpin = await g.call('DELETE', pinPath(id), g.bot.token);
    expect(unpin.statusCode).toBe(204);
    expectOpenApiResponse(unpin, 'DELETE', pinPath(id));
    const [unpinned] = await server.app.storage.auditLog.list(g.guildId, {
      actionType: AuditLogActions.MESSAGE_UNPIN,
      limit: 5,
    });
    expect(unpinned).toMatchObject({ targetId: g.owner.userId });
    expect(dispatches.ofType('CHANNEL_PINS_UPDATE').at(-1)?.data).toMatchObject({
      last_pin_timestamp: null,
    });
    expect((await g.call('GET', listPath(), g.owner.token)).json()).toEqual({
      items: [],
      has_more: false,
    });
  });

  it('pages by pinned_at with before and limit; the old routes keep working', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await send(`m${String(i)}`);
      clock.advance(1000);
      expect((await g.call('PUT', pinPath(id), g.bot.token)).statusCode).toBe(204);
      ids.push(id);
    }
    const first = await g.call('GET', listPath('?limit=2'), g.owner.token);
    expectOpenApiResponse(first, 'GET', listPath('?limit=2'));
    const page = first.json<PinPage>();
    expect(page.items.map((item) => item.message.id)).toEqual([ids[2], ids[1]]);
    expect(page.has_more).toBe(true);
    const before = encodeURIComponent(page.items[1]?.pinned_at ?? '');
    const second = await g.call('GET', listPath(`?before=${before}`), g.owner.token);
    expect(second.json<PinPage>()).toMatchObject({
      items: [{ message: { id: ids[0] } }],
      has_more: false,
    });
    for (const bad of ['?limit=0', '?limit=51', '?before=yesterday']) {
      expectRefused(
        await g.call('GET', listPath(bad), g.owner.token),
        [400, 50035],
        ['GET', listPath(bad)],
      );
    }

    const old = await g.call('GET', `/channels/${channelId}/pins`, g.owner.token);
    expect(old.statusCode).toBe(200);
    expectOpenApiResponse(old, 'GET', `/channels/${channelId}/pins`);
    expect(old.json<{ id: string }[]>().map((m) => m.id)).toEqual([ids[2], ids[1], ids[0]]);
    const oldPath = `/channels/${channelId}/pins/${ids[0] ?? ''}`;
    const oldUnpin = await g.call('DELETE', oldPath, g.bot.token);
    expect(oldUnpin.statusCode).toBe(204);
    expectOpenApiResponse(oldUnpin, 'DELETE', oldPath);
    const oldPin = await g.call('PUT', oldPath, g.bot.token);
    expect(oldPin.statusCode).toBe(204);
    expectOpenApiResponse(oldPin, 'PUT', oldPath);
  });

  it('needs PIN_MESSAGES after February 23, 2026; MANAGE_MESSAGES before', async () => {
    const id = await send('x');
    const mod = await g.join('mod');
    await overwrite(server.app, { channelId, userId: mod.userId, allow: P.MANAGE_MESSAGES });
    expectRefused(await g.call('PUT', pinPath(id), mod.token), [403, 50013], ['PUT', pinPath(id)]);
    expectRefused(
      await g.call('DELETE', pinPath(id), mod.token),
      [403, 50013],
      ['DELETE', pinPath(id)],
    );
    clock.set(BEFORE_SPLIT);
    expect((await g.call('PUT', pinPath(id), mod.token)).statusCode).toBe(204);
    // Before the split the bot's PIN_MESSAGES alone is not enough.
    expectRefused(
      await g.call('DELETE', pinPath(id), g.bot.token),
      [403, 50013],
      ['DELETE', pinPath(id)],
    );

    const unknown = pinPath('123');
    expectRefused(await g.call('PUT', unknown, mod.token), [404, 10008], ['PUT', unknown]);
    const ann = await g.join('ann');
    await overwrite(server.app, { channelId, userId: ann.userId, deny: P.READ_MESSAGE_HISTORY });
    const blind = await g.call('GET', listPath(), ann.token);
    expect(blind.json()).toEqual({ items: [], has_more: false });
    await overwrite(server.app, { channelId, userId: ann.userId, deny: P.VIEW_CHANNEL });
    expectRefused(await g.call('GET', listPath(), ann.token), [403, 50001], ['GET', listPath()]);
  });

  it('at most 250 pins (30003)', async () => {
    const id = await send('one too many');
    const rows = Array.from({ length: 250 }, () => fabricatedId(id));
    for (const rowId of rows) {
      await server.app.storage.messages.create({
        id: rowId,
        channelId,
        guildId: g.guildId,
        authorId: g.owner.userId,
        type: 0,
        content: 'filler',
        embeds: [],
        flags: 0,
        tts: false,
        mentionEveryone: false,
        mentionUserIds: [],
        mentionRoleIds: [],
        reference: null,
        snapshots: null,
        nonce: null,
        applicationId: null,
        webhookId: null,
        createdAt: clock.now(),
        attachments: [],
      });
      await server.app.storage.messages.setPinnedAt(channelId, rowId, clock.now());
    }
    expectRefused(
      await g.call('PUT', pinPath(id), g.bot.token),
      [400, 30003],
      ['PUT', pinPath(id)],
    );
    expect((await server.app.storage.messages.findById(channelId, id))?.pinnedAt).toBeNull();
  });
});
