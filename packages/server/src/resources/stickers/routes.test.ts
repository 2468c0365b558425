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
  seedGuild,
} from '../../../test/support/expressionFixtures.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { apiRequest } from '../../../test/support/inject.js';

interface Sticker {
  id: string;
  name: string;
  format_type: number;
  user?: { id: string };
}

const png = Buffer.from(PNG_1X1.split(',')[1] ?? '', 'base64');
const gif = Buffer.from(GIF_1X1.split(',')[1] ?? '', 'base64');
/** The PNG with an acTL chunk before its image data: an APNG. */
const apng = Buffer.concat([
  png.subarray(0, 33),
  Buffer.from('000000086163544c000000010000000000000000', 'hex'),
  png.subarray(33),
]);
const lottie = Buffer.from(
  JSON.stringify({ v: '5.5.2', fr: 30, ip: 0, op: 60, w: 320, h: 320, layers: [] }),
);

/** A multipart/form-data body as client libraries send it. */
function multipart(fields: Record<string, string>, file?: { data: Buffer; type: string }) {
  const boundary = 'guildhall-test-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file !== undefined) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="sticker"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

describeDrivers('guild stickers on $driver', (driver) => {
  let server: TestServer;
  let fx: Awaited<ReturnType<typeof seedGuild>>;
  const clock = manualClock(SPLIT_MS + DAY_MS);

  const shared = useFileServer({ storage: driver, clock, ...ROOMY_LIMITS });
  beforeEach(async () => {
    clock.set(SPLIT_MS + DAY_MS);
    server = shared.server;
    fx = await seedGuild(server.app);
  });

  const base = () => `/guilds/${fx.guildId}/stickers`;
  const stickers = () => server.app.storage.stickers.listByGuild(fx.guildId);
  const audit = () => server.app.storage.auditLog.list(fx.guildId, { limit: 100 });

  /** Sends JSON or a prepared multipart body; the answer is validated against openapi.json. */
  const send = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { auth: string; body?: unknown; form?: ReturnType<typeof multipart>; reason?: string },
  ) => {
    const res = await apiRequest(server.app, `${method} ${path}`, {
      auth: options.auth,
      headers: {
        ...(options.form === undefined ? {} : { 'content-type': options.form.type }),
        ...(options.reason === undefined ? {} : { 'x-audit-log-reason': options.reason }),
      },
      payload: options.form === undefined ? options.body : options.form.body,
    });
    expectOpenApiResponse(res, method, path);
    return res;
  };
  const upload = (auth: string, name: string, file = { data: png, type: 'image/png' }) =>
    send('POST', base(), { auth, form: multipart({ name, tags: 'smile', description: '' }, file) });

  it('creates (multipart and JSON), lists, reads, modifies, serves and deletes', async () => {
    const created = await send('POST', base(), {
      auth: fx.ownerAuth,
      form: multipart(
        { name: 'wave', tags: 'hello', description: 'A wave' },
        { data: png, type: 'image/png' },
      ),
      reason: 'new sticker',
    });
    expect(created.statusCode).toBe(201);
    const sticker = created.json<Sticker>();
    expect(sticker).toMatchObject({
      name: 'wave',
      tags: 'hello',
      description: 'A wave',
      type: 2,
      format_type: 1,
      available: true,
      guild_id: fx.guildId,
      user: { id: fx.owner.userId },
    });
    const formats = [];
    for (const [name, data, type] of [
      ['anim', apng, 'image/png'],
      ['lottie', lottie, 'application/json'],
      ['gif', gif, 'image/gif'],
    ] as const) {
      formats.push((await upload(fx.ownerAuth, name, { data, type })).json<Sticker>().format_type);
    }
    expect(formats).toEqual([2, 3, 4]);
    // The JSON form with a data URI, beside multipart.
    const json = await send('POST', base(), {
      auth: fx.ownerAuth,
      body: { name: 'json', tags: 'x', file: PNG_1X1 },
    });
    expect(json.statusCode).toBe(201);
    expect(json.json()).toMatchObject({ format_type: 1, description: null });

    const list = await send('GET', base(), { auth: fx.ownerAuth });
    expect(list.json<Sticker[]>().map((s) => s.name)).toEqual([
      'wave',
      'anim',
      'lottie',
      'gif',
      'json',
    ]);
    const one = await send('GET', `${base()}/${sticker.id}`, { auth: fx.ownerAuth });
    expect(one.json()).toEqual(sticker);

    const modified = await send('PATCH', `${base()}/${sticker.id}`, {
      auth: fx.ownerAuth,
      body: { name: 'waving', tags: 'hi', description: null },
      reason: 'tidy',
    });
    expect(modified.statusCode).toBe(200);
    expect(modified.json()).toMatchObject({ name: 'waving', tags: 'hi', description: null });

    const file = await server.app.http.inject({ url: `/stickers/${sticker.id}.png` });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(png)).toBe(true);
    expect((await server.app.http.inject({ url: `/stickers/${sticker.id}.gif` })).statusCode).toBe(
      404,
    );

    const deleted = await send('DELETE', `${base()}/${sticker.id}`, {
      auth: fx.ownerAuth,
      reason: 'bye',
    });
    expect(deleted.statusCode).toBe(204);
    const gone = await send('GET', `${base()}/${sticker.id}`, { auth: fx.ownerAuth });
    expect(gone.json()).toMatchObject({ code: 10060 });
    expect((await server.app.http.inject({ url: `/stickers/${sticker.id}.png` })).statusCode).toBe(
      404,
    );
    const entries = (await audit()).filter((e) => e.targetId === sticker.id);
    expect(entries.map((e) => [e.actionType, e.reason])).toEqual([
      [92, 'bye'],
      [91, 'tidy'],
      [90, 'new sticker'],
    ]);
  });

  it('creating needs MANAGE_GUILD_EXPRESSIONS before 2026-02-23, CREATE_ after', async () => {
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
    clock.set(SPLIT_MS - 1);
    expect((await upload(creator.auth, 'early')).statusCode).toBe(403);
    expect(await stickers()).toEqual([]);
    expect((await upload(manager.auth, 'early')).statusCode).toBe(201);
    clock.set(SPLIT_MS);
    const late = await upload(manager.auth, 'late');
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ code: 50013 });
    expect((await stickers()).map((s) => s.name)).toEqual(['early']);
    expect((await upload(creator.auth, 'late')).statusCode).toBe(201);
  });

  it("CREATE_ edits one's own sticker; others' need MANAGE_GUILD_EXPRESSIONS", async () => {
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
    const sticker = (await upload(alice.auth, 'mine')).json<Sticker>();
    expect(
      (
        await send('PATCH', `${base()}/${sticker.id}`, {
          auth: alice.auth,
          body: { tags: 'own' },
        })
      ).statusCode,
    ).toBe(200);
    const before = await stickers();
    const entries = (await audit()).length;
    expect(
      (
        await send('PATCH', `${base()}/${sticker.id}`, {
          auth: bob.auth,
          body: { name: 'theirs' },
        })
      ).statusCode,
    ).toBe(403);
    expect((await send('DELETE', `${base()}/${sticker.id}`, { auth: bob.auth })).statusCode).toBe(
      403,
    );
    expect(await stickers()).toEqual(before);
    expect(await audit()).toHaveLength(entries);
    expect(
      (await send('DELETE', `${base()}/${sticker.id}`, { auth: manager.auth })).statusCode,
    ).toBe(204);
  });

  it('bad input gets its code and changes nothing', async () => {
    const sticker = (await upload(fx.ownerAuth, 'keep')).json<Sticker>();
    const before = await stickers();
    const entries = (await audit()).length;
    const expectRefused = (res: Awaited<ReturnType<typeof send>>, status: number, code: number) => {
      expect([res.statusCode, res.json<{ code: number }>().code]).toEqual([status, code]);
    };
    expectRefused(await send('GET', `${base()}/1234`, { auth: fx.ownerAuth }), 404, 10060);
    expectRefused(
      await send('PATCH', `${base()}/nope`, { auth: fx.ownerAuth, body: { name: 'xx' } }),
      404,
      10060,
    );
    expectRefused(await send('DELETE', `${base()}/1234`, { auth: fx.ownerAuth }), 404, 10060);
    expectRefused(await send('GET', '/guilds/1234/stickers', { auth: fx.ownerAuth }), 404, 10004);
    expectRefused(await upload(fx.ownerAuth, 'x'), 400, 50035);
    expectRefused(
      await send('POST', base(), {
        auth: fx.ownerAuth,
        form: multipart({ name: 'nofile', tags: 't' }),
      }),
      400,
      50035,
    );
    expectRefused(
      await send('POST', base(), {
        auth: fx.ownerAuth,
        form: multipart(
          { name: 'desc', tags: 't', description: 'x' },
          { data: png, type: 'image/png' },
        ),
      }),
      400,
      50035,
    );
    expectRefused(
      await upload(fx.ownerAuth, 'text', { data: Buffer.from('hello'), type: 'text/plain' }),
      400,
      50046,
    );
    expectRefused(
      await upload(fx.ownerAuth, 'huge', {
        data: Buffer.concat([png, Buffer.alloc(600 * 1024)]),
        type: 'image/png',
      }),
      413,
      40005,
    );
    expectRefused(
      await upload(fx.ownerAuth, 'big', {
        data: Buffer.concat([png, Buffer.alloc(512 * 1024)]),
        type: 'image/png',
      }),
      400,
      50035,
    );
    expectRefused(
      await send('POST', base(), {
        auth: fx.ownerAuth,
        form: { body: Buffer.from('--x\r\nbroken'), type: 'multipart/form-data; boundary=x' },
      }),
      400,
      50035,
    );
    expectRefused(
      await send('POST', base(), {
        auth: fx.ownerAuth,
        body: { name: 'json', tags: 't', file: 'not a uri' },
      }),
      400,
      50035,
    );
    expectRefused(
      await send('PATCH', `${base()}/${sticker.id}`, { auth: fx.ownerAuth, body: { tags: 7 } }),
      400,
      50035,
    );
    expectRefused(
      await send('PATCH', `${base()}/${sticker.id}`, {
        auth: fx.ownerAuth,
        body: { name: 'x'.repeat(31) },
      }),
      400,
      50035,
    );
    expect(await stickers()).toEqual(before);
    expect(await audit()).toHaveLength(entries);
  });

  it('a guild at tier 0 holds 5 stickers', async () => {
    for (let i = 0; i < 5; i++) expect((await upload(fx.ownerAuth, `s${i}`)).statusCode).toBe(201);
    const full = await upload(fx.ownerAuth, 'sixth');
    expect(full.statusCode).toBe(400);
    expect(full.json()).toMatchObject({ code: 30039 });
    expect(await stickers()).toHaveLength(5);
  });
});
