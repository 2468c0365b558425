import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { MiB, streamUpload } from '../../../test/support/streamUpload.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
} from '../../../test/support/testServer.js';

type Dev = Awaited<ReturnType<typeof seedDeveloper>>;

describeDrivers('activity attachment uploads on $driver', (driver) => {
  let server: TestServer;
  let dev: Dev;
  let stranger: Dev;
  const uploadUrl = () => `${server.baseUrl}/api/v10/applications/${dev.applicationId}/attachment`;

  beforeAll(async () => {
    // Roomy enough that a file read before the caller was checked would be read in full.
    server = await startTestServer({
      storage: driver,
      listen: true,
      config: { maxAttachmentBytes: 256 * MiB },
    });
    dev = await seedDeveloper(server.app, 'maker');
    stranger = await seedDeveloper(server.app, 'stranger');
  });
  afterAll(async () => {
    await server.close();
  });

  /** The files in the blob store, staging included (a file's `.type` sidecar left out). */
  const storedFiles = () => {
    const root = join(server.app.config.dataDir, 'blobs');
    if (!existsSync(root)) return [];
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.type'))
      .map((entry) => join(entry.parentPath, entry.name));
  };

  it("refuses a stranger's upload with 10002 before reading its body", async () => {
    const refused = await streamUpload(uploadUrl(), `Bot ${stranger.botToken}`, {
      bytes: 48 * MiB,
      field: 'file',
    });
    expect(refused.status, refused.body).toBe(404);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 10002 });
    // A bound, not a timing: the answer came while most of the file was still unsent (what was
    // sent sits in socket buffers, never read).
    expect(refused.sentBytes).toBeLessThan(24 * MiB);
    expect(storedFiles()).toEqual([]);
  });

  it("streams the owner's upload to the blob store and serves it", async () => {
    const sent = await streamUpload(uploadUrl(), `Bot ${dev.botToken}`, {
      bytes: 8 * MiB,
      field: 'file',
    });
    expect(sent.status, sent.body).toBe(200);
    const { attachment } = JSON.parse(sent.body) as {
      attachment: { id: string; size: number; url: string; filename: string };
    };
    expect(attachment).toMatchObject({ size: 8 * MiB, filename: 'big.bin' });
    expect(attachment).not.toHaveProperty('width');
    expect(storedFiles()).toHaveLength(1);
    const url = new URL(attachment.url);
    const served = await server.app.http.inject({ url: `${url.pathname}${url.search}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.length).toBe(8 * MiB);
  });

  it('takes the upload of a person in a live instance of the app, and no longer once they left', async () => {
    const call = (token: string, request: string, payload: object = {}) => {
      const [method, url] = request.split(' ') as ['POST' | 'PATCH' | 'DELETE', string];
      return server.app.http.inject({
        method,
        url: `/api/v10${url}`,
        headers: { authorization: token },
        payload,
      });
    };
    const config = `PATCH /applications/${dev.applicationId}/embedded-activity-config`;
    const made = await call(dev.userToken, config, {
      url_mappings: [{ prefix: '/', target: '127.0.0.1:5173' }],
    });
    expect(made.statusCode, made.body).toBe(200);
    // The stranger (no part of the app) launches it in a DM with its developer.
    const dm = await call(stranger.userToken, 'POST /users/@me/channels', {
      recipient_id: dev.userId,
    });
    const dmId = dm.json<{ id: string }>().id;
    const upload = () =>
      streamUpload(uploadUrl(), stranger.userToken, { bytes: 1024, field: 'file' });
    expect((await upload()).status).toBe(404);
    const launched = await call(stranger.userToken, `POST /channels/${dmId}/activity-instances`, {
      application_id: dev.applicationId,
    });
    expect(launched.statusCode, launched.body).toBe(200);
    const sent = await upload();
    expect(sent.status, sent.body).toBe(200);
    expect(JSON.parse(sent.body)).toMatchObject({ attachment: { size: 1024 } });
    const instanceId = launched.json<{ instance_id: string }>().instance_id;
    const left = await call(
      stranger.userToken,
      `DELETE /channels/${dmId}/activity-instances/${encodeURIComponent(instanceId)}/participants/@me`,
    );
    expect(left.statusCode, left.body).toBe(204);
    expect((await upload()).status).toBe(404);
  });
});
