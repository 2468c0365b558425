/**
 * Friends and DMs in a real browser, two people side by side: a friend request by username (and
 * the API's refusal of an unknown name), accepted live on the other side, presence dots, the DM
 * opened from the friends list, and messages both ways arriving live.
 *
 * @module
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestServer } from '../../../server/test/support/testServer.js';
import {
  describeBrowser,
  launchBrowser,
  openPage,
  screenshot,
  startWebServer,
  type WatchedPage,
} from './support.js';

describeBrowser('friends and DMs in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
  });

  /** A person registered through the service, their client open at /channels/@me. */
  async function person(name: string): Promise<WatchedPage> {
    const { token } = await server.app.services.auth.register({
      email: `${name}@example.test`,
      username: name,
      password: 'correct horse battery',
    });
    const watched = await openPage(browser);
    // The session as the login page leaves it: the token in localStorage.
    await watched.context.addInitScript({
      content: `localStorage.setItem('token', ${JSON.stringify(token)});`,
    });
    await watched.page.goto(`${server.baseUrl}/channels/@me`);
    return watched;
  }

  it('a request by username, accepted live, then a DM both ways', async () => {
    const ada = await person('ada');
    const bob = await person('bob');
    try {
      const a = ada.page;
      const b = bob.page;

      await a.getByRole('tab', { name: 'Add Friend' }).click();
      await a.getByLabel('Username').fill('nobody');
      await a.getByRole('button', { name: 'Send Friend Request' }).click();
      await a.getByText('No users with DiscordTag exist').waitFor();
      await a.getByLabel('Username').fill('bob');
      await a.getByRole('button', { name: 'Send Friend Request' }).click();
      await a.getByText('Your friend request to bob was sent.').waitFor();

      // Bob's Pending tab shows the request as it arrives, and accepts it.
      await b.getByRole('tab', { name: 'Pending' }).click();
      const request = b.getByRole('listitem', { name: 'ada' });
      await request.getByText('Incoming Friend Request').waitFor();
      await screenshot(b, 'social-pending');
      await request.getByRole('button', { name: 'Accept' }).click();

      // Ada sees her new friend online (his client announced itself).
      await a.getByRole('tab', { name: 'Online' }).click();
      const friend = a.getByRole('listitem', { name: 'bob' });
      await friend.getByRole('img', { name: 'Online' }).waitFor();
      await screenshot(a, 'social-friends');

      await friend.getByRole('button', { name: 'Message' }).click();
      await a.waitForURL(/\/channels\/@me\/\d+$/);
      const composer = a.getByRole('textbox', { name: 'Message @bob' });
      await composer.fill('hello bob');
      await composer.press('Enter');

      // The DM appears in Bob's sidebar with its first message; he answers.
      const dms = b.getByRole('navigation', { name: 'Direct Messages' });
      await dms.getByRole('link', { name: 'ada' }).click();
      await b.getByRole('log', { name: 'Messages' }).getByText('hello bob').waitFor();
      const reply = b.getByRole('textbox', { name: 'Message @ada' });
      await reply.fill('hi ada');
      await reply.press('Enter');
      await a.getByRole('log', { name: 'Messages' }).getByText('hi ada').waitFor();
      await screenshot(a, 'social-dm');

      expect(ada.cspViolations()).toEqual([]);
      expect(bob.cspViolations()).toEqual([]);
    } finally {
      await ada.context.close();
      await bob.context.close();
    }
  });
});
