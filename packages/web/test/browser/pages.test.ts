/**
 * The served pages in a real browser: the CSP they are sent with holds (nothing the pages do
 * breaks it), the one-time login link of the start banner logs the portal in, and one sign-in
 * carries across the client, the portal and the consent pages.
 *
 * @module
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestServer } from '../../../server/test/support/testServer.js';
import { seedDeveloper } from '../../../server/test/support/testServer.js';
import {
  describeBrowser,
  inPage,
  launchBrowser,
  openPage,
  screenshot,
  startWebServer,
} from './support.js';

describeBrowser('the served pages in Chromium', () => {
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

  it('are sent with a strict CSP, and render without breaking it', async () => {
    const { page, context, errors, cspViolations } = await openPage(browser);
    try {
      for (const path of ['/login', '/register', '/developers/login']) {
        const response = await page.goto(`${server.baseUrl}${path}`);
        const csp = response?.headers()['content-security-policy'] ?? '';
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("style-src 'self'");
        expect(csp).not.toContain('unsafe-inline');
        await page.getByRole('button', { name: /Log in|Continue/ }).waitFor();
        // The stylesheet applied: the CSP let the built CSS file in.
        const background = await inPage(
          page,
          'getComputedStyle(document.documentElement).backgroundColor',
        );
        expect(background).not.toBe('rgba(0, 0, 0, 0)');
      }
      expect(cspViolations()).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("logs the portal in with a one-time link, which leaves the address bar and can't be reused", async () => {
    const dev = await seedDeveloper(server.app, 'linked');
    const { code } = await server.app.services.auth.createLoginLink(dev.userId);
    const first = await openPage(browser);
    try {
      await first.page.goto(`${server.baseUrl}/developers/login#code=${code}`);
      await first.page.waitForURL(`${server.baseUrl}/developers/applications`);
      expect(await inPage(first.page, "localStorage.getItem('token')")).toEqual(expect.any(String));
      expect(await inPage(first.page, 'location.hash')).toBe('');
      expect(first.cspViolations()).toEqual([]);
      // Replaced, not pushed: no history entry holds the code either.
      await first.page.goBack();
      expect(first.page.url()).toBe('about:blank');
    } finally {
      await first.context.close();
    }

    // Another browser with the same (used) link gets the message and the normal form.
    const second = await openPage(browser);
    try {
      await second.page.goto(`${server.baseUrl}/developers/login#code=${code}`);
      await expect
        .poll(() => second.page.getByRole('alert').first().textContent())
        .toContain('This login link is invalid, used or expired.');
      await second.page.getByLabel('Email or username').waitFor();
      await screenshot(second.page, 'login-link-used');
      expect(await inPage(second.page, "localStorage.getItem('token')")).toBeNull();
    } finally {
      await second.context.close();
    }
  });

  it('one sign-in: the link signs the consent page in, and a consent-page login signs the client in', async () => {
    const dev = await seedDeveloper(server.app, 'onesign', 'one sign app');
    await server.app.storage.applications.update(dev.applicationId, {
      redirectUris: ['http://127.0.0.1:1/callback'],
    });
    const consent = `${server.baseUrl}/oauth2/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: dev.applicationId,
      scope: 'identify',
      redirect_uri: 'http://127.0.0.1:1/callback',
    }).toString()}`;
    const { code } = await server.app.services.auth.createLoginLink(dev.userId);
    const linked = await openPage(browser);
    try {
      // The banner's one link: the client's login page, then the portal and a consent page.
      await linked.page.goto(`${server.baseUrl}/login#code=${code}`);
      await linked.page.waitForURL(`${server.baseUrl}/channels/@me`);
      await linked.page.goto(`${server.baseUrl}/developers/applications`);
      await linked.page.getByText('one sign app').first().waitFor();
      await linked.page.goto(consent);
      await linked.page.getByRole('button', { name: 'Authorize' }).waitFor();
      expect(await linked.page.getByLabel('Password').count()).toBe(0);
      expect(linked.errors).toEqual([]);
    } finally {
      await linked.context.close();
    }

    const consentFirst = await openPage(browser);
    try {
      // Signed in on the consent page first: the client then needs no second login.
      await consentFirst.page.goto(consent);
      await consentFirst.page.getByLabel(/Email or username/).fill('onesign');
      await consentFirst.page.getByLabel('Password').fill('correct horse battery');
      await consentFirst.page.getByRole('button', { name: /Log in/ }).click();
      await consentFirst.page.getByRole('button', { name: 'Authorize' }).waitFor();
      await consentFirst.page.goto(`${server.baseUrl}/login`);
      await consentFirst.page.waitForURL(`${server.baseUrl}/channels/@me`);
      expect(await inPage(consentFirst.page, "localStorage.getItem('token')")).toEqual(
        expect.any(String),
      );
      expect(consentFirst.errors).toEqual([]);
      // Logging out of the client signs the consent page out too.
      await inPage(
        consentFirst.page,
        "fetch('/api/v10/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { Authorization: localStorage.getItem('token') } }).then((r) => r.status)",
      );
      // A request the client's page still had in flight when its token was revoked fails (401):
      // the client's business, not the consent page's. The page is left before that is counted.
      await consentFirst.page.goto('about:blank');
      consentFirst.errors.length = 0;
      await consentFirst.page.goto(consent);
      await consentFirst.page.getByLabel('Password').waitFor();
      expect(consentFirst.errors).toEqual([]);
    } finally {
      await consentFirst.context.close();
    }
  });
});
