import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it, onTestFinished } from 'vitest';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { registration, useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { PNG_1X1 } from '../../../test/support/expressionFixtures.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { AFTER_SPLIT, firstChannelId } from '../../../test/support/messageFixtures.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { apiRequest } from '../../../test/support/inject.js';

interface Webhook {
  id: string;
  type: number;
  name: string;
  avatar: string | null;
  channel_id: string;
  guild_id: string;
  application_id: string | null;
  token?: string;
  url?: string;
  user?: { id: string };
}

describeDrivers('webhook management on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let channelId: string;

  const shared = useClockedServer({ storage: driver }, 'api-clock', {
    from: AFTER_SPLIT,
    until: CHANNEL_LIST_VISIBILITY_FROM_MS,
  });
  const { clock } = shared;
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, { botPermissions: P.MANAGE_WEBHOOKS, nowMs: () => clock.now() });
    channelId = await firstChannelId(server.app, g.guildId);
  });

  /** Sends a request and validates its answer against openapi.json, whatever its status. */
  const send = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { auth?: string; payload?: unknown; reason?: string; spec?: string } = {},
  ) => {
    const res = await apiRequest(server.app, `${method} ${path}`, {
      auth: options.auth,
      payload: options.payload,
      headers: options.reason === undefined ? {} : { 'x-audit-log-reason': options.reason },
    });
    expectOpenApiResponse(res, method, options.spec ?? path);
    return res;
  };
  const audit = () => server.app.storage.auditLog.list(g.guildId, { limit: 100 });
  const create = async (auth: string, payload: unknown = { name: 'Hook' }) => {
    const res = await send('POST', `/channels/${channelId}/webhooks`, { auth, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Webhook>();
  };

  it('creates, lists, reads, modifies and deletes a webhook, audited and announced', async () => {
    const recorded = await recordDispatches(server.app);
    onTestFinished(recorded.stop);
    const res = await send('POST', `/channels/${channelId}/webhooks`, {
      auth: g.owner.token,
      payload: { name: 'Deploys', avatar: PNG_1X1 },
      reason: 'ci',
    });
    expect(res.statusCode, res.body).toBe(200);
    const hook = res.json<Webhook>();
    expect(hook).toMatchObject({
      type: 1,
      name: 'Deploys',
      channel_id: channelId,
      guild_id: g.guildId,
      application_id: null,
      user: { id: g.owner.userId },
    });
    expect(hook.avatar).toMatch(/^[0-9a-f]{32}$/);
    expect(hook.token).toMatch(/^[A-Za-z0-9_-]{68}$/);
    expect(hook.url).toBe(`${server.baseUrl}/api/webhooks/${hook.id}/${hook.token ?? ''}`);
    // The token is stored hashed and sealed, never in the clear.
    const row = await server.app.storage.webhooks.findById(hook.id);
    expect(JSON.stringify(row)).not.toContain(hook.token);

    const update = await recorded.next('WEBHOOKS_UPDATE');
    expect(update).toMatchObject({
      guildId: g.guildId,
      data: { guild_id: g.guildId, channel_id: channelId },
    });
    const [entry] = await audit();
    expect(entry).toMatchObject({
      actionType: 50,
      targetId: hook.id,
      userId: g.owner.userId,
      reason: 'ci',
    });
    expect(entry?.changes).toContainEqual({ key: 'name', new_value: 'Deploys' });

    // The avatar is served where the platform serves a webhook's.
    const avatar = await server.app.http.inject({
      method: 'GET',
      url: `/avatars/${hook.id}/${hook.avatar ?? ''}.png`,
    });
    expect(avatar.statusCode).toBe(200);

    // A bot's webhook names its application.
    const botHook = await create(g.bot.token, { name: 'Bot hook' });
    expect(botHook.application_id).toBe(g.bot.applicationId);

    const listed = await send('GET', `/channels/${channelId}/webhooks`, { auth: g.owner.token });
    expect(listed.json<Webhook[]>().map((w) => w.id)).toEqual([hook.id, botHook.id]);
    const inGuild = await send('GET', `/guilds/${g.guildId}/webhooks`, { auth: g.bot.token });
    expect(inGuild.json<Webhook[]>()).toHaveLength(2);
    const got = await send('GET', `/webhooks/${hook.id}`, { auth: g.owner.token });
    expect(got.json<Webhook>()).toMatchObject({ id: hook.id, token: hook.token });

    const patched = await send('PATCH', `/webhooks/${hook.id}`, {
      auth: g.owner.token,
      payload: { name: 'Releases', avatar: null },
      reason: 'rename',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<Webhook>()).toMatchObject({ name: 'Releases', avatar: null });
    const updateEntry = (await audit()).find((e) => e.actionType === 51);
    expect(updateEntry?.changes).toContainEqual({
      key: 'name',
      old_value: 'Deploys',
      new_value: 'Releases',
    });
    // The replaced avatar is gone from the CDN.
    const gone = await server.app.http.inject({
      method: 'GET',
      url: `/avatars/${hook.id}/${hook.avatar ?? ''}.png`,
    });
    expect(gone.statusCode).toBe(404);

    const deleted = await send('DELETE', `/webhooks/${hook.id}`, { auth: g.owner.token });
    expect(deleted.statusCode).toBe(204);
    expect((await audit()).some((e) => e.actionType === 52 && e.targetId === hook.id)).toBe(true);
    const again = await send('GET', `/webhooks/${hook.id}`, { auth: g.owner.token });
    expect(again.json()).toMatchObject({ code: 10015 });
  });

  it('moves a webhook to another channel, announcing both', async () => {
    const hook = await create(g.owner.token);
    const made = await g.call('POST', `/guilds/${g.guildId}/channels`, {
      auth: g.owner.token,
      payload: { name: 'releases', type: 0 },
    });
    const otherId = made.json<{ id: string }>().id;
    const recorded = await recordDispatches(server.app);
    onTestFinished(recorded.stop);
    const moved = await send('PATCH', `/webhooks/${hook.id}`, {
      auth: g.owner.token,
      payload: { channel_id: otherId },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Webhook>().channel_id).toBe(otherId);
    await recorded.next('WEBHOOKS_UPDATE');
    await expect
      .poll(() => recorded.ofType('WEBHOOKS_UPDATE').map((e) => e.channelId))
      .toEqual(expect.arrayContaining([channelId, otherId]));
    const entry = (await audit()).find((e) => e.actionType === 51);
    expect(entry?.changes).toContainEqual({
      key: 'channel_id',
      old_value: channelId,
      new_value: otherId,
    });
  });

  it('refuses callers without MANAGE_WEBHOOKS and bad input, changing nothing', async () => {
    const hook = await create(g.owner.token);
    const member = await g.join('member');
    const stranger = await startStranger();
    const before = await g.auditCount();
    const cases: [
      'GET' | 'POST' | 'PATCH' | 'DELETE',
      string,
      { auth: string; payload?: unknown; spec?: string },
      number,
    ][] = [
      [
        'POST',
        `/channels/${channelId}/webhooks`,
        { auth: member.token, payload: { name: 'x' } },
        50013,
      ],
      ['GET', `/channels/${channelId}/webhooks`, { auth: member.token }, 50013],
      ['GET', `/guilds/${g.guildId}/webhooks`, { auth: member.token }, 50013],
      ['GET', `/webhooks/${hook.id}`, { auth: member.token }, 50013],
      ['PATCH', `/webhooks/${hook.id}`, { auth: member.token, payload: { name: 'x' } }, 50013],
      ['DELETE', `/webhooks/${hook.id}`, { auth: member.token }, 50013],
      ['GET', `/webhooks/${hook.id}`, { auth: stranger }, 50001],
      ['GET', `/guilds/${g.guildId}/webhooks`, { auth: stranger }, 50001],
      ['GET', '/webhooks/123456789012345678', { auth: g.owner.token }, 10015],
      ['GET', "/webhooks/'%3B--", { auth: g.owner.token, spec: '/webhooks/{webhook_id}' }, 10015],
      ['GET', '/channels/123456789012345678/webhooks', { auth: g.owner.token }, 10003],
      ['POST', `/channels/${channelId}/webhooks`, { auth: g.owner.token, payload: {} }, 50035],
      [
        'POST',
        `/channels/${channelId}/webhooks`,
        { auth: g.owner.token, payload: { name: 42 } },
        50035,
      ],
      [
        'POST',
        `/channels/${channelId}/webhooks`,
        { auth: g.owner.token, payload: { name: '' } },
        50035,
      ],
      [
        'POST',
        `/channels/${channelId}/webhooks`,
        { auth: g.owner.token, payload: { name: 'x'.repeat(81) } },
        50035,
      ],
      [
        'POST',
        `/channels/${channelId}/webhooks`,
        { auth: g.owner.token, payload: { name: 'My Clyde' } },
        50035,
      ],
      [
        'POST',
        `/channels/${channelId}/webhooks`,
        { auth: g.owner.token, payload: { name: 'DISCORD hook' } },
        50035,
      ],
      [
        'POST',
        `/channels/${channelId}/webhooks`,
        { auth: g.owner.token, payload: { name: 'x', avatar: 'data:image/png;base64,AAAA' } },
        50035,
      ],
      [
        'PATCH',
        `/webhooks/${hook.id}`,
        { auth: g.owner.token, payload: { channel_id: 'nope' } },
        50035,
      ],
      [
        'PATCH',
        `/webhooks/${hook.id}`,
        { auth: g.owner.token, payload: { channel_id: '123456789012345678' } },
        10003,
      ],
      ['GET', `/channels/${channelId}/webhooks`, { auth: 'Bot not-a-token' }, 0],
    ];
    for (const [method, path, options, code] of cases) {
      const res = await send(method, path, options);
      if (code === 0) expect(res.statusCode).toBe(401);
      else expect(res.json(), `${method} ${path}`).toMatchObject({ code });
    }
    expect(await g.auditCount()).toBe(before);
    expect(await server.app.storage.webhooks.findById(hook.id)).toMatchObject({ name: 'Hook' });

    // A category holds no messages; 15 webhooks fill a channel.
    const category = await g.call('POST', `/guilds/${g.guildId}/channels`, {
      auth: g.owner.token,
      payload: { name: 'cat', type: 4 },
    });
    const inCategory = await send(
      'POST',
      `/channels/${category.json<{ id: string }>().id}/webhooks`,
      { auth: g.owner.token, payload: { name: 'x' } },
    );
    expect(inCategory.json()).toMatchObject({ code: 50024 });
    for (let i = 1; i < 15; i++) await create(g.owner.token, { name: `Hook ${String(i)}` });
    const full = await send('POST', `/channels/${channelId}/webhooks`, {
      auth: g.owner.token,
      payload: { name: 'one too many' },
    });
    expect(full.json()).toMatchObject({ code: 30007 });
    expect(await server.app.storage.webhooks.countByChannel(channelId)).toBe(15);
  });

  /** A person in no guild of the fixture. */
  async function startStranger(): Promise<string> {
    const session = await server.app.services.auth.register(registration('stranger'));
    return session.token;
  }
});
