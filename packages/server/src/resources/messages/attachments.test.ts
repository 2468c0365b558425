import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import {
  firstChannelId,
  overwrite,
  sendMultipart,
  type FilePart,
} from '../../../test/support/messageFixtures.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';

interface WireAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  flags: number;
  description?: string;
  content_type?: string;
}

const MAX_BYTES = 4096;
const IS_SPOILER = 1 << 3;

describeDrivers('attachments on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let channelId: string;

  const shared = useFileServer({ storage: driver, config: { maxAttachmentBytes: MAX_BYTES } });
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, { botPermissions: 0n });
    channelId = await firstChannelId(server.app, g.guildId);
    blobsBefore = blobFiles();
  });

  const path = (suffix = '') => `/channels/${channelId}/messages${suffix}`;
  const upload = (auth: string, payload: unknown, files: FilePart[]) =>
    sendMultipart(server.app, { method: 'POST', path: path(), auth, payload, files });
  const file = (
    index: number,
    filename: string,
    content: { data?: string; type?: string } = {},
  ): FilePart => ({
    field: `files[${String(index)}]`,
    filename,
    contentType: content.type ?? 'text/plain',
    data: content.data ?? 'hello',
  });
  const blobFiles = () => {
    const dir = join(server.app.config.dataDir, 'blobs', 'attachments');
    return existsSync(dir) ? readdirSync(dir).filter((name) => !name.endsWith('.type')).length : 0;
  };
  /** The attachment blobs this test stored (the file's tests share the server's folder). */
  let blobsBefore = 0;
  const storedBlobs = () => blobFiles() - blobsBefore;
  /** Fetches an attachment URL (path and signed query) from the CDN route. */
  const fetchCdn = (url: string) => {
    const parsed = new URL(url);
    return server.app.http.inject({ method: 'GET', url: `${parsed.pathname}${parsed.search}` });
  };

  it('uploads files with payload_json, spoilers and descriptions, served back', async () => {
    const res = await upload(
      g.owner.token,
      {
        content: 'files',
        attachments: [
          { id: 0, description: 'a picture', is_spoiler: true },
          { id: 1, filename: 'renamed.txt' },
        ],
      },
      [
        file(0, 'cat.png', { data: 'PNGDATA', type: 'image/png' }),
        file(1, 'notes.txt'),
        file(2, 'SPOILER_plot.txt', { data: 'twist' }),
      ],
    );
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'POST', path());
    const attachments = res.json<{ attachments: WireAttachment[] }>().attachments;
    expect(attachments).toMatchObject([
      { filename: 'cat.png', size: 7, description: 'a picture', flags: IS_SPOILER },
      { filename: 'renamed.txt', size: 5, flags: 0, content_type: 'text/plain' },
      { filename: 'SPOILER_plot.txt', flags: IS_SPOILER },
    ]);
    const [first] = attachments;
    expect(first?.url).toMatch(
      new RegExp(
        `^${server.app.baseUrl()}/attachments/${channelId}/${first?.id ?? ''}/cat\\.png\\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]{64}&$`,
      ),
    );
    expect(first?.proxy_url).toBe(first?.url);
    const served = await fetchCdn(first?.url ?? '');
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.body).toBe('PNGDATA');

    const unknown = await server.app.http.inject({
      method: 'GET',
      url: `/attachments/${channelId}/123/cat.png`,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('never serves active content inline and sanitises file names', async () => {
    const res = await upload(g.owner.token, { content: 'x' }, [
      file(0, '../../etc/<b>evil page</b>.html', {
        data: '<script>alert(1)</script>',
        type: 'text/html',
      }),
      file(1, 'pic.svg', { data: '<svg onload="alert(1)"/>', type: 'image/svg+xml' }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [html, svg] = res.json<{ attachments: WireAttachment[] }>().attachments;
    // Only the last path segment is kept ('</b>' has a slash), with unsafe characters replaced.
    expect(html?.filename).toBe('b_.html');
    for (const attachment of [html, svg]) {
      const served = await fetchCdn(attachment?.url ?? '');
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('application/octet-stream');
      expect(String(served.headers['content-disposition'])).toMatch(/^attachment;/);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('refuses a file over the limit with 40005 before storing anything', async () => {
    const big = 'x'.repeat(MAX_BYTES + 1);
    for (const auth of [g.owner.token, g.bot.token]) {
      const res = await upload(auth, { content: 'big' }, [
        file(0, 'ok.txt'),
        file(1, 'big.txt', { data: big }),
      ]);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: 40005, message: 'Request entity too large' });
      expectOpenApiResponse(res, 'POST', path());
    }
    expect(storedBlobs()).toBe(0);
    expect(await server.app.storage.messages.list(channelId, { limit: 10 })).toEqual([]);
    // Exactly at the limit is fine.
    const fits = await upload(g.owner.token, {}, [
      file(0, 'fits.txt', { data: 'x'.repeat(MAX_BYTES) }),
    ]);
    expect(fits.statusCode, fits.body).toBe(200);
    expect(storedBlobs()).toBe(1);
  });

  it('refuses bad uploads: permissions, missing files, too many, bad JSON', async () => {
    const ann = await g.join('ann');
    await overwrite(server.app, { channelId, userId: ann.userId, deny: P.ATTACH_FILES });
    const denied = await upload(ann.token, { content: 'x' }, [file(0, 'a.txt')]);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 50013 });
    expectOpenApiResponse(denied, 'POST', path());

    const cases: [unknown, FilePart[], number][] = [
      [{ content: 'x', attachments: [{ id: 3 }] }, [file(0, 'a.txt')], 50035],
      [{ content: 'x' }, Array.from({ length: 11 }, (_, i) => file(i, `f${String(i)}.txt`)), 50035],
      [{ content: 'x' }, [{ ...file(0, 'a.txt'), field: 'photo' }], 50035],
      [
        { content: 'x', attachments: [{ id: 0, description: 'd'.repeat(1025) }] },
        [file(0, 'a.txt')],
        50035,
      ],
      [{ content: 42 }, [file(0, 'a.txt')], 50035],
    ];
    for (const [payload, files, code] of cases) {
      const res = await upload(g.owner.token, payload, files);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code });
      expectOpenApiResponse(res, 'POST', path());
    }
    const badJson = await server.app.http.inject({
      method: 'POST',
      url: `/api/v10${path()}`,
      headers: {
        authorization: g.owner.token,
        'content-type': 'multipart/form-data; boundary=b',
      },
      payload:
        '--b\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{nope\r\n--b--\r\n',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toMatchObject({ code: 50109 });
    const garbage = await server.app.http.inject({
      method: 'POST',
      url: `/api/v10${path()}`,
      headers: { authorization: g.owner.token, 'content-type': 'multipart/form-data' },
      payload: 'not multipart at all',
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toMatchObject({ code: 50035 });
    expect(storedBlobs()).toBe(0);
  });

  it('edits keep only the listed attachments and change description and spoiler', async () => {
    const created = await upload(g.owner.token, { content: 'v1' }, [
      file(0, 'a.txt'),
      file(1, 'b.txt'),
    ]);
    const message = created.json<{ id: string; attachments: WireAttachment[] }>();
    const [a, b] = message.attachments;
    const messagePath = path(`/${message.id}`);
    const edited = await g.call('PATCH', messagePath, {
      auth: g.owner.token,
      payload: { attachments: [{ id: b?.id, description: 'now described', is_spoiler: true }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expectOpenApiResponse(edited, 'PATCH', messagePath);
    expect(edited.json<{ attachments: WireAttachment[] }>().attachments).toMatchObject([
      { id: b?.id, filename: 'b.txt', description: 'now described', flags: IS_SPOILER },
    ]);
    expect(a).toBeDefined();

    const added = await sendMultipart(server.app, {
      method: 'PATCH',
      path: messagePath,
      auth: g.owner.token,
      payload: { attachments: [{ id: b?.id, is_spoiler: false }, { id: 0 }] },
      files: [file(0, 'c.txt', { data: 'new' })],
    });
    expect(added.statusCode, added.body).toBe(200);
    expectOpenApiResponse(added, 'PATCH', messagePath);
    expect(added.json<{ attachments: WireAttachment[] }>().attachments).toMatchObject([
      { id: b?.id, flags: 0, description: 'now described' },
      { filename: 'c.txt', size: 3 },
    ]);

    const tooBig = await sendMultipart(server.app, {
      method: 'PATCH',
      path: messagePath,
      auth: g.owner.token,
      payload: { attachments: [{ id: 0 }] },
      files: [file(0, 'd.txt', { data: 'x'.repeat(MAX_BYTES + 1) })],
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ code: 40005 });

    const cleared = await g.call('PATCH', messagePath, {
      auth: g.owner.token,
      payload: { attachments: [] },
    });
    expect(cleared.json()).toMatchObject({ attachments: [], content: 'v1' });
  });
});
