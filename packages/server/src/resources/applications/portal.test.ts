import { ApplicationFlags } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { fabricatedId, registration, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { PNG_1X1 } from '../../../test/support/expressionFixtures.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';

/** A small review threshold, so the self-serve rule is reached with a handful of rows. */
const THRESHOLD = 4;

describeDrivers('the portal settings of an application on $driver', (driver) => {
  let server: TestServer;
  let f: GuildFixture;

  const shared = useFileServer({
    storage: driver,
    gateway: { privilegedIntentReviewThreshold: THRESHOLD },
  });
  beforeEach(async () => {
    server = shared.server;
    f = await guildFixture(server, { botPermissions: 0n });
  });

  const appPath = () => `/applications/${f.bot.applicationId}`;
  const patch = (payload: object, auth = f.owner.token, path = appPath()) =>
    f.call('PATCH', path, { auth, payload });
  const get = async () => {
    const res = await f.call('GET', appPath(), f.owner.token);
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'GET', appPath());
    return res.json<Record<string, unknown>>();
  };

  it('renames the app and leaves its bot username alone', async () => {
    const res = await patch({ name: 'Renamed' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Renamed', bot: { username: 'owner app' } });
    const refused = await patch({ name: '@everyone' });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json<{ errors: object }>().errors)).toEqual(['name']);
    // A bot token cannot rename: the field is not in the platform's ApplicationFormPartial.
    await patch({ name: 'By bot' }, f.bot.token, '/applications/@me');
    expect(await get()).toMatchObject({ name: 'Renamed' });
  });

  it('keeps install settings, from the owner and from the bot token', async () => {
    const fresh = await get();
    expect(fresh['integration_types_config']).toEqual({ '0': {}, '1': {} });
    expect(fresh).not.toHaveProperty('install_params');
    expect(fresh).not.toHaveProperty('custom_install_url');

    const res = await patch(
      {
        install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
        integration_types_config: {
          '0': { oauth2_install_params: { scopes: ['bot'], permissions: 3072 } },
        },
        custom_install_url: 'https://example.test/install',
      },
      f.bot.token,
      '/applications/@me',
    );
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'PATCH', '/applications/@me');
    expect(res.json()).toMatchObject({
      install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
      integration_types_config: {
        '0': { oauth2_install_params: { scopes: ['bot'], permissions: '3072' } },
      },
      custom_install_url: 'https://example.test/install',
    });
    // Only the guild context is left: the user one was turned off.
    expect(Object.keys((await get())['integration_types_config'] as object)).toEqual(['0']);

    const cleared = await patch({ install_params: null, custom_install_url: null });
    expectOpenApiResponse(cleared, 'PATCH', appPath());
    expect(cleared.json()).not.toHaveProperty('install_params');
    expect(cleared.json()).not.toHaveProperty('custom_install_url');
  });

  it('refuses install settings the platform would refuse, field by field', async () => {
    const cases: [object, string[]][] = [
      [{ install_params: { scopes: ['identify'], permissions: '0' } }, ['install_params']],
      [{ install_params: { scopes: [], permissions: '0' } }, ['install_params']],
      [{ install_params: { scopes: ['bot'], permissions: String(1n << 60n) } }, ['install_params']],
      [
        { integration_types_config: { '1': { oauth2_install_params: { scopes: ['bot'] } } } },
        ['integration_types_config'],
      ],
      [{ integration_types_config: {} }, ['integration_types_config']],
      [{ integration_types_config: { '2': {} } }, ['integration_types_config']],
      [{ custom_install_url: 'javascript:alert(1)' }, ['custom_install_url']],
      [{ connection_entrypoint_url: 'ftp://x.test/' }, ['connection_entrypoint_url']],
    ];
    for (const [payload, fields] of cases) {
      const res = await patch(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const body = res.json<{ code: number; errors: object }>();
      expect(body.code).toBe(50035);
      expect(Object.keys(body.errors)).toEqual(fields);
    }
    const userBot = await patch({
      integration_types_config: { '1': { oauth2_install_params: { scopes: ['bot'] } } },
    });
    expect(JSON.stringify(userBot.json())).toContain('A user install cannot have the bot scope.');
  });

  it('sets private channel obfuscation and the Social SDK settings (owner only)', async () => {
    expect(await get()).toMatchObject({
      private_channel_obfuscation: false,
      social_sdk_terms_accepted: false,
      connection_entrypoint_url: null,
    });
    const res = await patch({
      private_channel_obfuscation: true,
      social_sdk_terms_accepted: true,
      connection_entrypoint_url: 'https://game.example/connect',
    });
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'PATCH', appPath());
    expect(res.json()).toMatchObject({
      private_channel_obfuscation: true,
      social_sdk_terms_accepted: true,
      connection_entrypoint_url: 'https://game.example/connect',
    });
    // What the gateway handshake reads.
    expect(await server.app.storage.gateway.privateChannelObfuscation(f.bot.applicationId)).toBe(
      true,
    );
    // The bot token's PATCH ignores the owner's settings (as it ignores redirect_uris).
    await patch(
      { private_channel_obfuscation: false, social_sdk_terms_accepted: false },
      f.bot.token,
      '/applications/@me',
    );
    expect(await get()).toMatchObject({
      private_channel_obfuscation: true,
      social_sdk_terms_accepted: true,
    });
  });

  it('shows the OAuth2 client switches it keeps', async () => {
    expect(await get()).toMatchObject({ public_client: false, device_flow_enabled: false });
    const res = await patch({ public_client: true, device_flow_enabled: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ public_client: true, device_flow_enabled: true });
    expect(await get()).toMatchObject({ public_client: true, device_flow_enabled: true });
  });

  it('counts distinct users: guild members and user installs, each once', async () => {
    // The owner is in the bot's guild; the bot itself is not counted.
    expect(await get()).toMatchObject({ approximate_user_count: 1 });
    const ada = await f.join('ada');
    await f.join('bob');
    const install = (userId: string, integrationType: 0 | 1) =>
      server.app.storage.oauth.upsertAuthorization({
        id: fabricatedId(f.bot.applicationId),
        userId,
        applicationId: f.bot.applicationId,
        scopes: ['applications.commands'],
        integrationType,
        createdAt: Date.now(),
        updatedAt: Date.now(),
      });
    const cy = await server.app.services.auth.register(registration('cy'));
    const dee = await server.app.services.auth.register(registration('dee'));
    await install(ada.userId, 1); // also a member: counted once
    await install(cy.user_id, 1);
    await install(dee.user_id, 0); // a guild install is not a user install
    expect(await get()).toMatchObject({ approximate_user_count: 4 });
  });

  it('self-serve privileged intents below the threshold, a review from it', async () => {
    const presence = Number(ApplicationFlags.GATEWAY_PRESENCE_LIMITED);
    const members = Number(ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED);
    const on = await patch({ flags: presence });
    expect(on.statusCode).toBe(200);
    for (const name of ['p1', 'p2', 'p3']) await f.join(name);
    // 4 users now: turning on another limited flag needs a review.
    const refused = await patch({ flags: presence | members });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 50035,
      errors: { flags: { _errors: [{ code: 'PRIVILEGED_INTENTS_REVIEW_REQUIRED' }] } },
    });
    expect(JSON.stringify(refused.json())).toContain('review');
    // The bot token is held to the same rule.
    const asBot = await patch({ flags: presence | members }, f.bot.token, '/applications/@me');
    expect(asBot.statusCode).toBe(400);
    // Keeping what is on, and turning flags off, are always allowed.
    expect((await patch({ flags: presence })).statusCode).toBe(200);
    const off = await patch({ flags: 0 });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ flags: 0 });
    expect((await patch({ flags: presence })).statusCode).toBe(400);
  });

  it('keeps a cover image, served beside the icon and shown on activity invites', async () => {
    const res = await patch({ cover_image: PNG_1X1 });
    expect(res.statusCode, res.body).toBe(200);
    const cover = res.json<{ cover_image?: string }>().cover_image;
    expect(cover).toMatch(/^[0-9a-f]{32}$/);
    expect(await get()).toMatchObject({ cover_image: cover });
    const image = await server.app.http.inject({
      method: 'GET',
      url: `/app-icons/${f.bot.applicationId}/${String(cover)}.png`,
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');

    // An invite to the app's activity carries it: what the invite shows.
    const channel = await f.call('POST', `/guilds/${f.guildId}/channels`, {
      auth: f.owner.token,
      payload: { name: 'Lounge', type: 2 },
    });
    const invite = await f.call('POST', `/channels/${channel.json<{ id: string }>().id}/invites`, {
      auth: f.owner.token,
      payload: { target_type: 2, target_application_id: f.bot.applicationId },
    });
    expect(invite.statusCode, invite.body).toBe(200);
    expect(invite.json()).toMatchObject({ target_application: { cover_image: cover } });

    // null removes it; a bad image is 50035 on the field.
    expect((await patch({ cover_image: null })).json()).not.toHaveProperty('cover_image');
    const bad = await patch({ cover_image: 'data:image/png;base64,AAAA' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 50035, errors: { cover_image: {} } });
  });

  it('only the owner changes the settings', async () => {
    const stranger = await f.join('stranger');
    const res = await patch({ private_channel_obfuscation: true }, stranger.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 10002 });
    expect(await get()).toMatchObject({ private_channel_obfuscation: false });
  });
});
