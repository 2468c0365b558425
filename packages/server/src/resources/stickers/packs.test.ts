import { inflateSync } from 'node:zlib';
import { beforeAll, expect, it } from 'vitest';
import { useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { PNG_1X1, outsider, seedGuild } from '../../../test/support/expressionFixtures.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { apiCaller } from '../../../test/support/voiceFixture.js';

interface Pack {
  id: string;
  name: string;
  cover_sticker_id: string;
  stickers: { id: string; pack_id: string; sort_value: number; type: number }[];
}

describeDrivers('sticker packs and standard stickers on $driver', (driver) => {
  let server: TestServer;
  let call: ReturnType<typeof apiCaller>;
  let bot: Awaited<ReturnType<typeof outsider>>;
  // The worker's plain server: its route bucket is ROOMY_LIMITS' already (the test server's
  // default), and these few requests are far from its invalid request limit.
  const shared = useFileServer({ storage: driver }, 'api');

  beforeAll(async () => {
    server = shared.server;
    call = apiCaller(server.app);
    bot = await outsider(server.app);
  });

  it('lists packs without a token, reads a pack, its stickers and their images', async () => {
    const packs = await call('GET', '/sticker-packs', { auth: '' });
    expect(packs.statusCode).toBe(200);
    const [pack] = packs.json<{ sticker_packs: Pack[] }>().sticker_packs;
    if (pack === undefined) throw new Error('no pack');
    expect(pack.stickers.length).toBeGreaterThan(0);
    expect(pack.cover_sticker_id).toBe(pack.stickers[0]?.id);
    const one = await call('GET', `/sticker-packs/${pack.id}`, { auth: bot.auth });
    expect(one.json()).toEqual(pack);
    const unknownPack = await call('GET', '/sticker-packs/42', { auth: bot.auth });
    expect(unknownPack.statusCode).toBe(404);
    expect(unknownPack.json()).toMatchObject({ code: 10061 });

    const [first] = pack.stickers;
    const sticker = await call('GET', `/stickers/${first?.id ?? ''}`, { auth: bot.auth });
    expect(sticker.json()).toEqual(first);
    expect(first).toMatchObject({ type: 1, pack_id: pack.id, sort_value: 1 });
    const image = await server.app.http.inject({ url: `/stickers/${first?.id ?? ''}.png` });
    expect(image.headers['content-type']).toBe('image/png');
    // A real PNG: signature, a 160×160 RGBA header, and image data that inflates to its rows.
    const png = image.rawPayload;
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([160, 160]);
    const idatLength = png.readUInt32BE(33);
    expect(inflateSync(png.subarray(41, 41 + idatLength)).length).toBe(160 * (1 + 160 * 4));
  });

  it('looks up a guild sticker by id for anyone; an unknown one is 10060', async () => {
    const fx = await seedGuild(server.app);
    const created = await call('POST', `/guilds/${fx.guildId}/stickers`, {
      auth: fx.ownerAuth,
      body: { name: 'wave', tags: 'hello', file: PNG_1X1 },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: string }>();
    const asStranger = await call('GET', `/stickers/${id}`, { auth: bot.auth });
    expect(asStranger.json()).toMatchObject({ id, type: 2, guild_id: fx.guildId });
    expect(asStranger.json()).not.toHaveProperty('user');
    const asOwner = await call('GET', `/stickers/${id}`, { auth: fx.ownerAuth });
    expect(asOwner.json()).toMatchObject({ user: { id: fx.owner.userId } });
    const unknown = await call('GET', '/stickers/77', { auth: bot.auth });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 10060 });
    const noToken = await call('GET', `/stickers/${id}`, { auth: '' });
    expect(noToken.statusCode).toBe(401);
  });
});
