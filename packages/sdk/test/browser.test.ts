/**
 * The SDK's browser example (examples/sdk-browser/) in Chromium, served from its own loopback
 * origin by examples/sdk-browser/serve.js, against a Guildhall server on another: two people log
 * in through the real authorize popup (Guildhall's login form and consent page), then a friend
 * request accepted live, a DM, and a lobby both join by its secret and talk in. Everything the page
 * does goes through the one-file bundle (packages/sdk/dist/bundle/, `npm run build`) across
 * origins (the API's CORS).
 *
 * @module
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeBrowser,
  launchBrowser,
  openPage,
  screenshot,
  type WatchedPage,
} from '../../web/test/browser/support.js';
// The types of what globalSetup provides (inject('chromiumFailure') in the browser support).
import type {} from '../../server/test/support/globalSetup.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
} from '../../server/test/support/testServer.js';

const SERVE = fileURLToPath(new URL('../../../examples/sdk-browser/serve.js', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../dist/bundle/guildhall-social-sdk.js', import.meta.url));
const PASSWORD = 'correct horse battery';

/** Starts serve.js on a free port; resolves with its origin once it says where it listens. */
function serveExample(): Promise<{ child: ChildProcessWithoutNullStreams; origin: string }> {
  const child = spawn(process.execPath, [SERVE, '--port', '0'], { stdio: 'pipe' });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (match?.[1] !== undefined) resolve({ child, origin: match[1] });
    });
    child.once('exit', (code) => {
      reject(new Error(`serve.js exited (${String(code)}): ${err}`));
    });
  });
}

describeBrowser('the SDK browser example in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let example: { child: ChildProcessWithoutNullStreams; origin: string };

  beforeAll(async () => {
    if (!existsSync(BUNDLE)) {
      throw new Error(`${BUNDLE} is missing: run npm run build (npm test does it first).`);
    }
    server = await startTestServer({ listen: true, gateway: { identifiesPerBucket: 1000 } });
    example = await serveExample();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    example.child.kill();
    await server.close();
  });

  /** A person with a full account, registered as the web client's sign-up does. */
  async function register(username: string): Promise<string> {
    const session = await server.app.services.auth.register({
      email: `${username}@example.test`,
      username,
      password: PASSWORD,
    });
    return session.user_id;
  }

  /** Opens the example page and logs in through the authorize popup as `username`. */
  async function logIn(username: string, applicationId: string): Promise<WatchedPage> {
    const watched = await openPage(browser);
    const { page } = watched;
    const apiBase = `${server.baseUrl}/api/v10`;
    await page.goto(`${example.origin}/?api=${encodeURIComponent(apiBase)}&app=${applicationId}`);
    // The page's module (and the bundle it imports) ran before the load event goto waited for.
    expect(watched.errors).toEqual([]);
    expect(await page.locator('#app').inputValue()).toBe(applicationId);
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Log in with Guildhall' }).click();
    // The popup; or, when the page failed before opening it, its error line or console error.
    const failed = Promise.race([
      page.locator('#login-error:not(:empty)').textContent(),
      page.waitForEvent('pageerror').then((error) => error.message),
    ]).then((text) => {
      throw new Error(`the page's login failed: ${text ?? ''} ${watched.errors.join('; ')}`);
    });
    failed.catch(() => undefined);
    const popup = await Promise.race([popupOpened, failed]);
    // Guildhall's own pages, on the server's origin: the login form, then the consent page.
    expect(new URL(popup.url()).origin).toBe(server.baseUrl);
    await popup.getByLabel('Email or username').fill(username);
    await popup.getByLabel('Password').fill(PASSWORD);
    await popup.getByRole('button', { name: 'Log in' }).click();
    const popupClosed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: 'Authorize' }).click();
    // callback.html hands the code to the page and closes the popup.
    await popupClosed;
    // Ready; or the error line, which then says why (the token exchange, the gateway).
    const refused = page
      .locator('#login-error:not(:empty)')
      .textContent()
      .then((text) => {
        throw new Error(`the page's login failed after the popup: ${text ?? ''}`);
      });
    refused.catch(() => undefined);
    await Promise.race([page.locator('#status', { hasText: 'Ready' }).waitFor(), refused]);
    await page.locator('#me', { hasText: `@${username}` }).waitFor();
    return watched;
  }

  const friend = (page: Page, userId: string) =>
    page.locator(`#friends li[data-user-id="${userId}"]`);

  it('two people log in through the popup, become friends, DM and talk in a lobby', async () => {
    const dev = await seedDeveloper(server.app);
    // The game's application: a public client (PKCE, no secret) redirecting to the page's origin.
    const patched = await fetch(`${server.baseUrl}/api/v10/applications/${dev.applicationId}`, {
      method: 'PATCH',
      headers: { authorization: dev.userToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        public_client: true,
        redirect_uris: [`${example.origin}/callback.html`],
        social_sdk_terms_accepted: true,
      }),
    });
    expect(patched.status).toBe(200);
    const adaId = await register('ada');
    const bobId = await register('bob');

    const ada = await logIn('ada', dev.applicationId);
    const bob = await logIn('bob', dev.applicationId);
    const a = ada.page;
    const b = bob.page;
    try {
      // A friend request by username; Bob accepts it live; both see a friend.
      await a.getByLabel('Username').fill('bob');
      await a.getByRole('button', { name: 'Send friend request' }).click();
      await friend(a, bobId).and(a.locator('[data-relationship="request sent"]')).waitFor();
      const request = friend(b, adaId).and(
        b.locator('[data-relationship="wants to be your friend"]'),
      );
      await request.waitFor();
      await request.getByRole('button', { name: 'Accept' }).click();
      await friend(b, adaId).and(b.locator('[data-relationship="friend"]')).waitFor();
      await friend(a, bobId).and(a.locator('[data-relationship="friend"]')).waitFor();

      // A DM: Ada opens the conversation from her friends list; Bob's opens when it arrives.
      await friend(a, bobId).getByRole('button', { name: 'Message' }).click();
      await a.locator('#dm-text').fill('hello bob');
      await a.locator('#dm-send').click();
      await b.locator('#dm-log li', { hasText: 'ada: hello bob' }).waitFor();
      await a.locator('#dm-log li', { hasText: 'ada: hello bob' }).waitFor();
      await b.locator('#dm-text').fill('hi ada');
      await b.locator('#dm-send').click();
      await a.locator('#dm-log li', { hasText: 'bob: hi ada' }).waitFor();

      // A lobby: both join by the same secret; Bob talks, both see it.
      await a.getByLabel('Secret').fill('match-42');
      await a.getByRole('button', { name: 'Create or join' }).click();
      await a.locator('#lobby-id', { hasText: /\d+/ }).waitFor();
      const lobbyId = await a.locator('#lobby-id').textContent();
      await b.getByLabel('Secret').fill('match-42');
      await b.getByRole('button', { name: 'Create or join' }).click();
      await b.locator('#lobby-id', { hasText: /\d+/ }).waitFor();
      expect(await b.locator('#lobby-id').textContent()).toBe(lobbyId);
      await a.locator(`#lobby-members li[data-user-id="${bobId}"]`).waitFor();
      await b.locator('#lobby-text').fill('ready when you are');
      await b.locator('#lobby-send').click();
      await a.locator('#lobby-log li', { hasText: 'bob: ready when you are' }).waitFor();
      await b.locator('#lobby-log li', { hasText: 'bob: ready when you are' }).waitFor();

      await screenshot(a, 'sdk-browser-example');
      expect(ada.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
      // The page's log never shows a token.
      const logText = (await a.locator('#log').textContent()) ?? '';
      expect(logText).toContain('Token updated.');
      expect(logText).not.toMatch(/Bearer [\w.~+/=-]{8,}/);
    } finally {
      await ada.context.close();
      await bob.context.close();
    }
  });
});
