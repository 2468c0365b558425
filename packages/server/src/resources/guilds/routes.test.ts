import { AuditLogActions, ERRORS, PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  apiCall,
  expectSpecResponse,
  expectUndocumentedGuildRoute,
} from '../../../test/support/guildApi.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';

const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const codeOf = (name: keyof typeof ERRORS) => ERRORS[name].code;

describeDrivers('guilds on $driver', (driver) => {
  let server: TestServer;
  let ada: Awaited<ReturnType<typeof seedDeveloper>>;
  let bob: Awaited<ReturnType<typeof seedDeveloper>>;
  let call: ReturnType<typeof apiCall>;

  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    ada = await seedDeveloper(server.app, uniqueName('ada'), 'ada app');
    bob = await seedDeveloper(server.app, uniqueName('bob'), 'bob app');
    call = apiCall(server.app);
  });

  /** A guild of ada's with her bot as administrator and bob's bot with `bobPermissions`. */
  const fixture = async (bobPermissions: bigint) => {
    const created = await server.app.services.guilds.create({
      ownerId: ada.userId,
      name: 'Guild',
      channels: [
        { name: 'general', type: 'text' },
        { name: 'Lounge', type: 'voice' },
      ],
    });
    const guildId = created.guild.id;
    await server.app.services.guilds.addBot({
      guildId,
      applicationId: ada.applicationId,
      permissions: P.ADMINISTRATOR,
    });
    await server.app.services.guilds.addBot({
      guildId,
      applicationId: bob.applicationId,
      permissions: bobPermissions,
    });
    const [text, voice] = created.channels;
    if (text === undefined || voice === undefined) throw new Error('fixture channels missing');
    return { guildId, text, voice };
  };

  it('POST /guilds makes a guild from the create body; a bot gets 20001', async () => {
    const res = await call('POST /guilds', ada.userToken, {
      payload: {
        name: 'Made by hand',
        icon: PNG_1X1,
        verification_level: 1,
        roles: [
          { id: 0, permissions: String(P.VIEW_CHANNEL | P.SEND_MESSAGES) },
          { id: 1, name: 'mods', permissions: String(P.MANAGE_MESSAGES), color: 0xff0000 },
        ],
        channels: [
          { id: 10, name: 'Info', type: 4 },
          {
            id: 11,
            name: 'Read Me',
            type: 0,
            parent_id: 10,
            topic: 'rules',
            permission_overwrites: [{ id: 0, type: 0, deny: String(P.SEND_MESSAGES) }],
          },
          { id: 12, name: 'Talk', type: 2, bitrate: 32000 },
        ],
        afk_channel_id: 12,
        system_channel_id: 11,
      },
    });
    expect(res.statusCode).toBe(201);
    const guild = res.json<{
      id: string;
      owner_id: string;
      icon: string;
      roles: { id: string; name: string; permissions: string }[];
      afk_channel_id: string;
      system_channel_id: string;
      verification_level: number;
    }>();
    expectUndocumentedGuildRoute(res, guild.id);
    expect(guild.owner_id).toBe(ada.userId);
    expect(guild.verification_level).toBe(1);
    expect(guild.roles.map((r) => r.name)).toEqual(['@everyone', 'mods']);
    expect(guild.roles[0]).toMatchObject({
      id: guild.id,
      permissions: String(P.VIEW_CHANNEL | P.SEND_MESSAGES),
    });
    const image = await server.app.http.inject({ url: `/icons/${guild.id}/${guild.icon}.png` });
    expect(image.statusCode).toBe(200);

    const channels = await server.app.storage.channels.listByGuild(guild.id);
    const byName = new Map(channels.map((c) => [c.name, c]));
    expect(byName.get('read-me')).toMatchObject({
      parentId: byName.get('Info')?.id,
      topic: 'rules',
    });
    expect(byName.get('Talk')).toMatchObject({ bitrate: 32000 });
    expect(guild.afk_channel_id).toBe(byName.get('Talk')?.id);
    expect(guild.system_channel_id).toBe(byName.get('read-me')?.id);
    const readMe = byName.get('read-me');
    if (readMe === undefined) throw new Error('read-me missing');
    expect(await server.app.storage.overwrites.listByChannel(readMe.id)).toEqual([
      { channelId: readMe.id, targetId: guild.id, type: 0, allow: 0n, deny: P.SEND_MESSAGES },
    ]);
    expect(await server.app.storage.members.find(guild.id, ada.userId)).not.toBeNull();

    // Without channels the platform's starter layout is made.
    const plain = await call('POST /guilds', ada.userToken, { payload: { name: 'Plain' } });
    expect(plain.statusCode).toBe(201);
    const plainId = plain.json<{ id: string }>().id;
    expectUndocumentedGuildRoute(plain, plainId);
    expect(
      (await server.app.storage.channels.listByGuild(plainId)).map((c) => [c.name, c.type]),
    ).toEqual([
      ['Text Channels', 4],
      ['Voice Channels', 4],
      ['general', 0],
      ['General', 2],
    ]);

    const bot = await call('POST /guilds', `Bot ${ada.botToken}`, { payload: { name: 'Nope' } });
    expect(bot.statusCode).toBe(403);
    expect(bot.json()).toMatchObject({ code: codeOf('BOTS_CANNOT_USE_ENDPOINT') });
    expectUndocumentedGuildRoute(bot, '1');
    expect(await server.app.storage.guilds.countForUser(ada.botUserId)).toBe(0);
  });

  it('POST /guilds refuses bad bodies and creates nothing', async () => {
    const cases: [object, string[]][] = [
      [{ name: 'x' }, ['name']],
      [{ name: 'Guild', verification_level: 7 }, ['verification_level']],
      [{ name: 'Guild', channels: [{ name: 'dm', type: 1 }] }, ['channels', '0', 'type']],
      [
        { name: 'Guild', channels: [{ id: 1, name: 'a', type: 0, parent_id: 9 }] },
        ['channels', '0', 'parent_id'],
      ],
      [
        { name: 'Guild', channels: [{ name: 'a', topic: 'x'.repeat(1025) }] },
        ['channels', '0', 'topic'],
      ],
      [{ name: 'Guild', channels: [{ id: 1, name: 'a' }], afk_channel_id: 1 }, ['afk_channel_id']],
      [{ name: 'Guild', icon: 'data:image/png;base64,AAAA' }, ['icon']],
    ];
    for (const [payload, path] of cases) {
      const res = await call('POST /guilds', ada.userToken, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expectUndocumentedGuildRoute(res, '1');
      let node: unknown = res.json<{ errors: unknown }>().errors;
      for (const key of path) node = (node as Record<string, unknown>)[key];
      expect(node, `${JSON.stringify(payload)} → ${res.body}`).toHaveProperty('_errors');
    }
    expect(await server.app.storage.guilds.countForUser(ada.userId)).toBe(0);
  });

  it('GET /guilds/{id} with and without counts; 10004 and 50001', async () => {
    const { guildId } = await fixture(0n);
    const plain = await call(`GET /guilds/${guildId}`, `Bot ${bob.botToken}`);
    expect(plain.statusCode).toBe(200);
    expectOpenApiResponse(plain, 'GET', `/guilds/${guildId}`);
    expect(plain.json()).not.toHaveProperty('approximate_member_count');
    expect(plain.json<{ roles: unknown[] }>().roles).toHaveLength(3);

    const counted = await call(`GET /guilds/${guildId}?with_counts=true`, ada.userToken);
    expectOpenApiResponse(counted, 'GET', `/guilds/${guildId}`);
    expect(counted.json()).toMatchObject({
      approximate_member_count: 3,
      approximate_presence_count: 0,
    });

    for (const [id, token, name] of [
      ['1234', ada.userToken, 'UNKNOWN_GUILD'],
      ['nope', ada.userToken, 'UNKNOWN_GUILD'],
      [guildId, bob.userToken, 'MISSING_ACCESS'],
    ] as const) {
      const res = await call(`GET /guilds/${id}`, token);
      expect(res.json()).toMatchObject({ code: codeOf(name) });
      expectOpenApiResponse(res, 'GET', `/guilds/${id}`);
    }
  });

  it('PATCH /guilds/{id} changes settings and images, with a GUILD_UPDATE entry', async () => {
    const { guildId, text, voice } = await fixture(0n);
    const res = await call(`PATCH /guilds/${guildId}`, ada.userToken, {
      reason: 'spring cleaning',
      payload: {
        name: 'Renamed',
        description: 'a place',
        banner: PNG_1X1,
        afk_channel_id: voice.id,
        afk_timeout: 60,
        system_channel_id: text.id,
        verification_level: 2,
        features: ['ENHANCED_ROLE_COLORS'],
      },
    });
    expect(res.statusCode).toBe(200);
    expectSpecResponse(res, 'PATCH', `/guilds/${guildId}`);
    const body = res.json<{ banner: string; features: string[] }>();
    expect(body).toMatchObject({
      name: 'Renamed',
      description: 'a place',
      afk_channel_id: voice.id,
      afk_timeout: 60,
      system_channel_id: text.id,
      verification_level: 2,
      features: ['ENHANCED_ROLE_COLORS'],
    });
    const banner = await server.app.http.inject({
      url: `/banners/${guildId}/${body.banner}.png`,
    });
    expect(banner.statusCode).toBe(200);

    const [entry] = await server.app.storage.auditLog.list(guildId, {
      actionType: AuditLogActions.GUILD_UPDATE,
      limit: 5,
    });
    expect(entry).toMatchObject({
      userId: ada.userId,
      targetId: guildId,
      reason: 'spring cleaning',
    });
    expect(entry?.changes).toEqual(
      expect.arrayContaining([
        { key: 'name', old_value: 'Guild', new_value: 'Renamed' },
        { key: 'features', old_value: [], new_value: ['ENHANCED_ROLE_COLORS'] },
        { key: 'afk_timeout', old_value: 300, new_value: 60 },
      ]),
    );

    // Clearing the feature again is the owner's too; a no-op writes no entry.
    const again = await call(`PATCH /guilds/${guildId}`, ada.userToken, {
      payload: { name: 'Renamed' },
    });
    expectSpecResponse(again, 'PATCH', `/guilds/${guildId}`);
    expect(
      await server.app.storage.auditLog.list(guildId, {
        actionType: AuditLogActions.GUILD_UPDATE,
        limit: 5,
      }),
    ).toHaveLength(1);
  });

  it('PATCH /guilds/{id} refuses bad input and leaves the guild as it was', async () => {
    const { guildId, text, voice } = await fixture(P.MANAGE_GUILD);
    const other = await server.app.services.guilds.create({
      ownerId: bob.userId,
      name: 'Other',
      channels: [{ name: 'elsewhere', type: 'text' }],
    });
    const before = await server.app.storage.guilds.findById(guildId);
    const cases: [string, object, number, number][] = [
      // Only the owner toggles ENHANCED_ROLE_COLORS and PRUNE_REQUIRES_ADMIN.
      [`Bot ${bob.botToken}`, { features: ['PRUNE_REQUIRES_ADMIN'] }, 403, 50013],
      // Other features cannot be toggled at all.
      [ada.userToken, { features: ['VERIFIED'] }, 400, 50035],
      [ada.userToken, { afk_channel_id: text.id }, 400, 50035],
      [ada.userToken, { system_channel_id: voice.id }, 400, 50035],
      [ada.userToken, { rules_channel_id: other.channels[0]?.id }, 400, 50035],
      [ada.userToken, { verification_level: 9 }, 400, 50035],
      [ada.userToken, { afk_timeout: 61 }, 400, 50035],
      [ada.userToken, { name: 42 }, 400, 50035],
      [ada.userToken, { icon: 'not an image' }, 400, 50035],
    ];
    for (const [token, payload, status, code] of cases) {
      const res = await call(`PATCH /guilds/${guildId}`, token, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectOpenApiResponse(res, 'PATCH', `/guilds/${guildId}`);
    }
    // A member without MANAGE_GUILD.
    const carol = await seedDeveloper(server.app, uniqueName('carol'), 'carol app');
    await server.app.services.guilds.addBot({
      guildId,
      applicationId: carol.applicationId,
      permissions: P.VIEW_CHANNEL,
    });
    const denied = await call(`PATCH /guilds/${guildId}`, `Bot ${carol.botToken}`, {
      payload: { name: 'Mine now' },
    });
    expect(denied.statusCode).toBe(403);
    expectOpenApiResponse(denied, 'PATCH', `/guilds/${guildId}`);
    expect(await server.app.storage.guilds.findById(guildId)).toEqual(before);
    expect(
      await server.app.storage.auditLog.list(guildId, {
        actionType: AuditLogActions.GUILD_UPDATE,
        limit: 5,
      }),
    ).toEqual([]);
    // A manager may change the name: the feature rule is about features only.
    const renamed = await call(`PATCH /guilds/${guildId}`, `Bot ${bob.botToken}`, {
      payload: { name: 'By a manager' },
    });
    expect(renamed.statusCode).toBe(200);
  });

  it('DELETE /guilds/{id} is for the owner only', async () => {
    const { guildId } = await fixture(0n);
    const admin = await call(`DELETE /guilds/${guildId}`, `Bot ${ada.botToken}`);
    expect(admin.statusCode).toBe(403);
    expect(admin.json()).toMatchObject({ code: 50013 });
    expectUndocumentedGuildRoute(admin, guildId);
    expect(await server.app.storage.guilds.findById(guildId)).not.toBeNull();

    const unknown = await call('DELETE /guilds/1234', ada.userToken);
    expect(unknown.json()).toMatchObject({ code: 10004 });
    expectUndocumentedGuildRoute(unknown, '1234');

    const owner = await call(`DELETE /guilds/${guildId}`, ada.userToken);
    expect(owner.statusCode).toBe(204);
    expectUndocumentedGuildRoute(owner, guildId);
    expect(await server.app.storage.guilds.findById(guildId)).toBeNull();
    expect(await server.app.storage.channels.listByGuild(guildId)).toEqual([]);
    const gone = await call(`GET /guilds/${guildId}`, ada.userToken);
    expect(gone.json()).toMatchObject({ code: 10004 });
  });

  it('GET /users/@me/guilds pages with before, after and limit', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { guild } = await server.app.services.guilds.create({
        ownerId: ada.userId,
        name: `G${i}`,
        channels: [],
      });
      ids.push(guild.id);
    }
    const all = await call('GET /users/@me/guilds?with_counts=true', ada.userToken);
    expect(all.statusCode).toBe(200);
    expectOpenApiResponse(all, 'GET', '/users/@me/guilds');
    expect(all.json()).toEqual(
      ids.map((id, i) => ({
        id,
        name: `G${i}`,
        icon: null,
        banner: null,
        owner: true,
        permissions: expect.stringMatching(/^\d+$/) as unknown,
        features: [],
        approximate_member_count: 1,
        approximate_presence_count: 0,
      })),
    );
    const pick = async (query: string) => {
      const res = await call(`GET /users/@me/guilds?${query}`, ada.userToken);
      expectOpenApiResponse(res, 'GET', '/users/@me/guilds');
      return res.json<{ id: string }[]>().map((g) => g.id);
    };
    expect(await pick(`after=${ids[0]}`)).toEqual(ids.slice(1));
    expect(await pick(`before=${ids[2]}&limit=1`)).toEqual([ids[1]]);
    expect(await pick('limit=2')).toEqual(ids.slice(0, 2));
    for (const query of ['limit=0', 'limit=201', 'after=abc']) {
      const res = await call(`GET /users/@me/guilds?${query}`, ada.userToken);
      expect(res.statusCode, query).toBe(400);
      expectOpenApiResponse(res, 'GET', '/users/@me/guilds');
    }

    // A bot sees its own permissions in each guild.
    const { guildId } = await fixture(P.VIEW_CHANNEL | P.KICK_MEMBERS);
    const bot = await call('GET /users/@me/guilds', `Bot ${bob.botToken}`);
    expectOpenApiResponse(bot, 'GET', '/users/@me/guilds');
    const everyone = (await server.app.storage.roles.listByGuild(guildId))[0]?.permissions ?? 0n;
    expect(bot.json()).toEqual([
      expect.objectContaining({
        id: guildId,
        owner: false,
        permissions: String(everyone | P.VIEW_CHANNEL | P.KICK_MEMBERS),
      }),
    ]);
  });

  it('large bot sharding: shard is required, checked, and filters by (id >> 22) % 16', async () => {
    const guildIds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { guild } = await server.app.services.guilds.create({
        ownerId: ada.userId,
        name: `S${i}`,
        channels: [],
      });
      await server.app.services.guilds.addBot({
        guildId: guild.id,
        applicationId: ada.applicationId,
        permissions: 0n,
      });
      guildIds.push(guild.id);
    }
    const botAuth = `Bot ${ada.botToken}`;
    // Before the mark: shard is ignored, whatever it holds.
    const unmarked = await call('GET /users/@me/guilds?shard=abc', botAuth);
    expect(unmarked.json<unknown[]>()).toHaveLength(6);
    const gatewayBefore = await call('GET /gateway/bot', botAuth);
    expect(gatewayBefore.json()).toMatchObject({ session_start_limit: { max_concurrency: 1 } });

    const marked = await call(`PATCH /applications/${ada.applicationId}`, ada.userToken, {
      payload: { large_bot_sharding: true },
    });
    expect(marked.statusCode).toBe(200);
    expectOpenApiResponse(marked, 'PATCH', `/applications/${ada.applicationId}`);
    expect(marked.json()).not.toHaveProperty('large_bot_sharding');
    const gateway = await call('GET /gateway/bot', botAuth);
    expectOpenApiResponse(gateway, 'GET', '/gateway/bot');
    expect(gateway.json()).toMatchObject({ session_start_limit: { max_concurrency: 16 } });

    const missing = await call('GET /users/@me/guilds', botAuth);
    expect(missing.statusCode).toBe(400);
    expectOpenApiResponse(missing, 'GET', '/users/@me/guilds');
    expect(missing.json()).toMatchObject({
      code: 50035,
      errors: { shard: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] } },
    });
    for (const shard of ['16', '-1', 'x']) {
      const res = await call(`GET /users/@me/guilds?shard=${shard}`, botAuth);
      expect(res.statusCode, shard).toBe(400);
      expectOpenApiResponse(res, 'GET', '/users/@me/guilds');
    }
    const seen: string[] = [];
    for (let shard = 0; shard < 16; shard++) {
      const res = await call(`GET /users/@me/guilds?shard=${shard}`, botAuth);
      expectOpenApiResponse(res, 'GET', '/users/@me/guilds');
      const ids = res.json<{ id: string }[]>().map((g) => g.id);
      for (const id of ids) expect(Number((BigInt(id) >> 22n) % 16n)).toBe(shard);
      seen.push(...ids);
    }
    expect(seen.sort()).toEqual([...guildIds].sort());
    // The owner's own session is not an app using large bot sharding.
    const person = await call('GET /users/@me/guilds', ada.userToken);
    expect(person.json<unknown[]>()).toHaveLength(6);
    // A bot token cannot set the mark on its own application.
    const viaBot = await call('PATCH /applications/@me', `Bot ${bob.botToken}`, {
      payload: { large_bot_sharding: true },
    });
    expect(viaBot.statusCode).toBe(200);
    expect(
      (await server.app.storage.applications.findById(bob.applicationId))?.largeBotSharding,
    ).toBe(false);
  });

  it('DELETE /users/@me/guilds/{id} leaves; the owner cannot', async () => {
    const { guildId } = await fixture(0n);
    const left = await call(`DELETE /users/@me/guilds/${guildId}`, `Bot ${bob.botToken}`);
    expect(left.statusCode).toBe(204);
    expectOpenApiResponse(left, 'DELETE', `/users/@me/guilds/${guildId}`);
    expect(await server.app.storage.members.find(guildId, bob.botUserId)).toBeNull();

    const again = await call(`DELETE /users/@me/guilds/${guildId}`, `Bot ${bob.botToken}`);
    expect(again.json()).toMatchObject({ code: 10004 });
    expectOpenApiResponse(again, 'DELETE', `/users/@me/guilds/${guildId}`);

    const owner = await call(`DELETE /users/@me/guilds/${guildId}`, ada.userToken);
    expect(owner.statusCode).toBe(400);
    expect(owner.json()).toMatchObject({ code: codeOf('INVALID_GUILD') });
    expectOpenApiResponse(owner, 'DELETE', `/users/@me/guilds/${guildId}`);
    expect(await server.app.storage.members.find(guildId, ada.userId)).not.toBeNull();

    const unknown = await call('DELETE /users/@me/guilds/1234', ada.userToken);
    expect(unknown.json()).toMatchObject({ code: 10004 });
    expectOpenApiResponse(unknown, 'DELETE', '/users/@me/guilds/1234');
  });
});
