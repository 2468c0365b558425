/**
 * Voice in the web client (docs/web.md#voice): a bot joins a voice channel over the gateway
 * (op 4) and the page lists it live, with its flags and the call's timer; the list comes back
 * from GUILD_CREATE after a reload; the bot moves to a stage as a listener and leaves, and the
 * page follows. Clicking the channel explains why the browser does not join, and sends no op 4.
 * No console error, no CSP violation. Every wait is for a selector, none for a time.
 *
 * @module
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { identifyGateway, type GatewayClient } from '../../../server/test/support/gatewayClient.js';
import { seedDeveloper } from '../../../server/test/support/testServer.js';
import { describeBrowser, screenshot, useWebServer } from './support.js';

/** GUILDS and GUILD_VOICE_STATES: what a voice bot identifies with. */
const BOT_INTENTS = (1 << 0) | (1 << 7);
/** VIEW_CHANNEL, CONNECT and SPEAK. */
const BOT_PERMISSIONS = (1n << 10n) | (1n << 20n) | (1n << 21n);
/** Gateway op 4, Voice State Update. */
const VOICE_STATE_UPDATE = 4;

describeBrowser('voice channels in the web client', () => {
  const fx = useWebServer();

  const { api } = fx;

  const openClient = (token: string, path: string) => fx.openAs(token, path);

  /** The list of who is connected to a channel, by its accessible name. */
  const connected = (page: Page, channel: string) =>
    page.getByRole('list', { name: `Connected to ${channel}` });

  it('lists a bot that joins, moves and leaves, and says why the browser cannot join', async () => {
    const seed = await seedDeveloper(fx.server.app, 'host');
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: seed.userId,
      name: 'Game night',
      channels: [
        { name: 'general', type: 'text' },
        { name: 'Lounge', type: 'voice' },
      ],
    });
    const stage = await api<{ id: string }>(seed.userToken, `POST /guilds/${guild.id}/channels`, {
      name: 'Town hall',
      type: 13,
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
    const lounge = channels.find((c) => c.name === 'Lounge');
    if (lounge === undefined) throw new Error('no Lounge channel');

    const watched = await openClient(seed.userToken, `/channels/${guild.id}`);
    let bot: GatewayClient | null = null;
    try {
      const { page } = watched;
      const loungeButton = page.getByRole('button', { name: 'Lounge (voice channel)' });
      await loungeButton.waitFor();
      await expect(connected(page, 'Lounge').count()).resolves.toBe(0);

      // The bot joins the Lounge, muted: the page lists it live, and the call's timer starts.
      const identified = await identifyGateway(fx.server.app.gatewayUrl(), {
        token: seed.botToken,
        intents: BOT_INTENTS,
      });
      bot = identified.client;
      const botName = (identified.ready['user'] as { username: string }).username;
      const join = (channelId: string | null, flags: Record<string, boolean> = {}) => {
        bot?.send(VOICE_STATE_UPDATE, {
          guild_id: guild.id,
          channel_id: channelId,
          self_mute: false,
          self_deaf: false,
          ...flags,
        });
      };
      join(lounge.id, { self_mute: true });
      const botRow = connected(page, 'Lounge').getByRole('listitem').filter({ hasText: botName });
      await botRow.getByRole('img', { name: 'Muted' }).waitFor();
      await page.getByText('In call for').waitFor();

      // It deafens: the flag follows.
      join(lounge.id, { self_mute: true, self_deaf: true });
      await botRow.getByRole('img', { name: 'Deafened' }).waitFor();
      await screenshot(page, 'client-voice-channel');

      // After a reload the list comes from GUILD_CREATE's voice_states, the timer from CHANNEL_INFO.
      await page.reload();
      await botRow.getByRole('img', { name: 'Deafened' }).waitFor();
      await page.getByText('In call for').waitFor();

      // It moves to the stage, where it joins as a listener; the Lounge's list and timer go.
      join(stage.id);
      const stageRow = connected(page, 'Town hall')
        .getByRole('listitem')
        .filter({ hasText: botName });
      await stageRow.getByText('Listener').waitFor();
      await connected(page, 'Lounge').waitFor({ state: 'detached' });
      await expect(stageRow.getByRole('img').count()).resolves.toBe(0);

      // It leaves: no one is listed, no call goes on.
      join(null);
      await connected(page, 'Town hall').waitFor({ state: 'detached' });
      await page.getByText('In call for').waitFor({ state: 'detached' });

      // The person clicks the voice channel: the reason, not a pretend connection.
      await loungeButton.click();
      const dialog = page.getByRole('dialog', { name: 'You cannot join Lounge from the browser' });
      await dialog
        .getByText('a browser has neither raw UDP sockets nor a maintained DAVE')
        .waitFor();
      await dialog.getByText('@discordjs/voice').waitFor();
      await screenshot(page, 'client-voice-unavailable');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      // The person was never put in a channel: 10065 Unknown Voice State.
      await expect(api(seed.userToken, `GET /guilds/${guild.id}/voice-states/@me`)).rejects.toThrow(
        /404 .*10065/,
      );

      expect(watched.cspViolations()).toEqual([]);
      expect(watched.errors).toEqual([]);
    } finally {
      await bot?.close();
      await watched.context.close();
    }
  });
});
