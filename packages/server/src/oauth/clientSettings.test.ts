import { expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { REDIRECT, basic, useOAuthFixture } from '../../test/support/oauthFixture.js';
import { uniqueName } from '../../test/support/fileServer.js';
import { seedDeveloper } from '../../test/support/testServer.js';

/**
 * The application's OAuth2 settings are enforced: bot_public, bot_require_code_grant and
 * device_flow_enabled, and the client endpoints refuse repeated parameters (docs/oauth.md).
 */
describeDrivers('OAuth2 client settings on $driver', (driver) => {
  const fx = useOAuthFixture(driver);
  const { inject, token, decide } = fx;

  const guildOf = async (ownerId: string) =>
    (
      await fx.server.app.services.guilds.create({
        ownerId,
        name: 'Install guild',
        channels: [{ name: 'general', type: 'text' }],
      })
    ).guild;
  const botMember = (guildId: string) =>
    fx.server.app.storage.members.find(guildId, fx.seed.botUserId);
  const patchApp = (payload: Record<string, unknown>, authorization = fx.seed.userToken) =>
    inject({
      method: 'PATCH',
      url: `/api/v10/applications/${fx.seed.applicationId}`,
      headers: { authorization },
      payload,
    });

  it('the owner sets the settings; a bot token cannot', async () => {
    const settings = {
      bot_public: false,
      bot_require_code_grant: true,
      device_flow_enabled: false,
    };
    const byBot = await inject({
      method: 'PATCH',
      url: '/api/v10/applications/@me',
      headers: { authorization: `Bot ${fx.seed.botToken}` },
      payload: settings,
    });
    expect(byBot.statusCode).toBe(200);
    expect(byBot.json()).toMatchObject({ bot_public: true, bot_require_code_grant: false });
    const byOwner = await patchApp(settings);
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.json()).toMatchObject({ bot_public: false, bot_require_code_grant: true });
    expect(await fx.server.app.storage.applications.findById(fx.seed.applicationId)).toMatchObject({
      botPublic: false,
      botRequireCodeGrant: true,
      deviceFlowEnabled: false,
    });
  });

  it('a private bot is added by its owner only (JSON decision)', async () => {
    const bob = await seedDeveloper(fx.server.app, uniqueName('bob'), 'bob app');
    const bobGuild = await guildOf(bob.userId);
    // Public (the default): anyone who manages a guild may add it.
    const publicInstall = await decide({ scope: 'bot', guild_id: bobGuild.id }, bob.userToken);
    expect(publicInstall.statusCode).toBe(200);
    expect(await botMember(bobGuild.id)).not.toBeNull();

    expect((await patchApp({ bot_public: false })).statusCode).toBe(200);
    const otherGuild = await guildOf(bob.userId);
    const refused = await decide({ scope: 'bot', guild_id: otherGuild.id }, bob.userToken);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'access_denied' });
    expect(await botMember(otherGuild.id)).toBeNull();

    const ownGuild = await guildOf(fx.seed.userId);
    const byOwner = await decide({ scope: 'bot', guild_id: ownGuild.id });
    expect(byOwner.statusCode).toBe(200);
    expect(await botMember(ownGuild.id)).not.toBeNull();
  });

  it('a private bot is added by its owner only (consent page)', async () => {
    expect((await patchApp({ bot_public: false })).statusCode).toBe(200);
    const bob = await seedDeveloper(fx.server.app, uniqueName('bob'), 'bob app');
    const guild = await guildOf(bob.userId);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: fx.seed.applicationId,
      scope: 'bot',
      redirect_uri: REDIRECT,
      guild_id: guild.id,
    }).toString();
    const page = (userToken: string) =>
      inject({
        method: 'GET',
        url: `/oauth2/authorize?${query}`,
        headers: { cookie: `guildhall_session=${userToken}` },
      });
    const refused = await page(bob.userToken);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('only its owner can add it');
    expect(refused.body).not.toContain('name="csrf_token"');
    // The owner gets the consent form.
    const owner = await page(fx.seed.userToken);
    expect(owner.statusCode).toBe(200);
    expect(owner.body).toContain('name="csrf_token"');
  });

  it('bot_require_code_grant refuses the install without a code', async () => {
    // No registered redirect: a bot-only install is the implicit add.
    await fx.server.app.storage.applications.update(fx.seed.applicationId, { redirectUris: [] });
    const guild = await guildOf(fx.seed.userId);
    const implicit = await decide({ scope: 'bot', guild_id: guild.id });
    expect(implicit.statusCode).toBe(200);
    expect(implicit.json()).toMatchObject({ location: null, guild: { id: guild.id } });

    expect((await patchApp({ bot_require_code_grant: true })).statusCode).toBe(200);
    const second = await guildOf(fx.seed.userId);
    const refused = await decide({ scope: 'bot', guild_id: second.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'invalid_request' });
    expect(refused.json<{ error_description: string }>().error_description).toMatch(/code grant/);
    expect(await botMember(second.id)).toBeNull();
    const page = await inject({
      method: 'GET',
      url: `/oauth2/authorize?${new URLSearchParams({ client_id: fx.seed.applicationId, scope: 'bot' }).toString()}`,
      headers: { cookie: `guildhall_session=${fx.seed.userToken}` },
    });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('requires the code grant');

    // Through the code grant (a registered redirect, response_type=code) the install works.
    await fx.server.app.storage.applications.update(fx.seed.applicationId, {
      redirectUris: [REDIRECT],
    });
    const granted = await decide({ scope: 'bot', guild_id: second.id, redirect_uri: REDIRECT });
    expect(granted.statusCode).toBe(200);
    const location = new URL(granted.json<{ location: string }>().location);
    expect(location.searchParams.get('code')).not.toBeNull();
    expect(location.searchParams.get('guild_id')).toBe(second.id);
    expect(await botMember(second.id)).not.toBeNull();
  });

  const startDevice = () =>
    inject({
      method: 'POST',
      url: '/api/v10/oauth2/device/authorize',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(fx.seed),
      },
      payload: 'scope=identify',
    });

  it('the device flow is accepted only when the application enabled it', async () => {
    const started = await startDevice();
    expect(started.statusCode).toBe(200);
    const { device_code: deviceCode } = started.json<{ device_code: string }>();

    expect((await patchApp({ device_flow_enabled: false })).statusCode).toBe(200);
    const refused = await startDevice();
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'unauthorized_client' });
    // A device code issued before the switch is not redeemable after it either.
    const poll = await token(
      { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode },
      basic(fx.seed),
    );
    expect(poll.statusCode).toBe(400);
    expect(poll.json()).toMatchObject({ error: 'unauthorized_client' });

    // A new application starts with the device flow off.
    const bob = await seedDeveloper(fx.server.app, uniqueName('bob'), 'bob app');
    expect(
      (await fx.server.app.storage.applications.findById(bob.applicationId))?.deviceFlowEnabled,
    ).toBe(false);
  });

  it('a repeated parameter at the token endpoint is invalid_request', async () => {
    const raw = (payload: string, url = '/api/oauth2/token') =>
      inject({
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(fx.seed),
        },
        payload,
      });
    const { code } = await fx.codeFor();
    for (const payload of [
      `grant_type=authorization_code&grant_type=client_credentials&code=${code}`,
      `grant_type=authorization_code&code=${code}&code=other&redirect_uri=${encodeURIComponent(REDIRECT)}`,
      'grant_type=client_credentials&scope=identify&scope=identify',
    ]) {
      const res = await raw(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request' });
      expect(res.json<{ error_description: string }>().error_description).toMatch(
        /included more than once/,
      );
    }
    // Revocation and device authorization refuse them too.
    expect((await raw('token=a&token=b', '/api/v10/oauth2/token/revoke')).json()).toMatchObject({
      error: 'invalid_request',
    });
    expect(
      (await raw('scope=identify&scope=email', '/api/v10/oauth2/device/authorize')).json(),
    ).toMatchObject({ error: 'invalid_request' });
    // Each parameter once (unknown ones may repeat): the request goes through.
    const once = await raw('grant_type=client_credentials&scope=identify&x=1&x=2');
    expect(once.statusCode).toBe(200);
  });
});
