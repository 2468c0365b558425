/**
 * Portal pages in a real browser, for a developer logged in as the login page leaves them: the
 * Social SDK page of an app with no OpenID provider makes no failing request (no console error);
 * the Commands page lists the app's guild commands, by server, beside its global ones.
 *
 * @module
 */
import { expect, it } from 'vitest';
import { seedDeveloper } from '../../../server/test/support/testServer.js';
import { describeBrowser, screenshot, useWebServer } from './support.js';

describeBrowser('portal pages in Chromium', () => {
  const fx = useWebServer();

  /** The portal at `path`, signed in as the login page leaves it. */
  const openPortal = (token: string, path: string) => fx.openAs(token, `/developers${path}`);

  it('shows the Social SDK page of an app without an OpenID provider, with no error', async () => {
    const dev = await seedDeveloper(fx.server.app, 'sdkdev', 'Lantern');
    const watched = await openPortal(
      dev.userToken,
      `/applications/${dev.applicationId}/social-sdk`,
    );
    try {
      const { page } = watched;
      await page.getByRole('heading', { name: 'OpenID Connect Provider' }).waitFor();
      await page.getByLabel('Issuer').waitFor();
      // Loaded: the form is empty, and nothing failed on the way.
      await page.waitForLoadState('networkidle');
      expect(await page.getByLabel('Issuer').inputValue()).toBe('');
      expect(watched.errors).toEqual([]);
      await screenshot(page, 'portal-social-sdk');
    } finally {
      await watched.context.close();
    }
  });

  it('lists the guild commands of each server beside the global ones', async () => {
    const dev = await seedDeveloper(fx.server.app, 'cmddev', 'Tagger');
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: dev.userId,
      name: 'Harbor',
      channels: [{ name: 'general', type: 'text' }],
    });
    await fx.server.app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: dev.applicationId,
      permissions: 0n,
    });
    const put = await fetch(
      `${fx.server.baseUrl}/api/v10/applications/${dev.applicationId}/guilds/${guild.id}/commands`,
      {
        method: 'PUT',
        headers: { Authorization: `Bot ${dev.botToken}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ name: 'tag', description: 'Tags things' }]),
      },
    );
    expect(put.status).toBe(200);
    const watched = await openPortal(dev.userToken, `/applications/${dev.applicationId}/commands`);
    try {
      const { page } = watched;
      const harbor = page.getByRole('region', { name: 'Commands in Harbor' });
      await harbor.getByRole('rowheader', { name: 'tag' }).waitFor();
      await page.getByText('No global commands yet.').waitFor();
      expect(watched.errors).toEqual([]);
      await screenshot(page, 'portal-guild-commands');
    } finally {
      await watched.context.close();
    }
  });
});
