/**
 * The browser tests' harness: a real Guildhall server (in this process, listening on a loopback
 * port, serving the built pages) and Debian's Chromium driven by playwright-core.
 *
 * Chromium is looked for once per run (packages/server/test/support/globalSetup.ts): without it
 * the browser tests skip with the reason printed, except under CI=true, where the run fails (as
 * for PostgreSQL). The pages must be built (`npm test` builds them first, in `pretest`).
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { Config } from '../../../server/src/config.js';
import { TEST_CHROMIUM_PATH } from '../../../server/test/support/serviceUrls.js';
import { startTestServer, type TestServer } from '../../../server/test/support/testServer.js';

/** The repository root, where `artifacts/` (gitignored) collects screenshots. */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The build the server serves (`npm run build -w packages/web`). */
export const WEB_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
export const SCREENSHOT_DIR = `${REPO_ROOT}artifacts/screenshots`;
/** The size of the screenshots docs/web.md shows. */
export const VIEWPORT = { width: 1280, height: 800 };

/** Why the browser tests cannot run here (null: they can). Under CI=true globalSetup failed first. */
const chromiumFailure = inject('chromiumFailure');

/** A journey takes several seconds in a browser, more on a busy 2-core CI machine. */
const BROWSER_TEST_MS = 90_000;

/**
 * Declares browser tests: skipped (the reason printed once per run by globalSetup) when there is
 * no Chromium outside CI.
 */
export function describeBrowser(title: string, body: () => void): void {
  describe.skipIf(chromiumFailure !== null)(title, { timeout: BROWSER_TEST_MS }, body);
}

/** Flags for a browser in a container, without a display, GPU or network of its own. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** A server on a loopback port serving the built pages, with the demo turned off. */
export async function startWebServer(config: Partial<Config> = {}): Promise<TestServer> {
  if (!existsSync(`${WEB_DIST}index.html`)) {
    throw new Error(
      `The pages are not built (${WEB_DIST}index.html is missing): run npm run build (npm test does it first).`,
    );
  }
  return startTestServer({
    listen: true,
    config: { webDir: WEB_DIST, ...config },
    gateway: { identifiesPerBucket: 1000 },
  });
}

/** A browser tab and what its console said: errors, and CSP violations among them. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions, in order. */
  errors: string[];
  /** The console's Content-Security-Policy reports. */
  cspViolations: () => string[];
  /** Requests of the page and its frames that failed or were answered 4xx or 5xx, in order. */
  failedRequests: string[];
}

/** A fresh context (its own localStorage: its own session) and tab, watched for errors. */
export async function openPage(browser: Browser): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'dark' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => {
    errors.push(`uncaught: ${error.stack ?? error.message}`);
  });
  const failedRequests: string[] = [];
  page.on('requestfailed', (request) => {
    failedRequests.push(
      `${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`,
    );
  });
  page.on('response', (response) => {
    if (response.status() >= 400) {
      failedRequests.push(
        `${response.request().method()} ${response.url()}: ${String(response.status())}`,
      );
    }
  });
  return {
    page,
    context,
    errors,
    failedRequests,
    cspViolations: () => errors.filter((text) => /Content Security Policy/i.test(text)),
  };
}

/** Saves `artifacts/screenshots/<name>.png`, for a reviewer (CI keeps the folder). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png` });
}

/**
 * The value of a JavaScript expression in the page (a string, as these tests are compiled
 * without the DOM's types).
 */
export function inPage(page: Page, expression: string): Promise<unknown> {
  return page.evaluate(expression);
}

/** The file's server and browser, and what the tests of a file share over them. */
export interface WebFixture {
  readonly server: TestServer;
  readonly browser: Browser;
  /** A JSON call to the API (`'POST /path'`) with a token ('' for none); throws on an error. */
  api: <T>(token: string, route: string, body?: unknown) => Promise<T>;
  /** A new page signed in with `token`, as the login page leaves it, opened at `path`. */
  openAs: (token: string, path: string) => Promise<WatchedPage>;
}

/** One server and one browser for the file (before and after all its tests). */
export function useWebServer(config: Partial<Config> = {}): WebFixture {
  let started: { server: TestServer; browser: Browser } | undefined;
  beforeAll(async () => {
    started = { server: await startWebServer(config), browser: await launchBrowser() };
  });
  afterAll(async () => {
    await started?.browser.close();
    await started?.server.close();
  });
  const current = () => {
    if (started === undefined) throw new Error('no web server: outside its describe block');
    return started;
  };
  return {
    get server() {
      return current().server;
    },
    get browser() {
      return current().browser;
    },
    api: async <T>(token: string, route: string, body?: unknown) => {
      const [method = 'GET', path = '/'] = route.split(' ');
      const response = await fetch(`${current().server.baseUrl}/api/v10${path}`, {
        method,
        headers: {
          ...(token === '' ? {} : { Authorization: token }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${text}`);
      return (text === '' ? undefined : JSON.parse(text)) as T;
    },
    openAs: async (token: string, path: string) => {
      const watched = await openPage(current().browser);
      // The client's page only: init scripts run in every frame, an activity's too.
      await watched.context.addInitScript({
        content: `if (window === window.top) localStorage.setItem('token', ${JSON.stringify(token)});`,
      });
      await watched.page.goto(`${current().server.baseUrl}${path}`);
      return watched;
    },
  };
}

/**
 * Clicks Authorize on an activity's consent dialog (its AUTHORIZE). When the dialog does not
 * come, the error says what the example activity's page shows (its status line), what the
 * console said and which requests failed, and a screenshot is kept (`failed-consent`).
 */
export async function authorizeActivity(watched: WatchedPage, appName: string): Promise<void> {
  const { page } = watched;
  try {
    await page
      .getByRole('dialog', { name: `${appName} wants to access your account` })
      .getByRole('button', { name: 'Authorize' })
      .click();
  } catch (error) {
    const status = await page
      .frameLocator('iframe.activity-frame')
      .frameLocator('iframe')
      .locator('#status')
      .textContent({ timeout: 2_000 })
      .catch(() => 'no activity page');
    await screenshot(page, 'failed-consent').catch(() => undefined);
    const seen = [
      `the activity's status: ${status ?? ''}`,
      `console errors: ${JSON.stringify(watched.errors)}`,
      `failed requests: ${JSON.stringify(watched.failedRequests)}`,
    ];
    throw new Error(`No consent dialog for ${appName}. ${seen.join('; ')}`, { cause: error });
  }
}
