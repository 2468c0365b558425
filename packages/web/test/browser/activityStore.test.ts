/**
 * An activity's store in the web client, in Chromium: the example activity (the official
 * embedded app SDK, unchanged) lists its app's SKUs (GET_SKUS_EMBEDDED) and the person's
 * entitlements (GET_ENTITLEMENTS_EMBEDDED); Buy asks START_PURCHASE, the client shows its purchase
 * dialog, a test purchase is made, and ENTITLEMENT_CREATE marks the SKU owned in the activity.
 * Its moments: a picture uploaded through the client (INITIATE_IMAGE_UPLOAD) and shared in a DM
 * (OPEN_SHARE_MOMENT_DIALOG). Its score: the app's /score command run for the person
 * (SHARE_INTERACTION), answered by the app's bot.
 *
 * @module
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startActivityBackend } from '../../../../examples/activity/backend.js';
import { identifyGateway } from '../../../server/test/support/gatewayClient.js';
import { authorizeActivity, describeBrowser, screenshot, useWebServer } from './support.js';

describeBrowser("an activity's store in the web client", () => {
  // The example backend listens on loopback: the proxy may reach it only with this switch.
  const fx = useWebServer({ activityAllowLoopback: true });
  const { api } = fx;
  let backend: { port: number; close: () => Promise<void> } | null = null;
  /** The app with the example activity (its developer's), and its activity origin. */
  let appId = '';
  let dev: { token: string; user_id: string };
  let botToken = '';
  beforeAll(async () => {
    // A developer's app, with the example backend as its activity (the root URL mapping).
    dev = await register('dev');
    const created = await fx.server.app.services.applications.create(dev.user_id, {
      name: 'Tiles',
    });
    appId = created.application.id;
    botToken = created.botToken;
    backend = await startActivityBackend({
      clientId: appId,
      clientSecret: created.clientSecret,
      apiUrl: `${fx.server.baseUrl}/api/v10`,
      port: 0,
    });
    await api(dev.token, `PATCH /applications/${appId}/embedded-activity-config`, {
      url_mappings: [{ prefix: '/', target: `127.0.0.1:${String(backend.port)}` }],
    });
  });
  afterAll(async () => {
    await backend?.close();
  });

  const register = (name: string) =>
    fx.server.app.services.auth.register({
      email: `${name}@example.test`,
      username: name,
      password: 'correct horse battery',
    });

  const openClient = (token: string, path: string) => fx.openAs(token, path);

  /**
   * Opens the person's DM with `other` in the client, launches the app's activity there and
   * authorizes it: the DM, the page and the activity's frame, once it says Playing.
   */
  const playInDm = async (token: string, other: { id: string; name: string }) => {
    const dm = await api<{ id: string }>(token, 'POST /users/@me/channels', {
      recipient_id: other.id,
    });
    const watched = await openClient(token, `/channels/@me/${dm.id}`);
    try {
      const { page } = watched;
      await page.getByRole('textbox', { name: `Message @${other.name}` }).waitFor();
      await api(token, `POST /channels/${dm.id}/activity-instances`, { application_id: appId });
      await authorizeActivity(watched, 'Tiles');
      const activity = page.frameLocator('iframe.activity-frame').frameLocator('iframe');
      await activity.getByText('Playing').waitFor();
      return { dm, watched, page, activity };
    } catch (err) {
      await watched.context.close();
      throw err;
    }
  };

  it('buys a SKU: the purchase dialog, a test purchase, ENTITLEMENT_CREATE to the frame', async () => {
    await api(dev.token, `POST /applications/${appId}/skus`, { name: 'Sword', type: 2 });
    const eve = await register('eve');
    const { watched, page, activity } = await playInDm(dev.token, {
      id: eve.user_id,
      name: 'eve',
    });
    try {
      // GET_SKUS_EMBEDDED and GET_ENTITLEMENTS_EMBEDDED: the Sword, not owned yet.
      await activity.getByRole('button', { name: 'Buy Sword' }).click();
      // START_PURCHASE: the client's purchase dialog; buying makes a test purchase.
      const dialog = page.getByRole('dialog', { name: 'Buy Sword' });
      await screenshot(page, 'activity-purchase');
      await dialog.getByRole('button', { name: 'Buy' }).click();
      // ENTITLEMENT_CREATE reached the activity.
      await activity.getByText('Sword (owned)').waitFor();
      const owned = await api<{ sku_id: string; user_id: string; type: number }[]>(
        dev.token,
        `GET /users/@me/applications/${appId}/entitlements`,
      );
      expect(owned).toMatchObject([{ user_id: dev.user_id, type: 4 }]);
      expect(watched.cspViolations()).toEqual([]);
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });

  it('uploads a picture for the activity and shares it as a moment in a DM', async () => {
    // Fay is no part of the app: the client uploads for her because she is in its instance.
    const fay = await register('fay');
    const { dm, watched, page, activity } = await playInDm(fay.token, {
      id: dev.user_id,
      name: 'dev',
    });
    try {
      // INITIATE_IMAGE_UPLOAD: the client's dialog; Cancel is an error to the activity.
      const upload = page.getByRole('dialog', { name: 'Upload an image' });
      await activity.getByRole('button', { name: 'Upload a picture' }).click();
      await upload.getByRole('button', { name: 'Cancel' }).click();
      await activity.getByText('not uploaded (The upload was cancelled)').waitFor();
      await activity.getByRole('button', { name: 'Upload a picture' }).click();
      await upload.getByLabel('Image').setInputFiles({
        name: 'moment.png',
        mimeType: 'image/png',
        buffer: PNG,
      });
      await upload.getByRole('button', { name: 'Upload' }).click();
      await activity.getByText(/^uploaded: http/).waitFor();
      const text = (await activity.locator('#picture').textContent()) ?? '';
      const imageUrl = text.replace('uploaded: ', '');
      const served = await fetch(imageUrl);
      expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
      // OPEN_SHARE_MOMENT_DIALOG: Fay picks the DM; the link is sent there as her message.
      await activity.getByRole('button', { name: 'Share it' }).click();
      const share = page.getByRole('dialog', { name: 'Share' });
      await share.getByLabel('Send to').selectOption({ label: '@dev' });
      await share.getByRole('button', { name: 'Send' }).click();
      await activity.getByText('shared', { exact: true }).waitFor();
      const messages = await api<{ content: string; author: { id: string } }[]>(
        fay.token,
        `GET /channels/${dm.id}/messages`,
      );
      expect(messages[0]).toMatchObject({ content: imageUrl, author: { id: fay.user_id } });
      expect(watched.cspViolations()).toEqual([]);
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });

  it("runs the app's /score command for the person (SHARE_INTERACTION)", async () => {
    // The app's command, for user installs, and Gus installed it to his account.
    const bot = `Bot ${botToken}`;
    await api(bot, `POST /applications/${appId}/commands`, {
      name: 'score',
      description: 'Posts a score',
      options: [{ type: 4, name: 'points', description: 'Points', required: true }],
      integration_types: [1],
      contexts: [0, 1, 2],
    });
    const gus = await register('gus');
    await fx.server.app.storage.oauth.upsertAuthorization({
      id: String(BigInt(gus.user_id) + 7n),
      userId: gus.user_id,
      applicationId: appId,
      scopes: ['applications.commands'],
      integrationType: 1,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    const { client: gateway } = await identifyGateway(fx.server.app.gatewayUrl(), {
      token: botToken,
      intents: 0,
    });
    const { dm, watched, activity } = await playInDm(gus.token, {
      id: dev.user_id,
      name: 'dev',
    });
    try {
      const created = gateway.dispatch('INTERACTION_CREATE');
      await activity.getByRole('button', { name: 'Post my score' }).click();
      const interaction = (await created).d as {
        id: string;
        token: string;
        channel_id: string;
        user: { id: string };
        data: { name: string; options: unknown[] };
      };
      expect(interaction).toMatchObject({
        channel_id: dm.id,
        user: { id: gus.user_id },
        data: { name: 'score', options: [{ type: 4, name: 'points', value: 42 }] },
      });
      await api('', `POST /interactions/${interaction.id}/${interaction.token}/callback`, {
        type: 4,
        data: { content: 'Gus scored 42' },
      });
      await activity.getByText('posted', { exact: true }).waitFor();
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.context.close();
      await gateway.close();
    }
  });
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
