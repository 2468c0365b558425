import { existsSync, readdirSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { useFileServer } from '../../test/support/fileServer.js';
import { describeDrivers } from '../../test/support/drivers.js';
import { PNG_1X1 } from '../../test/support/expressionFixtures.js';
import { guildFixture, type GuildFixture } from '../../test/support/guildMembers.js';
import {
  firstChannelId,
  sendMultipart,
  type FilePart,
} from '../../test/support/messageFixtures.js';
import { type TestServer } from '../../test/support/testServer.js';
import { manualClock } from '../domain/clock.js';
import { SEALED_AS, createSecretBox } from '../domain/secretBox.js';
import { createAttachmentSigner, ATTACHMENT_SECRET } from '../resources/messages/signedUrls.js';
import { loadKeyring } from '../secrets.js';
import { sweepOrphanBlobs } from './lifecycle.js';

interface WireAttachment {
  id: string;
  url: string;
  proxy_url: string;
}

const DAY_MS = 86_400_000;
const ALL = P.VIEW_CHANNEL | P.SEND_MESSAGES | P.ATTACH_FILES | P.READ_MESSAGE_HISTORY;

describeDrivers('attachment URLs and blob lifecycle on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let channelId: string;
  const clock = manualClock(Date.now());

  const shared = useFileServer({ storage: driver, clock });
  beforeEach(async () => {
    clock.set(Date.now());
    server = shared.server;
    g = await guildFixture(server, { botPermissions: ALL, nowMs: () => clock.now() });
    channelId = await firstChannelId(server.app, g.guildId);
  });

  const blobDir = () => join(server.app.config.dataDir, 'blobs');
  const hasBlob = (key: string) => existsSync(join(blobDir(), key));
  const file = (index: number, name: string, data = 'hello'): FilePart => ({
    field: `files[${String(index)}]`,
    filename: name,
    contentType: 'text/plain',
    data,
  });
  const post = async (files: FilePart[], content = 'files') => {
    const res = await sendMultipart(server.app, {
      method: 'POST',
      path: `/channels/${channelId}/messages`,
      auth: g.owner.token,
      payload: { content },
      files,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string; attachments: WireAttachment[] }>();
  };
  const newChannel = async (name: string) => {
    const res = await g.call('POST', `/guilds/${g.guildId}/channels`, {
      auth: g.owner.token,
      payload: { name, type: 0 },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  /** GETs a URL's path and query from the CDN. */
  const fetchUrl = (url: string) => {
    const parsed = new URL(url);
    return server.app.http.inject({ method: 'GET', url: `${parsed.pathname}${parsed.search}` });
  };

  it('serves a URL the API handed out and nothing else', async () => {
    const message = await post([file(0, 'a.txt', 'alpha')]);
    const [attachment] = message.attachments;
    const url = attachment?.url ?? '';
    const query = new URL(url).search;
    expect(query).toMatch(/^\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]{64}&$/);
    const ex = parseInt(new URLSearchParams(query).get('ex') ?? '', 16);
    expect(ex * 1000).toBeGreaterThan(clock.now() + DAY_MS - 2000);

    const served = await fetchUrl(url);
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe('alpha');

    // A GET of the message signs afresh; a dispatch-free read gives a working URL too.
    const read = await g.call(
      'GET',
      `/channels/${channelId}/messages/${message.id}`,
      g.owner.token,
    );
    const readUrl = read.json<{ attachments: WireAttachment[] }>().attachments[0]?.url ?? '';
    expect((await fetchUrl(readUrl)).statusCode).toBe(200);

    const path = new URL(url).pathname;
    const refused = [
      path, // no signature
      `${path.replace('a.txt', 'b.txt')}${query}`, // another name, same signature
      `${path}${query.replace(/hm=[0-9a-f]{4}/, 'hm=0000')}`, // forged hm
      `${path}${query.replace(/ex=[0-9a-f]+/, `ex=${(ex + 3600).toString(16)}`)}`, // later ex
    ];
    for (const bad of refused) {
      const res = await server.app.http.inject({ method: 'GET', url: bad });
      expect(res.statusCode, bad).toBe(404);
    }

    // Signed with the server's own secret but naming another channel: the owner check refuses.
    const sealed = await server.app.storage.serverSecrets.getOrCreate(ATTACHMENT_SECRET, 'x', 0);
    const box = createSecretBox(loadKeyring(server.app.config).keyring);
    const secret = box.open(sealed, SEALED_AS.serverSecret(ATTACHMENT_SECRET));
    const signer = createAttachmentSigner({
      secret: Buffer.from(secret, 'base64'),
      clock,
      lifetimeMs: DAY_MS,
    });
    const otherChannel = await newChannel('other');
    const moved = signer.sign(path.replace(channelId, otherChannel));
    expect((await server.app.http.inject({ method: 'GET', url: moved })).statusCode).toBe(404);
    expect(
      (await server.app.http.inject({ method: 'GET', url: signer.sign(path) })).statusCode,
    ).toBe(200);

    // Past ex (24 h by default) the link is dead; a fresh read works again.
    clock.advance(DAY_MS + 1000);
    expect((await fetchUrl(url)).statusCode).toBe(404);
    const again = await g.call(
      'GET',
      `/channels/${channelId}/messages/${message.id}`,
      g.owner.token,
    );
    const freshUrl = again.json<{ attachments: WireAttachment[] }>().attachments[0]?.url ?? '';
    expect((await fetchUrl(freshUrl)).statusCode).toBe(200);
  });

  const keyOf = (attachment: WireAttachment | undefined) => `attachments/${attachment?.id ?? ''}`;

  it('frees message files on delete, bulk delete and edit', async () => {
    const one = await post([file(0, 'a.txt'), file(1, 'b.txt')]);
    const [a, b] = one.attachments;
    expect(hasBlob(keyOf(a)) && hasBlob(keyOf(b))).toBe(true);
    const edited = await g.call('PATCH', `/channels/${channelId}/messages/${one.id}`, {
      auth: g.owner.token,
      payload: { attachments: [{ id: b?.id }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(hasBlob(keyOf(a))).toBe(false);
    expect(hasBlob(keyOf(b))).toBe(true);

    const deleted = await g.call(
      'DELETE',
      `/channels/${channelId}/messages/${one.id}`,
      g.owner.token,
    );
    expect(deleted.statusCode).toBe(204);
    expect(hasBlob(keyOf(b))).toBe(false);

    const [x, y] = [await post([file(0, 'x.txt')]), await post([file(0, 'y.txt')])];
    const bulk = await g.call('POST', `/channels/${channelId}/messages/bulk-delete`, {
      auth: g.owner.token,
      payload: { messages: [x.id, y.id] },
    });
    expect(bulk.statusCode, bulk.body).toBe(204);
    expect(hasBlob(keyOf(x.attachments[0]))).toBe(false);
    expect(hasBlob(keyOf(y.attachments[0]))).toBe(false);
  });

  it('frees files when their channel or guild is deleted', async () => {
    const kept = await post([file(0, 'kept.txt')]);
    channelId = await newChannel('doomed');
    const doomed = await post([file(0, 'doomed.txt')]);
    const res = await g.call('DELETE', `/channels/${channelId}`, g.owner.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(hasBlob(keyOf(doomed.attachments[0]))).toBe(false);
    expect(hasBlob(keyOf(kept.attachments[0]))).toBe(true);

    const emoji = await g.call('POST', `/guilds/${g.guildId}/emojis`, {
      auth: g.owner.token,
      payload: { name: 'dot', image: PNG_1X1 },
    });
    expect(emoji.statusCode, emoji.body).toBe(201);
    const emojiKey = `emojis/${emoji.json<{ id: string }>().id}`;
    const icon = await g.call('PATCH', `/guilds/${g.guildId}`, {
      auth: g.owner.token,
      payload: { icon: PNG_1X1 },
    });
    const iconHash = icon.json<{ icon: string }>().icon;
    expect(hasBlob(emojiKey) && hasBlob(`icons/${g.guildId}/${iconHash}.png`)).toBe(true);
    const gone = await g.call('DELETE', `/guilds/${g.guildId}`, g.owner.token);
    expect(gone.statusCode, gone.body).toBe(204);
    expect(hasBlob(keyOf(kept.attachments[0]))).toBe(false);
    expect(hasBlob(emojiKey)).toBe(false);
    expect(hasBlob(`icons/${g.guildId}/${iconHash}.png`)).toBe(false);
  });

  it('frees emoji, sticker, avatar and banner files', async () => {
    const emoji = await g.call('POST', `/guilds/${g.guildId}/emojis`, {
      auth: g.owner.token,
      payload: { name: 'dot', image: PNG_1X1 },
    });
    const emojiId = emoji.json<{ id: string }>().id;
    expect(hasBlob(`emojis/${emojiId}`)).toBe(true);
    await g.call('DELETE', `/guilds/${g.guildId}/emojis/${emojiId}`, g.owner.token);
    expect(hasBlob(`emojis/${emojiId}`)).toBe(false);

    const sticker = await g.call('POST', `/guilds/${g.guildId}/stickers`, {
      auth: g.owner.token,
      payload: { name: 'wave', tags: 'hello', description: '', file: PNG_1X1 },
    });
    expect(sticker.statusCode, sticker.body).toBe(201);
    const stickerId = sticker.json<{ id: string }>().id;
    expect(hasBlob(`stickers/${stickerId}`)).toBe(true);
    await g.call('DELETE', `/guilds/${g.guildId}/stickers/${stickerId}`, g.owner.token);
    expect(hasBlob(`stickers/${stickerId}`)).toBe(false);

    const me = g.owner.userId;
    const set = await g.call('PATCH', '/users/@me', {
      auth: g.owner.token,
      payload: { avatar: PNG_1X1, banner: PNG_1X1 },
    });
    const { avatar, banner } = set.json<{ avatar: string; banner: string }>();
    expect(hasBlob(`avatars/${me}/${avatar}.png`)).toBe(true);
    expect((await server.app.http.inject({ url: `/avatars/${me}/${avatar}.png` })).statusCode).toBe(
      200,
    );
    const gif = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
    const replaced = await g.call('PATCH', '/users/@me', {
      auth: g.owner.token,
      payload: { avatar: gif, banner: null },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(hasBlob(`avatars/${me}/${avatar}.png`)).toBe(false);
    expect(hasBlob(`banners/${me}/${banner}.png`)).toBe(false);
    const now = replaced.json<{ avatar: string }>().avatar;
    expect(hasBlob(`avatars/${me}/${now}.gif`)).toBe(true);
  });

  it('sweeps orphans past the grace period, never serving one', async () => {
    const { blobs, storage } = server.app;
    const message = await post([file(0, 'live.txt')]);
    const liveKey = keyOf(message.attachments[0]);
    const me = g.owner.userId;
    const orphanAvatar = `avatars/${me}/${'0'.repeat(32)}.png`;
    const oldOrphan = 'attachments/1234567890123456789';
    const youngOrphan = 'attachments/1234567890123456790';
    for (const key of [orphanAvatar, oldOrphan, youngOrphan]) {
      await blobs.put(key, { bytes: Buffer.from('x'), contentType: 'image/png' });
    }
    // An orphan is never served, even before the sweep.
    const orphanServed = await server.app.http.inject({ url: `/${orphanAvatar}` });
    expect(orphanServed.statusCode).toBe(404);
    // A staged upload abandoned mid-way, and old files (the crash between commit and delete).
    const staged = await blobs.stage(
      (await import('node:stream')).Readable.from([Buffer.from('y')]),
    );
    const hourAgo = (Date.now() - 2 * 3600_000) / 1000;
    for (const key of [orphanAvatar, oldOrphan, liveKey]) {
      await utimes(join(blobDir(), key), hourAgo, hourAgo);
    }
    const stagingDir = join(blobDir(), '.staging');
    for (const name of readdirSync(stagingDir)) {
      await utimes(join(stagingDir, name), hourAgo, hourAgo);
    }
    const result = await sweepOrphanBlobs({ storage, blobs, nowMs: Date.now(), graceMs: 3600_000 });
    expect(result).toEqual({ removed: 2, temporary: 1 });
    expect(hasBlob(orphanAvatar) || hasBlob(oldOrphan)).toBe(false);
    expect(hasBlob(youngOrphan)).toBe(true);
    expect(hasBlob(liveKey)).toBe(true);
    expect(readdirSync(stagingDir)).toEqual([]);
    await staged.discard();
  });
});
