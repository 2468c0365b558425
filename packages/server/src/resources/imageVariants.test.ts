import { beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { uniqueName, useFileServer } from '../../test/support/fileServer.js';
import { describeDrivers } from '../../test/support/drivers.js';
import { seedDeveloper, type TestServer } from '../../test/support/testServer.js';
import { apiRequest } from '../../test/support/inject.js';

const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** A still 256×256 PNG. */
const stillPng = () =>
  sharp({ create: { width: 256, height: 256, channels: 4, background: '#3366cc' } })
    .png()
    .toBuffer();

/** A two-frame 128×128 GIF. */
function animatedGif(): Promise<Buffer> {
  const side = 128;
  const raw = Buffer.alloc(side * side * 2 * 4);
  for (let i = 0; i < side * side * 2; i++) {
    const red = i < side * side;
    raw.set([red ? 255 : 0, red ? 0 : 255, 0, 255], i * 4);
  }
  return sharp(raw, { raw: { width: side, height: side * 2, channels: 4, pageHeight: side } })
    .gif({ delay: [100, 100] })
    .toBuffer();
}

/** A 300×200 JPEG whose EXIF says "rotate 90°" and names its author. */
const jpegWithExif = () =>
  sharp({ create: { width: 300, height: 200, channels: 3, background: '#cc6633' } })
    .jpeg()
    .withMetadata({ orientation: 6, exif: { IFD0: { Artist: 'Secret Author', Copyright: 'GPS' } } })
    .toBuffer();

/** The format a file's first bytes say it is. */
function magic(bytes: Buffer): string {
  if (bytes.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  const riff = bytes.subarray(0, 4).toString('latin1') === 'RIFF';
  if (riff && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return 'unknown';
}

describeDrivers('CDN images on $driver', (driver) => {
  let server: TestServer;
  let seed: Awaited<ReturnType<typeof seedDeveloper>>;

  // The API's limits are tight (2 requests per route per minute, 5 per second in all), for the
  // test of the CDN's own; every other test calls the API at most once per route with its own bot.
  const shared = useFileServer({
    storage: driver,
    defaultRouteBucket: { limit: 2, windowMs: 60_000 },
    config: { globalRateLimitPerSecond: 5 },
  });
  beforeEach(async () => {
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
  });

  const get = (url: string) => server.app.http.inject({ method: 'GET', url });
  const setAvatar = async (avatar: string) => {
    const res = await apiRequest(server.app, 'PATCH /users/@me', {
      auth: `Bot ${seed.botToken}`,
      payload: { avatar },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ avatar: string }>().avatar;
  };

  it('serves a still avatar in png, jpg, jpeg and webp at each ?size, and refuses gif', async () => {
    const hash = await setAvatar(dataUri('image/png', await stillPng()));
    const cases = [
      { extension: 'png', format: 'png', type: 'image/png' },
      { extension: 'jpg', format: 'jpeg', type: 'image/jpeg' },
      { extension: 'jpeg', format: 'jpeg', type: 'image/jpeg' },
      { extension: 'webp', format: 'webp', type: 'image/webp' },
    ];
    for (const { extension, format, type } of cases) {
      for (const size of [16, 64, 128]) {
        const res = await get(`/avatars/${seed.botUserId}/${hash}.${extension}?size=${size}`);
        expect(res.statusCode).toBe(200);
        expect(res.headers).toMatchObject({
          'content-type': type,
          'cache-control': 'public, max-age=86400',
          'x-content-type-options': 'nosniff',
        });
        expect(magic(res.rawPayload)).toBe(format);
        const meta = await sharp(res.rawPayload).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual([format, size, size]);
      }
    }
    // No size: the stored size. A size above it does not enlarge the image.
    for (const query of ['', '?size=4096']) {
      const res = await get(`/avatars/${seed.botUserId}/${hash}.webp${query}`);
      expect((await sharp(res.rawPayload).metadata()).width).toBe(256);
    }
    // The same variant twice is the same file (the second comes from the cache).
    const first = await get(`/avatars/${seed.botUserId}/${hash}.jpg?size=32`);
    const second = await get(`/avatars/${seed.botUserId}/${hash}.jpg?size=32`);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    // A still image has no GIF.
    const gif = await get(`/avatars/${seed.botUserId}/${hash}.gif`);
    expect(gif.statusCode).toBe(415);
    expect(gif.json()).toEqual({ message: '415: Unsupported Media Type', code: 0 });
    // An unknown hash stays a 404 in every extension.
    expect((await get(`/avatars/${seed.botUserId}/${'0'.repeat(32)}.webp`)).statusCode).toBe(404);
  });

  it('refuses a ?size that is not a power of two from 16 to 4096', async () => {
    const hash = await setAvatar(dataUri('image/png', await stillPng()));
    for (const size of ['0', '8', '15', '17', '100', '8192', '-16', '64.0', 'abc', '', '1e2']) {
      const res = await get(`/avatars/${seed.botUserId}/${hash}.png?size=${size}`);
      expect(res.statusCode, size).toBe(400);
      expect(res.json()).toMatchObject({
        code: 50035,
        errors: { size: { _errors: [{ code: 'BASE_TYPE_CHOICES' }] } },
      });
    }
    const twice = await get(`/avatars/${seed.botUserId}/${hash}.png?size=16&size=32`);
    expect(twice.statusCode).toBe(400);
  });

  it('serves an animated (a_) guild icon as an animated gif, a still or animated webp, and png', async () => {
    const created = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/guilds',
      headers: { authorization: seed.userToken },
      payload: { name: 'Icons', icon: dataUri('image/gif', await animatedGif()) },
    });
    expect(created.statusCode).toBe(201);
    const { id, icon } = created.json<{ id: string; icon: string }>();
    expect(icon).toMatch(/^a_[0-9a-f]{32}$/);
    const pagesOf = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const meta = await sharp(res.rawPayload, { animated: true }).metadata();
      return { format: magic(res.rawPayload), pages: meta.pages ?? 1, width: meta.width };
    };
    expect(await pagesOf(`/icons/${id}/${icon}.gif`)).toEqual({
      format: 'gif',
      pages: 2,
      width: 128,
    });
    expect(await pagesOf(`/icons/${id}/${icon}.gif?size=32`)).toEqual({
      format: 'gif',
      pages: 2,
      width: 32,
    });
    expect(await pagesOf(`/icons/${id}/${icon}.webp?size=64`)).toEqual({
      format: 'webp',
      pages: 1,
      width: 64,
    });
    expect(await pagesOf(`/icons/${id}/${icon}.webp?size=64&animated=true`)).toEqual({
      format: 'webp',
      pages: 2,
      width: 64,
    });
    expect(await pagesOf(`/icons/${id}/${icon}.png`)).toEqual({
      format: 'png',
      pages: 1,
      width: 128,
    });
  });

  it('strips EXIF from an uploaded JPEG, with its orientation applied to the pixels', async () => {
    const original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes('Secret Author')).toBe(true);
    const hash = await setAvatar(dataUri('image/jpeg', original));
    // `.jpg` with no size is the stored original itself; the others are conversions of it.
    for (const extension of ['jpg', 'png', 'webp']) {
      const res = await get(`/avatars/${seed.botUserId}/${hash}.${extension}`);
      expect(res.statusCode).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      // Rotated a quarter turn as the EXIF asked: 300×200 becomes 200×300.
      expect([meta.width, meta.height]).toEqual([200, 300]);
      expect(res.rawPayload.includes('Secret Author')).toBe(false);
    }
  });

  it('refuses an image that only looks like one (a truncated PNG)', async () => {
    const truncated = (await stillPng()).subarray(0, 60);
    const res = await server.app.http.inject({
      method: 'PATCH',
      url: '/api/v10/users/@me',
      headers: { authorization: `Bot ${seed.botToken}` },
      payload: { avatar: dataUri('image/png', truncated) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 50035,
      errors: { avatar: { _errors: [{ code: 'IMAGE_INVALID' }] } },
    });
  });

  describe('CDN rate limits', () => {
    it('a page of images is not limited like the API: its own larger bucket, no global limit', async () => {
      // An address of its own: the API's limits of the tests before are not this test's.
      const remoteAddress = '192.0.2.41';
      const get = (url: string) => server.app.http.inject({ method: 'GET', url, remoteAddress });
      const hash = await setAvatar(dataUri('image/png', await stillPng()));
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const res = await get(
          `/avatars/${seed.botUserId}/${hash}.png?size=${String(16 << (i % 3))}`,
        );
        statuses.push(res.statusCode);
      }
      expect(new Set(statuses)).toEqual(new Set([200]));
      // The API routes of the same address are limited as configured.
      const api = [];
      for (let i = 0; i < 3; i++) api.push((await get('/api/v10/gateway')).statusCode);
      expect(api).toEqual([200, 200, 429]);
    });
  });
});
