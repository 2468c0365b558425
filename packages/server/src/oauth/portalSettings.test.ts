import { PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { REDIRECT, challenge, useOAuthFixture, verifier } from '../../test/support/oauthFixture.js';
import { apiRequest } from '../../test/support/inject.js';

/** What the portal's settings change in the authorization endpoint. */
describeDrivers('OAuth2 and the portal settings on $driver', (driver) => {
  const fx = useOAuthFixture(driver);
  const { decide } = fx;

  const settings = (payload: object) =>
    apiRequest(fx.server.app, `PATCH /applications/${fx.seed.applicationId}`, {
      auth: fx.seed.userToken,
      payload,
    });
  /** The answer sent back to the redirect URI: its error, or its code. */
  const outcome = async (payload: Record<string, unknown>) => {
    const res = await decide({ redirect_uri: REDIRECT, ...payload });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json<{ location: string }>().location);
    return { error: url.searchParams.get('error'), code: url.searchParams.get('code') };
  };
  const pkce = () => ({ code_challenge: challenge(verifier()), code_challenge_method: 'S256' });

  it('relationships.read needs the Social SDK terms accepted', async () => {
    const before = await outcome({ scope: 'identify relationships.read', ...pkce() });
    expect(before.error).toBe('invalid_scope');
    // The Social SDK's own meta-scope is not held to it.
    expect((await outcome({ scope: 'sdk.social_layer_presence', ...pkce() })).error).toBeNull();

    expect((await settings({ social_sdk_terms_accepted: true })).statusCode).toBe(200);
    const after = await outcome({ scope: 'identify relationships.read', ...pkce() });
    expect(after.error).toBeNull();
    expect(after.code).not.toBeNull();

    // Withdrawn, the gate is back; the device flow holds to it as well.
    await settings({ social_sdk_terms_accepted: false });
    expect((await outcome({ scope: 'relationships.read', ...pkce() })).error).toBe('invalid_scope');
    const device = await fx.inject({
      method: 'POST',
      url: '/api/oauth2/device/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        client_id: fx.seed.applicationId,
        client_secret: fx.seed.clientSecret,
        scope: 'relationships.read',
      }).toString(),
    });
    expect(device.statusCode).toBe(400);
    expect(device.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('an install link without scopes takes the default install settings', async () => {
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: fx.seed.userId,
      name: 'Ada guild',
      channels: [{ name: 'general', type: 'text' }],
    });
    // No defaults yet: a link without scope is refused.
    expect((await outcome({ guild_id: guild.id })).error).toBe('invalid_scope');

    const permissions = (P.SEND_MESSAGES | P.VIEW_CHANNEL).toString();
    const set = await settings({
      integration_types_config: {
        '0': { oauth2_install_params: { scopes: ['bot', 'applications.commands'], permissions } },
        '1': { oauth2_install_params: { scopes: ['applications.commands'] } },
      },
    });
    expect(set.statusCode).toBe(200);
    const res = await decide({ guild_id: guild.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ guild: { id: guild.id } });
    const roles = await fx.server.app.storage.roles.listByGuild(guild.id);
    expect(roles.find((r) => r.managed && r.botUserId === fx.seed.botUserId)?.permissions).toBe(
      BigInt(permissions),
    );
    const authorization = await fx.server.app.storage.oauth.findAuthorization(
      fx.seed.userId,
      fx.seed.applicationId,
    );
    expect(authorization).toMatchObject({ integrationType: 0 });
    expect(authorization?.scopes).toEqual(expect.arrayContaining(['applications.commands', 'bot']));

    // integration_type=1 takes the user context's defaults: a user install, no bot.
    const user = await outcome({ integration_type: 1 });
    expect(user.error).toBeNull();
    expect(
      await fx.server.app.storage.oauth.findAuthorization(fx.seed.userId, fx.seed.applicationId),
    ).toMatchObject({ integrationType: 1 });
  });

  it('a context turned off in the installation settings cannot be installed to', async () => {
    await settings({ integration_types_config: { '0': {} } });
    expect(
      (await outcome({ scope: 'applications.commands', integration_type: 1, ...pkce() })).error,
    ).toBe('invalid_request');
    // A login (no install) is not an installation context.
    expect((await outcome({ scope: 'identify', ...pkce() })).error).toBeNull();
  });
});
