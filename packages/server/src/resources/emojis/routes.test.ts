import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  DAY_MS,
  GIF_1X1,
  PNG_1X1,
  ROOMY_LIMITS,
  SPLIT_MS,
  botWith,
  outsider,
  seedGuild,
} from '../../../test/support/expressionFixtures.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { apiRequest } from '../../../test/support/inject.js';

interface Emoji {
  id: string;
  name: string;
  roles: string[];
  animated: boolean;
  user?: { id: string };
}

describeDrivers('guild emoji on $driver', (driver) => {
  let server: TestServer;
  let fx: Awaited<ReturnType<typeof seedGuild>>;
  const clock = manualClock(SPLIT_MS + DAY_MS);

  const shared = useFileServer({ storage: driver, clock, ...ROOMY_LIMITS });
  beforeEach(async () => {
    clock.set(SPLIT_MS + DAY_MS);
    server = shared.server;
    fx = await seedGuild(server.app);
  });

  /** Sends a request and validates the answer against openapi.json, whatever its status. */
  const send = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { auth: string; body?: unknown; reason?: string },
  ) => {
    const res = await apiRequest(server.app, `${method} ${path}`, {
      auth: options.auth,
      payload: options.body,
      headers: options.reason === undefined ? {} : { 'x-audit-log-reason': options.reason },
    });
    expectOpenApiResponse(res, method, path);
    return res;
  };
  const emojis = () => server.app.storage.emojis.listByGuild(fx.guildId);
  const audit = () => server.app.storage.auditLog.list(fx.guildId, { limit: 100 });
  const base = () => `/guilds/${fx.guildId}/emojis`;

  it('creates, lists, reads, modifies, serves and deletes an emoji', async () => {
    const role = (await server.app.storage.roles.listByGuild(fx.guildId))[0];
    const created = await send('POST', base(), {
      auth: fx.ownerAuth,
      body: { name: 'party_blob', image: PNG_1X1, roles: [] },
      reason: 'new emoji',
    });
    expect(created.statusCode).toBe(201);
    const emoji = created.json<Emoji>();
    expect(emoji).toMatchObject({
      name: 'party_blob',
      roles: [],
      animated: false,
      available: true,
      require_colons: true,
      managed: false,
      user: { id: fx.owner.userId },
    });

    const gif = await send('POST', base(), {
      auth: fx.ownerAuth,
      body: { name: 'dance', image: GIF_1X1 },
    });
    expect(gif.json<Emoji>().animated).toBe(true);

    const list = await send('GET', base(), { auth: fx.ownerAuth });
    expect(list.statusCode).toBe(200);
    expect(list.json<Emoji[]>().map((e) => e.name)).toEqual(['party_blob', 'dance']);
    const one = await send('GET', `${base()}/${emoji.id}`, { auth: fx.ownerAuth });
    expect(one.json()).toEqual(emoji);

    const modified = await send('PATCH', `${base()}/${emoji.id}`, {
      auth: fx.ownerAuth,
      body: { name: 'blob_party', roles: [role?.id] },
      reason: 'rename',
    });
    expect(modified.statusCode).toBe(200);
    expect(modified.json()).toMatchObject({ name: 'blob_party', roles: [role?.id] });

    const image = await server.app.http.inject({ method: 'GET', url: `/emojis/${emoji.id}.png` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect((await server.app.http.inject({ url: `/emojis/${emoji.id}.gif` })).statusCode).toBe(415);
    const small = await server.app.http.inject({ url: `/emojis/${emoji.id}.webp?size=16` });
    expect([small.statusCode, small.headers['content-type']]).toEqual([200, 'image/webp']);
    const animated = gif.json<Emoji>();
    expect((await server.app.http.inject({ url: `/emojis/${animated.id}.gif` })).statusCode).toBe(
      200,
    );

    const deleted = await send('DELETE', `${base()}/${emoji.id}`, {
      auth: fx.ownerAuth,
      reason: 'cleanup',
    });
    expect(deleted.statusCode).toBe(204);
    const gone = await send('GET', `${base()}/${emoji.id}`, { auth: fx.ownerAuth });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 10014 });
    expect((await server.app.http.inject({ url: `/emojis/${emoji.id}.png` })).statusCode).toBe(404);

    const entries = (await audit()).filter((e) => e.targetId === emoji.id);
    expect(entries.map((e) => [e.actionType, e.reason])).toEqual([
      [62, 'cleanup'],
      [61, 'rename'],
      [60, 'new emoji'],
    ]);
    expect(entries[1]?.changes).toEqual([
      { key: 'name', old_value: 'party_blob', new_value: 'blob_party' },
      { key: 'roles', old_value: [], new_value: [role?.id] },
    ]);
  });

  it('creating needs MANAGE_GUILD_EXPRESSIONS before 2026-02-23', async () => {
    clock.set(SPLIT_MS - DAY_MS);
    const manager = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'manager',
      permissions: P.MANAGE_GUILD_EXPRESSIONS,
    });
    const creator = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'creator',
      permissions: P.CREATE_GUILD_EXPRESSIONS,
    });
    const refused = await send('POST', base(), {
      auth: creator.auth,
      body: { name: 'early', image: PNG_1X1 },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50013 });
    expect(await emojis()).toEqual([]);
    const allowed = await send('POST', base(), {
      auth: manager.auth,
      body: { name: 'early', image: PNG_1X1 },
    });
    expect(allowed.statusCode).toBe(201);
  });

  it('creating needs CREATE_GUILD_EXPRESSIONS from 2026-02-23', async () => {
    clock.set(SPLIT_MS);
    const manager = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'manager',
      permissions: P.MANAGE_GUILD_EXPRESSIONS,
    });
    const creator = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'creator',
      permissions: P.CREATE_GUILD_EXPRESSIONS,
    });
    const refused = await send('POST', base(), {
      auth: manager.auth,
      body: { name: 'late', image: PNG_1X1 },
    });
    expect(refused.statusCode).toBe(403);
    expect(await emojis()).toEqual([]);
    const allowed = await send('POST', base(), {
      auth: creator.auth,
      body: { name: 'late', image: PNG_1X1 },
    });
    expect(allowed.statusCode).toBe(201);
  });

  it("CREATE_ edits one's own emoji; others' need MANAGE_GUILD_EXPRESSIONS", async () => {
    const alice = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'alice',
      permissions: P.CREATE_GUILD_EXPRESSIONS,
    });
    const bob = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'bob',
      permissions: P.CREATE_GUILD_EXPRESSIONS,
    });
    const manager = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'manager',
      permissions: P.MANAGE_GUILD_EXPRESSIONS,
    });
    const emoji = (
      await send('POST', base(), { auth: alice.auth, body: { name: 'mine', image: PNG_1X1 } })
    ).json<Emoji>();
    const own = await send('PATCH', `${base()}/${emoji.id}`, {
      auth: alice.auth,
      body: { name: 'still_mine' },
    });
    expect(own.statusCode).toBe(200);

    const before = await emojis();
    const entries = (await audit()).length;
    for (const [method, body] of [
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await send(method, `${base()}/${emoji.id}`, { auth: bob.auth, body });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 50013 });
    }
    expect(await emojis()).toEqual(before);
    expect(await audit()).toHaveLength(entries);

    const managed = await send('PATCH', `${base()}/${emoji.id}`, {
      auth: manager.auth,
      body: { name: 'managed' },
    });
    expect(managed.statusCode).toBe(200);
    // The creator shows to holders of an expressions permission only.
    expect(managed.json<Emoji>().user?.id).toBe(alice.userId);
    const plain = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'plain',
      permissions: 0n,
    });
    const seen = await send('GET', `${base()}/${emoji.id}`, { auth: plain.auth });
    expect(seen.json()).not.toHaveProperty('user');
    const removed = await send('DELETE', `${base()}/${emoji.id}`, { auth: manager.auth });
    expect(removed.statusCode).toBe(204);
  });

  it('bad input gets its code and changes nothing', async () => {
    const emoji = (
      await send('POST', base(), { auth: fx.ownerAuth, body: { name: 'keep', image: PNG_1X1 } })
    ).json<Emoji>();
    const before = await emojis();
    const entries = (await audit()).length;
    const stranger = await outsider(server.app);
    const tooBig = `data:image/png;base64,${Buffer.concat([
      Buffer.from(PNG_1X1.split(',')[1] ?? '', 'base64'),
      Buffer.alloc(257 * 1024),
    ]).toString('base64')}`;
    const cases: [string, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown, number, number][] =
      [
        ['unknown emoji', 'GET', `${base()}/1234`, undefined, 404, 10014],
        ['unknown emoji patch', 'PATCH', `${base()}/1234`, { name: 'xx' }, 404, 10014],
        ['unknown emoji delete', 'DELETE', `${base()}/1234`, undefined, 404, 10014],
        ['malformed emoji id', 'GET', `${base()}/abc`, undefined, 404, 10014],
        ['unknown guild', 'GET', '/guilds/1234/emojis', undefined, 404, 10004],
        ['name too short', 'POST', base(), { name: 'x', image: PNG_1X1 }, 400, 50035],
        ['name with a space', 'POST', base(), { name: 'no way', image: PNG_1X1 }, 400, 50035],
        ['name of the wrong type', 'POST', base(), { name: 42, image: PNG_1X1 }, 400, 50035],
        ['no image', 'POST', base(), { name: 'noimg' }, 400, 50035],
        [
          'not an image',
          'POST',
          base(),
          { name: 'text', image: 'data:image/png;base64,aGVsbG8=' },
          400,
          50035,
        ],
        ['image over 256 KiB', 'POST', base(), { name: 'huge', image: tooBig }, 400, 50035],
        [
          'a role of no guild',
          'POST',
          base(),
          { name: 'roles', image: PNG_1X1, roles: ['1234'] },
          400,
          50035,
        ],
        ['rename too long', 'PATCH', `${base()}/${emoji.id}`, { name: 'x'.repeat(33) }, 400, 50035],
        ['roles not a list', 'PATCH', `${base()}/${emoji.id}`, { roles: 'all' }, 400, 50035],
      ];
    for (const [label, method, path, body, status, code] of cases) {
      const res = await send(method, path, { auth: fx.ownerAuth, body });
      expect([label, res.statusCode, res.json<{ code: number }>().code]).toEqual([
        label,
        status,
        code,
      ]);
    }
    const notMember = await send('GET', base(), { auth: stranger.auth });
    expect(notMember.statusCode).toBe(403);
    expect(notMember.json()).toMatchObject({ code: 50001 });
    expect(await emojis()).toEqual(before);
    expect(await audit()).toHaveLength(entries);
    expect(before.map((e) => e.id)).toEqual([emoji.id]);
  });

  it('a guild at tier 0 holds 50 static and 50 animated emoji', async () => {
    for (let i = 0; i < 50; i++) {
      for (const animated of [false, true]) {
        await server.app.storage.emojis.create({
          id: String(1_000_000 + i * 2 + Number(animated)),
          guildId: fx.guildId,
          name: `e${i}`,
          creatorId: null,
          animated,
          roleIds: [],
          available: true,
          createdAt: 0,
        });
      }
    }
    const staticFull = await send('POST', base(), {
      auth: fx.ownerAuth,
      body: { name: 'one_more', image: PNG_1X1 },
    });
    expect(staticFull.statusCode).toBe(400);
    expect(staticFull.json()).toMatchObject({ code: 30008 });
    const animatedFull = await send('POST', base(), {
      auth: fx.ownerAuth,
      body: { name: 'one_more', image: GIF_1X1 },
    });
    expect(animatedFull.json()).toMatchObject({ code: 30018 });
    expect(await emojis()).toHaveLength(100);
  });
});
