/**
 * A server whose blobs live in an S3-compatible bucket (GUILDHALL_BLOB_URL and the S3 settings,
 * through the config as an operator sets them): uploads stream in as multipart uploads, the
 * signed attachment URLs and image paths serve them from the bucket, deletes and the orphan
 * sweep free them, and no folder of blobs is made. Against a server this file starts
 * (test/support/s3Server.ts), never skipped. SQLite only: the storage plays no part here.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionFlags as P } from '@guildhall/protocol';
import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import { PNG_1X1 } from '../../test/support/expressionFixtures.js';
import { guildFixture, type GuildFixture } from '../../test/support/guildMembers.js';
import { firstChannelId, sendMultipart } from '../../test/support/messageFixtures.js';
import { startS3Server, uniqueBlobPrefix, type TestS3Server } from '../../test/support/s3Server.js';
import { startTestServer, type TestServer } from '../../test/support/testServer.js';
import { DAY_MS } from '../domain/time.js';
import { sweepOrphanBlobs } from './lifecycle.js';
import { S3BlobStore } from './s3.js';

const ALL = P.VIEW_CHANNEL | P.SEND_MESSAGES | P.ATTACH_FILES | P.READ_MESSAGE_HISTORY;
/** Over one part of a multipart upload (5 MiB). */
const LARGE = 7 * 1024 * 1024 + 3;

describe('blobs in an S3-compatible bucket', () => {
  let s3: TestS3Server;
  let server: TestServer;
  let g: GuildFixture;
  let channelId: string;
  /** A second look at the bucket, as another node would have. */
  let bucket: S3BlobStore;

  beforeAll(async () => {
    s3 = await startS3Server();
    const prefix = uniqueBlobPrefix('app');
    server = await startTestServer({ config: s3.config(prefix) });
    bucket = new S3BlobStore(s3.settings(prefix));
    g = await guildFixture(server, { botPermissions: ALL });
    channelId = await firstChannelId(server.app, g.guildId);
  });
  afterAll(async () => {
    bucket.close();
    await server.close();
    await s3.close();
  });

  const fetchUrl = (url: string) => {
    const parsed = new URL(url);
    return server.app.http.inject({ method: 'GET', url: `${parsed.pathname}${parsed.search}` });
  };

  it('streams attachments into the bucket and serves them from it', async () => {
    const large = Buffer.alloc(LARGE, 0x5a);
    const res = await sendMultipart(server.app, {
      method: 'POST',
      path: `/channels/${channelId}/messages`,
      auth: g.owner.token,
      payload: { content: 'files' },
      files: [
        { field: 'files[0]', filename: 'a.txt', contentType: 'text/plain', data: 'alpha' },
        { field: 'files[1]', filename: 'big.bin', contentType: 'application/zip', data: large },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const message = res.json<{ id: string; attachments: { id: string; url: string }[] }>();
    const [small, big] = message.attachments;
    expect(await bucket.get(`attachments/${small?.id ?? ''}`)).toEqual({
      bytes: Buffer.from('alpha'),
      contentType: 'text/plain',
    });
    const served = await fetchUrl(small?.url ?? '');
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe('alpha');
    const bigServed = await fetchUrl(big?.url ?? '');
    expect(bigServed.statusCode).toBe(200);
    expect(bigServed.headers['content-length']).toBe(String(LARGE));
    expect(bigServed.rawPayload.equals(large)).toBe(true);
    // A forged signature is refused as on the folder store.
    expect(
      (await fetchUrl((small?.url ?? '').replace(/hm=[0-9a-f]{4}/, 'hm=0000'))).statusCode,
    ).toBe(404);
    expect(existsSync(join(server.app.config.dataDir, 'blobs'))).toBe(false);

    const deleted = await g.call(
      'DELETE',
      `/channels/${channelId}/messages/${message.id}`,
      g.owner.token,
    );
    expect(deleted.statusCode).toBe(204);
    expect(await bucket.get(`attachments/${small?.id ?? ''}`)).toBeNull();
    expect(await bucket.get(`attachments/${big?.id ?? ''}`)).toBeNull();
    expect((await fetchUrl(small?.url ?? '')).statusCode).toBe(404);
  });

  it('serves and replaces images, and sweeps orphans', async () => {
    const me = g.owner.userId;
    const set = await g.call('PATCH', '/users/@me', {
      auth: g.owner.token,
      payload: { avatar: PNG_1X1 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const { avatar } = set.json<{ avatar: string }>();
    const key = `avatars/${me}/${avatar}.png`;
    expect((await bucket.get(key))?.contentType).toBe('image/png');
    const image = await server.app.http.inject({ url: `/${key}` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const cleared = await g.call('PATCH', '/users/@me', {
      auth: g.owner.token,
      payload: { avatar: null },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await bucket.get(key)).toBeNull();

    const orphan = 'attachments/1234567890123456789';
    await bucket.put(orphan, { bytes: Buffer.from('x'), contentType: 'text/plain' });
    expect(await server.app.blobs.get(orphan)).not.toBeNull();
    const swept = await sweepOrphanBlobs({
      storage: server.app.storage,
      blobs: server.app.blobs,
      nowMs: Date.now() + DAY_MS,
      graceMs: 3_600_000,
    });
    expect(swept.removed).toBeGreaterThanOrEqual(1);
    expect(await bucket.get(orphan)).toBeNull();
  });
});
