/**
 * A guild channel in the web client, as a person reads and uses it: a reply shows what it
 * answers, the tab's title says where the person is, a slash command sent incomplete puts focus
 * on its first invalid field, the app's answer says who used which command (after a reload too,
 * from the message the API serves), and at 760 px wide nothing covers anything else. No console
 * error, no CSP violation; every wait is for a selector or a value, none for a time.
 *
 * @module
 */
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { identifyGateway, type GatewayClient } from '../../../server/test/support/gatewayClient.js';
import { seedDeveloper } from '../../../server/test/support/testServer.js';
import { describeBrowser, inPage, screenshot, useWebServer } from './support.js';

/** VIEW_CHANNEL, SEND_MESSAGES and READ_MESSAGE_HISTORY. */
const BOT_PERMISSIONS = (1n << 10n) | (1n << 11n) | (1n << 16n);
/** GUILDS: interactions reach a bot whatever its intents. */
const BOT_INTENTS = 1 << 0;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (box === null) throw new Error(`${locator.toString()} is not shown`);
  return box;
}

describeBrowser('a guild channel in the web client', () => {
  const fx = useWebServer();

  const { api } = fx;

  const openClient = (token: string, path: string) => fx.openAs(token, path);

  /** A guild with a text channel and the developer's bot, whose app has a guild command. */
  async function harbor(name: string) {
    const seed = await seedDeveloper(fx.server.app, name, 'Echo');
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: seed.userId,
      name: 'Harbor',
      channels: [{ name: 'general', type: 'text' }],
    });
    await fx.server.app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: seed.applicationId,
      permissions: BOT_PERMISSIONS,
    });
    const channels = await api<{ id: string; name: string }[]>(
      seed.userToken,
      `GET /guilds/${guild.id}/channels`,
    );
    const general = channels.find((c) => c.name === 'general');
    if (general === undefined) throw new Error('no general channel');
    const bot = `Bot ${seed.botToken}`;
    await api(bot, `PUT /applications/${seed.applicationId}/guilds/${guild.id}/commands`, [
      {
        name: 'echo',
        description: 'Says it back',
        options: [
          { type: 3, name: 'place', description: 'Where to say it', required: true },
          { type: 3, name: 'text', description: 'What to say', required: true },
        ],
      },
    ]);
    return { seed, guildId: guild.id, channelId: general.id, bot };
  }

  const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });

  it('shows what a reply answers and who used a command, after a reload too', async () => {
    const { seed, guildId, channelId, bot } = await harbor('ana');
    const original = await api<{ id: string }>(bot, `POST /channels/${channelId}/messages`, {
      content: 'The ferry leaves at noon',
    });
    await api(bot, `POST /channels/${channelId}/messages`, {
      content: 'Bring a coat',
      message_reference: { message_id: original.id },
    });
    const identified = await identifyGateway(fx.server.app.gatewayUrl(), {
      token: seed.botToken,
      intents: BOT_INTENTS,
    });
    const gateway: GatewayClient = identified.client;
    const watched = await openClient(seed.userToken, `/channels/${guildId}/${channelId}`);
    try {
      const { page } = watched;
      await expect.poll(() => page.title()).toBe('#general · Harbor · Guildhall');

      const reply = messages(page).getByRole('article').filter({ hasText: 'Bring a coat' });
      const preview = reply.getByRole('button', { name: /^Replying to Echo: / });
      expect(await preview.getAttribute('aria-label')).toBe(
        'Replying to Echo: The ferry leaves at noon',
      );
      // The preview leads to the message it answers.
      await preview.click();
      expect(await inPage(page, 'document.activeElement?.dataset.messageId')).toBe(original.id);

      // The command form sent with a field missing: focus goes to it (not the first field).
      const composer = page.getByRole('textbox', { name: 'Message #general' });
      await composer.click();
      await page.keyboard.type('/echo');
      await page.getByRole('option', { name: /\/echo/ }).click();
      const form = page.getByRole('form', { name: '/echo' });
      await form.getByLabel('place (required)').fill('the quay');
      await form.getByRole('button', { name: 'Send' }).click();
      const text = form.getByLabel('text (required)');
      const textId = await text.getAttribute('id');
      expect(textId).toEqual(expect.any(String));
      await expect.poll(() => inPage(page, 'document.activeElement?.id')).toBe(textId);
      expect(await text.getAttribute('aria-invalid')).toBe('true');

      // Completed, it goes to the app, which answers.
      await text.fill('ahoy');
      const answered = gateway.dispatch('INTERACTION_CREATE');
      await text.press('Enter');
      const interaction = (await answered).d as { id: string; token: string };
      await api('', `POST /interactions/${interaction.id}/${interaction.token}/callback`, {
        type: 4,
        data: { content: 'ahoy from the quay' },
      });
      const answer = messages(page).getByRole('article').filter({ hasText: 'ahoy from the quay' });
      await answer.getByText('ana used /echo').waitFor();
      await screenshot(page, 'client-reply-and-command');

      // A reload knows only what the API serves: the same lines.
      await page.reload();
      await answer.getByText('ana used /echo').waitFor();
      await reply
        .getByRole('button', { name: 'Replying to Echo: The ferry leaves at noon' })
        .waitFor();
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.context.close();
      await gateway.close();
    }
  });

  it('titles each page by where the person is', async () => {
    const { seed, guildId } = await harbor('bea');
    const watched = await openClient(seed.userToken, '/channels/@me');
    try {
      const { page } = watched;
      await expect.poll(() => page.title()).toBe('Friends · Guildhall');
      await page.getByRole('link', { name: 'Harbor' }).click();
      await expect.poll(() => page.title()).toBe('#general · Harbor · Guildhall');
      await page.goto(`${fx.server.baseUrl}/developers/applications`);
      await expect.poll(() => page.title()).toBe('Applications · Developer Portal · Guildhall');
      await page.goto(`${fx.server.baseUrl}/developers/applications/${seed.applicationId}/bot`);
      await expect.poll(() => page.title()).toBe('Bot · Echo · Developer Portal · Guildhall');
      expect(guildId).not.toBe('');
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });

  it('at 760 px wide, covers nothing and keeps the composer usable', async () => {
    const { seed, guildId, channelId } = await harbor('cal');
    const watched = await openClient(seed.userToken, `/channels/${guildId}/${channelId}`);
    try {
      const { page } = watched;
      await page.setViewportSize({ width: 760, height: 700 });
      const invite = page.getByRole('button', { name: 'Create Invite' });
      const composer = page.getByRole('textbox', { name: 'Message #general' });
      await composer.waitFor();
      const header = page.locator('.channel-header');
      // Every control of the header inside the channel's column, clear of the other columns.
      const column = await boxOf(page.locator('.channel-column'));
      for (const control of await header.getByRole('button').all()) {
        const box = await boxOf(control);
        expect(box.x).toBeGreaterThanOrEqual(column.x);
        expect(box.x + box.width).toBeLessThanOrEqual(column.x + column.width + 0.5);
      }
      const members = page.getByRole('complementary', { name: 'Members' });
      if (await members.isVisible()) {
        expect(intersects(await boxOf(invite), await boxOf(members))).toBe(false);
        expect(intersects(await boxOf(composer), await boxOf(members))).toBe(false);
      }
      expect((await boxOf(composer)).width).toBeGreaterThanOrEqual(280);
      await screenshot(page, 'client-760');

      // The member list is one click away, and shown, it still covers nothing.
      await page.getByRole('button', { name: 'Member List' }).click();
      await members.waitFor();
      expect(intersects(await boxOf(invite), await boxOf(members))).toBe(false);
      expect(intersects(await boxOf(composer), await boxOf(members))).toBe(false);
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });
});
