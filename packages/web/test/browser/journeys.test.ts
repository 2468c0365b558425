/**
 * The journeys of issue 15 in a real browser: a new developer registers in the portal, makes an
 * app, copies its bot token, a discord.js bot logs in with it, the developer adds the bot to a
 * server made in the client and sees the bot answer live; privileged intents toggled in the
 * portal show through the API; an Interactions Endpoint URL that fails the PING check shows the
 * API's error under the field. Screenshots of the main screens go to artifacts/screenshots.
 *
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client,
  Events,
  GatewayIntentBits,
  type Message,
  type OmitPartialGroupDMChannel,
} from 'discord.js';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { once } from '../../../server/test/support/realClients.js';
import { seedDeveloper, type TestServer } from '../../../server/test/support/testServer.js';
import {
  describeBrowser,
  inPage,
  launchBrowser,
  openPage,
  screenshot,
  startWebServer,
} from './support.js';

/** The platform's flags of the three self-serve ("limited") privileged intents. */
const LIMITED = {
  presence: 1 << 13,
  members: 1 << 15,
  messageContent: 1 << 19,
};

/** An endpoint that answers every request with a PONG: it never checks signatures. */
async function careless(): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"type":1}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${String(port)}/interactions`, server };
}

describeBrowser('the journeys of a developer, in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    // Loopback endpoints may be checked (the careless one below).
    server = await startWebServer({ allowLocalWebhooks: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
  });

  /** A tab logged in to the portal through a one-time link, for a seeded developer. */
  async function portalAs(name: string) {
    const dev = await seedDeveloper(server.app, name);
    const { code } = await server.app.services.auth.createLoginLink(dev.userId);
    const watched = await openPage(browser);
    await watched.page.goto(
      `${server.baseUrl}/developers/login?next=${encodeURIComponent(
        `/developers/applications/${dev.applicationId}/bot`,
      )}#code=${code}`,
    );
    await watched.page.getByRole('heading', { name: 'Privileged Gateway Intents' }).waitFor();
    return { dev, ...watched };
  }

  it('registers, makes an app, runs its bot with the copied token and chats with it', async () => {
    const { page, context, errors, cspViolations } = await openPage(browser);
    /** Copies the "Bot token" field inside `where` with its Copy button; reads the clipboard. */
    const copyToken = async (where: Locator) => {
      const field = where.getByLabel('Bot token');
      await field.waitFor();
      const shown = await field.inputValue();
      await where
        .locator('.copy-field')
        .filter({ has: page.getByLabel('Bot token') })
        .getByRole('button', { name: 'Copy' })
        .click();
      const copied = String(await inPage(page, 'navigator.clipboard.readText()'));
      expect(copied).toBe(shown);
      expect(copied.split('.')).toHaveLength(3);
      return copied;
    };
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.baseUrl,
    });
    let bot: Client | null = null;
    try {
      // 1. A new developer registers in the portal.
      await page.goto(`${server.baseUrl}/developers/register`);
      await page.getByLabel('Email').fill('ada@example.test');
      await page.getByLabel('Username').fill('ada');
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Applications' }).waitFor();

      // 2. Creates an application: its first bot token is shown once, in the dialog.
      await page.getByRole('button', { name: 'New Application' }).click();
      const create = page.getByRole('dialog', { name: 'Create an application' });
      await create.getByLabel('Name').fill('Echo');
      await create.getByRole('button', { name: 'Create' }).click();
      const created = page.getByRole('dialog', { name: 'Application created' });
      const firstToken = await copyToken(created);
      await created.getByRole('button', { name: 'Open Echo' }).click();
      await page.getByRole('navigation', { name: 'Settings' }).waitFor();
      const appUrl = page.url().replace(/\/information$/, '');

      await page.goto(`${server.baseUrl}/developers/applications`);
      await page.getByRole('link', { name: /Echo/ }).first().waitFor();
      await screenshot(page, 'portal-applications');

      // 3. On the Bot page: turns on the Message Content intent (so the bot may read what it
      // answers), resets the token and copies the new one; the first stops working.
      await page.goto(`${appUrl}/bot`);
      const messageContent = page.getByRole('switch', { name: 'Message Content Intent' });
      await messageContent.click();
      await expect.poll(() => messageContent.isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Reset Token' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes, do it!' }).click();
      const token = await copyToken(page.getByRole('region', { name: 'Token' }));
      expect(token).not.toBe(firstToken);
      const withFirst = await fetch(`${server.baseUrl}/api/v10/users/@me`, {
        headers: { authorization: `Bot ${firstToken}` },
      });
      expect(withFirst.status).toBe(401);
      await screenshot(page, 'portal-bot');

      // 4. A discord.js bot logs in with the copied token and echoes what it reads.
      bot = new Client({
        intents: [
          GatewayIntentBits.Guilds,
          GatewayIntentBits.GuildMessages,
          GatewayIntentBits.MessageContent,
        ],
        rest: { api: `${server.baseUrl}/api` },
      });
      bot.on(Events.MessageCreate, (message: OmitPartialGroupDMChannel<Message>) => {
        if (message.author.bot || !message.content.startsWith('!echo ')) return;
        void message.reply(`echo: ${message.content.slice('!echo '.length)}`);
      });
      const ready = once(bot, Events.ClientReady);
      await bot.login(token);
      await ready;

      // 5. The developer makes a server in the client (the portal's session is the client's).
      await page.goto(`${server.baseUrl}/channels/@me`);
      await page
        .getByRole('navigation', { name: 'Servers' })
        .getByRole('button', { name: 'Add a Server' })
        .click();
      const createServer = page.getByRole('dialog', { name: 'Create a server' });
      await createServer.getByLabel('Server name').fill('Ada’s Lab');
      await createServer.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('link', { name: 'general (text channel)' }).waitFor();

      // 6. ...and adds the bot to it through the portal's OAuth2 URL generator.
      await page.goto(`${appUrl}/oauth2`);
      await page.getByRole('checkbox', { name: 'bot', exact: true }).check();
      const installUrl = await page.getByLabel('Generated URL').inputValue();
      expect(installUrl).toContain('scope=bot');
      const joined = once(bot, Events.GuildCreate);
      await page.goto(installUrl);
      // One sign-in: the consent page knows who registered in the portal, and asks no login.
      await page.getByLabel('Add to server').selectOption({ label: 'Ada’s Lab' });
      expect(await page.getByLabel('Password').count()).toBe(0);
      await page.getByRole('button', { name: 'Authorize' }).click();
      await joined;

      // 7. Opens the client, sends a message and sees the bot's answer arrive live.
      await page.goto(`${server.baseUrl}/channels/@me`);
      await page
        .getByRole('navigation', { name: 'Servers' })
        .getByRole('link', { name: 'Ada’s Lab' })
        .click();
      await page.getByRole('link', { name: 'general (text channel)' }).click();
      const composer = page.getByRole('textbox', { name: 'Message #general' });
      await composer.fill('!echo hello, bot');
      await composer.press('Enter');
      const messages = page.getByRole('log', { name: 'Messages' });
      await messages
        .getByRole('article', { name: /Echo/ })
        .filter({ hasText: 'echo: hello, bot' })
        .waitFor();
      await expect
        .poll(() => messages.getByRole('article').filter({ hasText: 'hello, bot' }).count())
        .toBe(2);
      await page.getByRole('complementary', { name: 'Members' }).getByText('Echo').waitFor();
      await screenshot(page, 'client-channel');

      expect(cspViolations()).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await bot?.destroy();
      await context.close();
    }
  });

  it('toggles privileged intents, and the API shows the change', async () => {
    const { dev, page, context, cspViolations } = await portalAs('intents');
    const flags = async () => {
      const answer = await fetch(`${server.baseUrl}/api/v10/applications/@me`, {
        headers: { authorization: `Bot ${dev.botToken}` },
      });
      return ((await answer.json()) as { flags: number }).flags;
    };
    try {
      const before = await flags();
      expect(before & LIMITED.presence).toBe(0);
      for (const name of ['Presence Intent', 'Server Members Intent', 'Message Content Intent']) {
        const toggle = page.getByRole('switch', { name });
        await toggle.click();
        await expect.poll(() => toggle.isChecked()).toBe(true);
      }
      await expect
        .poll(flags)
        .toBe(before | LIMITED.presence | LIMITED.members | LIMITED.messageContent);

      await page.getByRole('switch', { name: 'Server Members Intent' }).click();
      await expect.poll(flags).toBe(before | LIMITED.presence | LIMITED.messageContent);
      // A reload reads the saved state back from the API.
      await page.reload();
      await expect
        .poll(() => page.getByRole('switch', { name: 'Server Members Intent' }).isChecked())
        .toBe(false);
      expect(await page.getByRole('switch', { name: 'Presence Intent' }).isChecked()).toBe(true);
      expect(cspViolations()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows the API's error under an Interactions Endpoint URL that fails the check", async () => {
    const { dev, page, context, cspViolations } = await portalAs('endpoint');
    const endpoint = await careless();
    try {
      await page.goto(`${server.baseUrl}/developers/applications/${dev.applicationId}/information`);
      const field = page.getByLabel('Interactions Endpoint URL');
      await field.fill(endpoint.url);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      const error = page
        .locator('.field')
        .filter({ has: page.getByLabel('Interactions Endpoint URL') })
        .getByRole('alert')
        .filter({ hasText: 'The specified interactions endpoint url could not be verified.' });
      await error.waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      // In the middle of the screen, clear of the bar of unsaved changes.
      await inPage(
        page,
        `document.querySelector('[aria-invalid="true"]').scrollIntoView({ block: 'center' })`,
      );
      await screenshot(page, 'portal-interactions-url-error');
      const app = await server.app.storage.applications.findById(dev.applicationId);
      expect(app?.interactionsEndpointUrl).toBeNull();
      expect(cspViolations()).toEqual([]);
    } finally {
      await context.close();
      await new Promise((resolve) => endpoint.server.close(resolve));
    }
  });
});
