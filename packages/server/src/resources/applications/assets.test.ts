import { beforeEach, expect, it, vi } from 'vitest';
import { fabricatedId, uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { GIF_1X1, PNG_1X1 } from '../../../test/support/expressionFixtures.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import { MAX_APPLICATION_ASSETS } from './assets.js';

describeDrivers('rich presence assets on $driver', (driver) => {
  let server: TestServer;
  let seed: Awaited<ReturnType<typeof seedDeveloper>>;

  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('ren'), 'ren app');
  });

  const request = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    options: { auth?: string; payload?: object } = {},
  ) =>
    server.app.http.inject({
      method,
      url,
      headers: options.auth === undefined ? {} : { authorization: options.auth },
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    });
  const upload = (payload: object, auth = seed.userToken, appId = seed.applicationId) =>
    request('POST', `/api/v10/applications/${appId}/assets`, { auth, payload });
  const list = async () => {
    const res = await request('GET', `/api/v10/oauth2/applications/${seed.applicationId}/assets`);
    expect(res.statusCode).toBe(200);
    return res.json<{ id: string; type: number; name: string }[]>();
  };

  it('uploads, lists publicly, serves and deletes an asset', async () => {
    const res = await upload({ name: 'map_harbour', type: 2, image: PNG_1X1 });
    expect(res.statusCode).toBe(201);
    const asset = res.json<{ id: string; type: number; name: string }>();
    expect(asset.id).toMatch(/^\d+$/);
    expect(asset).toEqual({ id: asset.id, type: 2, name: 'map_harbour' });
    expect(await list()).toEqual([asset]);

    const cdn = `/app-assets/${seed.applicationId}/${asset.id}`;
    const png = await request('GET', `${cdn}.png`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect((await request('GET', `${cdn}.webp?size=64`)).headers['content-type']).toBe(
      'image/webp',
    );
    expect((await request('GET', `/app-assets/${seed.applicationId}/1.png`)).statusCode).toBe(404);

    const key = `app-assets/${seed.applicationId}/${asset.id}`;
    expect(await server.app.blobs.get(key)).not.toBeNull();
    const gone = await request(
      'DELETE',
      `/api/v10/applications/${seed.applicationId}/assets/${asset.id}`,
      { auth: seed.userToken },
    );
    expect(gone.statusCode).toBe(204);
    expect(await list()).toEqual([]);
    expect((await request('GET', `${cdn}.png`)).statusCode).toBe(404);
    // The file goes once the delete has committed.
    await vi.waitFor(async () => {
      expect(await server.app.blobs.get(key)).toBeNull();
    });
    const again = await request(
      'DELETE',
      `/api/v10/applications/${seed.applicationId}/assets/${asset.id}`,
      { auth: seed.userToken },
    );
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 10021 });
  });

  it('checks names, types, images and owners', async () => {
    expect((await upload({ name: 'logo', type: 1, image: GIF_1X1 })).statusCode).toBe(201);
    const cases: [object, string][] = [
      [{ name: 'logo', type: 2, image: PNG_1X1 }, 'name'],
      [{ name: 'Logo', type: 1, image: PNG_1X1 }, 'name'],
      [{ name: 'a'.repeat(33), type: 1, image: PNG_1X1 }, 'name'],
      [{ name: '', type: 1, image: PNG_1X1 }, 'name'],
      [{ name: 'ok', type: 3, image: PNG_1X1 }, 'type'],
      [{ name: 'ok', type: 1, image: 'data:text/plain;base64,aGk=' }, 'image'],
    ];
    for (const [payload, field] of cases) {
      const res = await upload(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const body = res.json<{ code: number; errors: object }>();
      expect(body.code).toBe(50035);
      expect(Object.keys(body.errors)).toEqual([field]);
    }
    const taken = await upload({ name: 'logo', type: 2, image: PNG_1X1 });
    expect(taken.json()).toMatchObject({
      errors: { name: { _errors: [{ code: 'APPLICATION_ASSET_NAME_TAKEN' }] } },
    });

    const other = await seedDeveloper(server.app, uniqueName('mallory'), 'mallory app');
    const foreign = await upload({ name: 'x', type: 1, image: PNG_1X1 }, other.userToken);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 10002 });
    const [logo] = await list();
    const foreignDelete = await request(
      'DELETE',
      `/api/v10/applications/${seed.applicationId}/assets/${logo?.id ?? ''}`,
      { auth: other.userToken },
    );
    expect(foreignDelete.statusCode).toBe(404);
    expect(await list()).toHaveLength(1);
    // Only a session manages assets; the bot token is refused.
    const asBot = await upload({ name: 'bot', type: 1, image: PNG_1X1 }, `Bot ${seed.botToken}`);
    expect(asBot.statusCode).toBe(403);
    const unknownApp = await request('GET', '/api/v10/oauth2/applications/123/assets');
    expect(unknownApp.statusCode).toBe(404);
    expect(unknownApp.json()).toMatchObject({ code: 10002 });
  });

  it(`holds at most ${MAX_APPLICATION_ASSETS} assets`, async () => {
    const now = Date.now();
    for (let i = 1; i < MAX_APPLICATION_ASSETS; i += 1) {
      await server.app.storage.applicationAssets.create({
        id: fabricatedId(seed.applicationId),
        applicationId: seed.applicationId,
        type: 1,
        name: `seeded_${i}`,
        extension: 'png',
        createdAt: now,
      });
    }
    expect((await upload({ name: 'last', type: 1, image: PNG_1X1 })).statusCode).toBe(201);
    const over = await upload({ name: 'one_more', type: 1, image: PNG_1X1 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      code: 50035,
      errors: { _errors: [{ code: 'APPLICATION_ASSETS_LIMIT' }] },
    });
    expect(await list()).toHaveLength(MAX_APPLICATION_ASSETS);
  });
});
