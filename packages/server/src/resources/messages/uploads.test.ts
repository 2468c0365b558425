import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useFileServer } from '../../../test/support/fileServer.js';
import { guildFixture } from '../../../test/support/guildMembers.js';
import { firstChannelId, overwrite, sendMultipart } from '../../../test/support/messageFixtures.js';
import { MiB, streamUpload } from '../../../test/support/streamUpload.js';
import { startTestServer, type TestServer } from '../../../test/support/testServer.js';

const PAYLOAD = { payload_json: '{"content":"big"}' };

describeDrivers('uploads on $driver', (driver) => {
  /** Limits under which a 200 MiB file would be read in full if nothing refused it first. */
  const ROOMY = { maxAttachmentBytes: 256 * MiB, maxUploadBytes: 512 * MiB };
  const roomy = useFileServer({ storage: driver, listen: true, config: ROOMY });

  /** A guild of its own on `server`, where its bot may post but not attach files. */
  const seed = async (server: TestServer) => {
    const g = await guildFixture(server, { botPermissions: P.VIEW_CHANNEL | P.SEND_MESSAGES });
    const channelId = await firstChannelId(server.app, g.guildId);
    // @everyone may attach files by default: an overwrite takes it from the bot here.
    await overwrite(server.app, { channelId, userId: g.bot.userId, deny: P.ATTACH_FILES });
    return { g, channelId };
  };

  const blobFiles = (server: TestServer) => {
    const root = join(server.app.config.dataDir, 'blobs');
    if (!existsSync(root)) return [];
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  };

  it('refuses a denied 200 MiB upload without the server holding it in memory', async () => {
    const { server } = roomy;
    const { g, channelId } = await seed(server);
    // The server is the file's: the files it holds already.
    const filesBefore = blobFiles(server);
    const before = process.memoryUsage();
    let peakRss = 0;
    let peakBuffers = 0;
    const sample = () => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss - before.rss);
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers - before.arrayBuffers);
    };
    const url = `${server.baseUrl}/api/v10/channels/${channelId}/messages`;
    const res = await streamUpload(url, g.bot.token, {
      bytes: 200 * MiB,
      fields: PAYLOAD,
      onChunk: sample,
    });
    sample();
    expect(res.status, res.body).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 50013 });
    // A bound, not a timing: 200 MiB held anywhere would show here.
    expect(peakBuffers).toBeLessThan(64 * MiB);
    expect(peakRss).toBeLessThan(64 * MiB);
    expect(blobFiles(server)).toEqual(filesBefore);
  });

  it('checks the right to post before reading the body', async () => {
    const { server } = roomy;
    const { g, channelId } = await seed(server);
    await overwrite(server.app, {
      channelId,
      userId: g.bot.userId,
      deny: P.SEND_MESSAGES | P.ATTACH_FILES,
    });
    const url = `${server.baseUrl}/api/v10/channels/${channelId}/messages`;
    const denied = await streamUpload(url, g.bot.token, { bytes: 16 * MiB, fields: PAYLOAD });
    expect(denied.status, denied.body).toBe(403);
    expect(JSON.parse(denied.body)).toMatchObject({ code: 50013 });
  });

  // A server of its own: limits small enough to reach, which the roomy server's are not.
  it('caps what one request uploads in all with 40005, leaving no file', async () => {
    await using server = await startTestServer({
      storage: driver,
      config: { maxAttachmentBytes: 4096, maxUploadBytes: 8192 },
    });
    const { g, channelId } = await seed(server);
    const files = [0, 1, 2].map((index) => ({
      field: `files[${String(index)}]`,
      filename: `part${String(index)}.bin`,
      contentType: 'application/octet-stream',
      data: Buffer.alloc(4000, 0x62),
    }));
    const tooMuch = await sendMultipart(server.app, {
      method: 'POST',
      path: `/channels/${channelId}/messages`,
      auth: g.owner.token,
      payload: { content: 'three files' },
      files,
    });
    expect(tooMuch.statusCode, tooMuch.body).toBe(413);
    expect(tooMuch.json()).toMatchObject({ code: 40005 });
    expect(blobFiles(server)).toEqual([]);

    const fits = await sendMultipart(server.app, {
      method: 'POST',
      path: `/channels/${channelId}/messages`,
      auth: g.owner.token,
      payload: { content: 'two files' },
      files: files.slice(0, 2),
    });
    expect(fits.statusCode, fits.body).toBe(200);
    expect(blobFiles(server).filter((name) => !name.endsWith('.type'))).toHaveLength(2);
  });
});
