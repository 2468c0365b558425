/**
 * discord.js builds image URLs from its `rest.cdn` option (`{cdn}/avatars/{id}/{hash}.webp`, GIF
 * for `a_` hashes): with `rest: { api: <base>/api, cdn: <base> }` those URLs, fetched as they
 * are, return the images.
 *
 * @module
 */
import { Client as DiscordJsClient } from 'discord.js';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { uniqueName, useFileServer } from './support/fileServer.js';
import { seedDeveloper, type TestServer } from './support/testServer.js';

let server: TestServer;
const shared = useFileServer({ listen: true });
beforeEach(() => {
  server = shared.server;
});

const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** A two-frame 64×64 GIF. */
function animatedGif(): Promise<Buffer> {
  const side = 64;
  const raw = Buffer.alloc(side * side * 2 * 4, 255);
  raw.fill(0, 0, side * side * 4);
  return sharp(raw, { raw: { width: side, height: side * 2, channels: 4, pageHeight: side } })
    .gif()
    .toBuffer();
}

/** Fetches an image URL as a browser would, and reads what came back. */
async function fetchImage(url: string) {
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = res.ok ? await sharp(bytes, { animated: true }).metadata() : null;
  return { status: res.status, type: res.headers.get('content-type'), meta };
}

describe('discord.js image URLs', () => {
  it('user.displayAvatarURL() and guild.iconURL() on the rest.cdn base return the images', async () => {
    const seed = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
    const avatar = await sharp({
      create: { width: 128, height: 128, channels: 3, background: '#808000' },
    })
      .png()
      .toBuffer();
    const patched = await server.app.http.inject({
      method: 'PATCH',
      url: '/api/v10/users/@me',
      headers: { authorization: `Bot ${seed.botToken}` },
      payload: { avatar: dataUri('image/png', avatar) },
    });
    expect(patched.statusCode).toBe(200);
    const created = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/guilds',
      headers: { authorization: seed.userToken },
      payload: { name: 'Icons', icon: dataUri('image/gif', await animatedGif()) },
    });
    expect(created.statusCode).toBe(201);
    const guildId = created.json<{ id: string }>().id;
    await server.app.services.guilds.addBot({
      guildId,
      applicationId: seed.applicationId,
      permissions: 0n,
    });

    const client = new DiscordJsClient({
      intents: [],
      rest: { api: `${server.baseUrl}/api`, cdn: server.baseUrl },
    });
    client.rest.setToken(seed.botToken);
    try {
      const user = await client.users.fetch(seed.botUserId, { force: true });
      const avatarUrl = user.displayAvatarURL();
      expect(avatarUrl.startsWith(`${server.baseUrl}/avatars/${seed.botUserId}/`)).toBe(true);
      const fetched = await fetchImage(avatarUrl);
      expect(fetched).toMatchObject({ status: 200, type: 'image/webp' });
      expect(fetched.meta).toMatchObject({ format: 'webp', width: 128 });
      const sized = await fetchImage(user.displayAvatarURL({ extension: 'png', size: 32 }));
      expect(sized).toMatchObject({ status: 200, type: 'image/png' });
      expect(sized.meta).toMatchObject({ format: 'png', width: 32, height: 32 });

      const guild = await client.guilds.fetch({ guild: guildId, force: true });
      const iconUrl = guild.iconURL();
      expect(iconUrl).toMatch(/\/icons\/\d+\/a_[0-9a-f]{32}\.gif$/);
      const icon = await fetchImage(iconUrl ?? '');
      expect(icon).toMatchObject({ status: 200, type: 'image/gif' });
      expect(icon.meta).toMatchObject({ format: 'gif', pages: 2, width: 64 });
      const still = await fetchImage(guild.iconURL({ forceStatic: true, size: 16 }) ?? '');
      expect(still).toMatchObject({ status: 200, type: 'image/webp' });
      expect(still.meta).toMatchObject({ format: 'webp', width: 16 });
    } finally {
      await client.destroy();
    }
  });
});
