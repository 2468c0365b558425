/**
 * An activity built with the official `@discord/embedded-app-sdk` (2.5.0, unchanged: its ESM
 * build served by the example backend, examples/activity/) runs in the web client in Chromium:
 * a person launches it from a voice channel, the SDK completes the handshake, AUTHORIZE shows
 * the consent (clicked), the activity's backend exchanges the code behind the proxy host,
 * AUTHENTICATE, the backend checks proxy authentication's signed headers (and again after
 * REQUEST_PROXY_TICKET_REFRESH), a member's speaking in the channel reaches it as SPEAKING_START
 * and SPEAKING_STOP, SET_ACTIVITY reaches a friend as PRESENCE_UPDATE, the
 * participants are listed, and leaving ends the instance. No console error, no CSP violation.
 *
 * @module
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { identifyGateway } from '../../../server/test/support/gatewayClient.js';
import { joinCallAt, speakerIn } from '../../../server/test/support/voiceCalls.js';
import { startActivityBackend } from '../../../../examples/activity/backend.js';
import {
  authorizeActivity,
  describeBrowser,
  screenshot,
  useWebServer,
  type WatchedPage,
} from './support.js';

/** Guilds, members, voice states, presences, DMs: what a person's client asks for. */
const PERSON_INTENTS = (1 << 0) | (1 << 1) | (1 << 7) | (1 << 8) | (1 << 12);

describeBrowser('an embedded-app-sdk activity in the web client', () => {
  // The example backend listens on loopback: the proxy may reach it only with this switch.
  const fx = useWebServer({ activityAllowLoopback: true });
  const { api } = fx;
  let backend: { port: number; close: () => Promise<void> } | null = null;
  /** The app with the example activity (its developer's), and its activity origin. */
  let appId = '';
  let config: { activity_origin: string };
  beforeAll(async () => {
    // A developer's app, with the example backend as its activity (the root URL mapping).
    const dev = await register('dev');
    const created = await fx.server.app.services.applications.create(dev.user_id, {
      name: 'Tiles',
    });
    appId = created.application.id;
    const stored = await fx.server.app.storage.applications.findById(appId);
    backend = await startActivityBackend({
      clientId: appId,
      clientSecret: created.clientSecret,
      publicKey: stored?.verifyKey ?? '',
      apiUrl: `${fx.server.baseUrl}/api/v10`,
      port: 0,
    });
    config = await api<{ activity_origin: string }>(
      dev.token,
      `PATCH /applications/${appId}/embedded-activity-config`,
      { url_mappings: [{ prefix: '/', target: `127.0.0.1:${String(backend.port)}` }] },
    );
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

  /** A person in the call of `channelId` from a voice client of theirs, who can speak. */
  const inCall = async (token: string, guildId: string, channelId: string) => {
    const seat = await joinCallAt(fx.server.app.gatewayUrl(), token, { guildId, channelId });
    const { voice, speak } = await speakerIn(seat);
    return {
      speak,
      close: () => {
        voice.raw.terminate();
        seat.client.raw.terminate();
      },
    };
  };

  it('launches, authorizes, authenticates and sets a presence a friend sees', async () => {
    const ada = await register('ada');
    const bob = await register('bob');
    // Friends: Bob will see Ada's presence.
    await api(ada.token, `PUT /users/@me/relationships/${bob.user_id}`, {});
    await api(bob.token, `PUT /users/@me/relationships/${ada.user_id}`, {});

    // Installed to Ada's account (what the consent page records for a user install).
    await fx.server.app.storage.oauth.upsertAuthorization({
      id: String(BigInt(ada.user_id) + 7n),
      userId: ada.user_id,
      applicationId: appId,
      scopes: ['applications.commands'],
      integrationType: 1,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });

    // A server with a voice channel.
    const guild = await api<{ id: string }>(ada.token, 'POST /guilds', { name: 'Game night' });
    const voice = await api<{ id: string }>(ada.token, `POST /guilds/${guild.id}/channels`, {
      name: 'Lounge',
      type: 2,
    });

    const { client: friend } = await identifyGateway(fx.server.app.gatewayUrl(), {
      token: bob.token,
      intents: PERSON_INTENTS,
    });
    const watched = await openClient(ada.token, `/channels/${guild.id}`);
    const others: WatchedPage[] = [];
    try {
      const { page } = watched;
      await page.getByRole('button', { name: 'Activities in Lounge' }).click();
      const shelf = page.getByRole('dialog', { name: 'Activities' });
      await shelf.getByRole('button', { name: 'Launch Tiles' }).click();

      const dock = page.getByRole('region', { name: 'Activity: Tiles' });
      await dock.waitFor();
      // AUTHORIZE: the consent for the scopes the activity asked for, in the server page's words.
      const consent = page.getByRole('dialog', { name: 'Tiles wants to access your account' });
      await consent
        .getByRole('listitem')
        .filter({ hasText: 'Update your activity through your running client' })
        .getByText('(rpc.activities.write)')
        .waitFor();
      await screenshot(page, 'activity-consent');
      await consent.getByRole('button', { name: 'Authorize' }).click();

      // The relay on the activity origin frames the activity, also on it.
      const relay = page.frameLocator('iframe.activity-frame');
      const activity = relay.frameLocator('iframe');
      await activity.getByText('Playing').waitFor();
      await expect(activity.locator('#user').textContent()).resolves.toBe('ada');
      await expect(activity.locator('#participants li').allTextContents()).resolves.toEqual([
        'ada',
      ]);
      // Proxy authentication: the backend checked the signed headers the proxy host sent for the
      // frame's ticket, then for a new one (REQUEST_PROXY_TICKET_REFRESH) in the page's address.
      await expect(activity.locator('#proxy').textContent()).resolves.toBe(
        `signed for ${ada.user_id}`,
      );
      await activity.getByRole('button', { name: 'New ticket' }).click();
      await activity.getByText(`signed for ${ada.user_id} (new ticket)`).waitFor();

      // Cy, in the server, talks in Lounge from his voice client: the activity hears
      // SPEAKING_START and SPEAKING_STOP (the client follows the channel with op 1001).
      const cy = await register('cy');
      const cyInvite = await api<{ code: string }>(
        ada.token,
        `POST /channels/${voice.id}/invites`,
        {},
      );
      await api(cy.token, `POST /invites/${cyInvite.code}`, {});
      const talker = await inCall(cy.token, guild.id, voice.id);
      try {
        await expect(activity.locator('#speaking').textContent()).resolves.toBe('nobody');
        talker.speak(1);
        await activity.locator('#speaking', { hasText: cy.user_id }).waitFor();
        talker.speak(0);
        await activity.locator('#speaking', { hasText: 'nobody' }).waitFor();
      } finally {
        talker.close();
      }
      await screenshot(page, 'activity-playing');

      // The frame is where the config says, and the activity is in it.
      const frameSrc = await page.locator('iframe.activity-frame').getAttribute('src');
      expect(frameSrc?.startsWith(`${config.activity_origin}/.guildhall/frame?`)).toBe(true);

      // SET_ACTIVITY: Bob's session sees Ada's rich presence, named after the app.
      const presence = await friend.next(
        (f) =>
          f.t === 'PRESENCE_UPDATE' &&
          (f.d as { user: { id: string }; activities: { application_id?: string }[] }).user.id ===
            ada.user_id &&
          (f.d as { activities: { application_id?: string }[] }).activities.some(
            (a) => a.application_id === appId,
          ),
      );
      expect(
        (presence.d as { activities: Record<string, unknown>[] }).activities.find(
          (a) => a['application_id'] === appId,
        ),
      ).toMatchObject({
        name: 'Tiles',
        type: 0,
        details: 'Trying the example activity',
        state: 'In the lobby',
      });

      // Bob joins the server, then the running instance from his client: the activity's
      // participants (ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE) list both, in both frames.
      const invite = await api<{ code: string }>(
        ada.token,
        `POST /channels/${voice.id}/invites`,
        {},
      );
      await api(bob.token, `POST /invites/${invite.code}`, {});
      const bobs = await openClient(bob.token, `/channels/${guild.id}`);
      others.push(bobs);
      await bobs.page.getByRole('button', { name: 'Join Tiles' }).click();
      await authorizeActivity(bobs, 'Tiles');
      const bobsActivity = bobs.page.frameLocator('iframe.activity-frame').frameLocator('iframe');
      await bobsActivity.getByText('Playing').waitFor();
      const both = ['ada', 'bob'];
      for (const frame of [activity, bobsActivity]) {
        // Playwright waits for the second row; then the rows are exactly both.
        await frame.locator('#participants li').nth(1).waitFor();
        await expect(frame.locator('#participants li').allTextContents()).resolves.toEqual(both);
      }
      await dock.getByText('2 participants').waitFor();
      await screenshot(page, 'activity-two-participants');

      // Ada leaves: her frame closes and her presence is cleared; Bob's frame sees her go.
      await dock.getByRole('button', { name: 'Leave Activity' }).click();
      await dock.waitFor({ state: 'detached' });
      await friend.next(
        (f) =>
          f.t === 'PRESENCE_UPDATE' &&
          (f.d as { user: { id: string } }).user.id === ada.user_id &&
          !(f.d as { activities: { application_id?: string }[] }).activities.some(
            (a) => a.application_id === appId,
          ),
      );
      await bobsActivity
        .locator('#participants li', { hasText: 'ada' })
        .waitFor({ state: 'detached' });
      await expect(bobsActivity.locator('#participants li').allTextContents()).resolves.toEqual([
        'bob',
      ]);
      // Bob leaves too: the instance ends.
      await bobs.page
        .getByRole('region', { name: 'Activity: Tiles' })
        .getByRole('button', { name: 'Leave Activity' })
        .click();
      await bobs.page
        .getByRole('region', { name: 'Activity: Tiles' })
        .waitFor({ state: 'detached' });
      await expect(
        api<unknown[]>(ada.token, `GET /channels/${voice.id}/activity-instances`),
      ).resolves.toEqual([]);

      for (const other of others) {
        expect(other.cspViolations()).toEqual([]);
        expect(other.errors).toEqual([]);
      }
      expect(watched.cspViolations()).toEqual([]);
      expect(watched.errors).toEqual([]);
    } finally {
      await friend.close();
      await watched.context.close();
      for (const other of others) await other.context.close();
    }
  });

  it('opens the frame in a DM when a launch names the person (EMBEDDED_ACTIVITY_UPDATE)', async () => {
    const cat = await register('cat');
    const dan = await register('dan');
    const dm = await api<{ id: string }>(cat.token, 'POST /users/@me/channels', {
      recipient_id: dan.user_id,
    });
    const watched = await openClient(cat.token, `/channels/@me/${dm.id}`);
    try {
      const { page } = watched;
      await page.getByRole('textbox', { name: 'Message @dan' }).waitFor();
      // Launched outside the client (as an app's LAUNCH_ACTIVITY answer does): the gateway event
      // names Cat as the launcher, and her client opens the frame.
      await api(cat.token, `POST /channels/${dm.id}/activity-instances`, {
        application_id: appId,
      });
      const dock = page.getByRole('region', { name: 'Activity: Tiles' });
      await dock.waitFor();
      const frameSrc = new URL(
        (await page.locator('iframe.activity-frame').getAttribute('src')) ?? '',
      );
      expect(frameSrc.origin).toBe(config.activity_origin);
      expect(frameSrc.searchParams.get('channel_id')).toBe(dm.id);
      // A DM has no guild: the SDK's guildId is null.
      expect(frameSrc.searchParams.has('guild_id')).toBe(false);
      await authorizeActivity(watched, 'Tiles');
      const activity = page.frameLocator('iframe.activity-frame').frameLocator('iframe');
      await activity.getByText('Playing').waitFor();
      await expect(activity.locator('#channel').textContent()).resolves.toBe(dm.id);
      // The conversation's header lists what runs in it.
      await page.getByRole('list', { name: 'Activities' }).getByText('Tiles (1)').waitFor();
      await dock.getByRole('button', { name: 'Leave Activity' }).click();
      await dock.waitFor({ state: 'detached' });
      expect(watched.cspViolations()).toEqual([]);
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });
});
