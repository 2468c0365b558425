import { PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { REDIRECT, basic, useOAuthFixture, verifier } from '../../test/support/oauthFixture.js';
import { uniqueName } from '../../test/support/fileServer.js';
import { seedDeveloper } from '../../test/support/testServer.js';

/** Regression tests for the security review of the OAuth2 core (docs/oauth.md). */
describeDrivers('OAuth2 security review fixes on $driver', (driver) => {
  const fx = useOAuthFixture(driver);
  const { clock, inject, token, decide, codeFor } = fx;

  const redeem = (grant: { code: string; verifier: string }) =>
    token(
      {
        grant_type: 'authorization_code',
        code: grant.code,
        redirect_uri: REDIRECT,
        code_verifier: grant.verifier,
      },
      basic(fx.seed),
    );

  it('H1: a bot token cannot change redirect_uris or public_client', async () => {
    const res = await inject({
      method: 'PATCH',
      url: '/api/v10/applications/@me',
      headers: { authorization: `Bot ${fx.seed.botToken}` },
      payload: {
        redirect_uris: ['https://evil.example.test/cb'],
        public_client: true,
        description: 'still editable',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ redirect_uris: [REDIRECT], description: 'still editable' });
    expect(await fx.server.app.storage.applications.findById(fx.seed.applicationId)).toMatchObject({
      redirectUris: [REDIRECT],
      publicClient: false,
    });
  });

  const revoke = (refreshToken: string) =>
    inject({
      method: 'POST',
      url: '/api/v10/oauth2/token/revoke',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(fx.seed),
      },
      payload: new URLSearchParams({ token: refreshToken }).toString(),
    });

  const startDevice = async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/device/authorize',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(fx.seed),
      },
      payload: 'scope=identify',
    });
    expect(res.statusCode).toBe(200);
    const device = res.json<{ device_code: string; user_code: string }>();
    const verified = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/device/verify',
      headers: { authorization: fx.seed.userToken },
      payload: { user_code: device.user_code, authorize: true },
    });
    expect(verified.statusCode).toBeLessThan(300);
    return device;
  };
  const pollDevice = (deviceCode: string) =>
    token(
      { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode },
      basic(fx.seed),
    );

  it('H2: a revoke kills outstanding codes and device codes; they cannot revive it', async () => {
    const first = await redeem(await codeFor());
    expect(first.statusCode).toBe(200);
    const pending = await codeFor();
    const device = await startDevice();
    expect((await revoke(first.json<{ refresh_token: string }>().refresh_token)).statusCode).toBe(
      200,
    );
    const late = await redeem(pending);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await pollDevice(device.device_code)).json()).toMatchObject({
      error: 'invalid_grant',
    });
    const authorization = await fx.server.app.storage.oauth.findAuthorization(
      fx.seed.userId,
      fx.seed.applicationId,
    );
    expect(authorization?.revokedAt).not.toBeNull();
    // A consent given after the revoke works again.
    expect((await redeem(await codeFor())).statusCode).toBe(200);
  });

  it('H2: a code cannot revive a revoked authorization', async () => {
    const pending = await codeFor();
    // The authorization is revoked without touching the codes (as an older server left it).
    const authorization = await fx.server.app.storage.oauth.findAuthorization(
      fx.seed.userId,
      fx.seed.applicationId,
    );
    await fx.server.app.storage.oauth.markRevoked(authorization?.id ?? '', clock.now());
    const late = await redeem(pending);
    expect(late.json()).toMatchObject({ error: 'invalid_grant' });
    expect(
      (await fx.server.app.storage.oauth.findAuthorization(fx.seed.userId, fx.seed.applicationId))
        ?.revokedAt,
    ).not.toBeNull();
  });

  it('H2: a banned user gets no tokens from a code given before the ban', async () => {
    const pending = await codeFor();
    const device = await startDevice();
    await fx.server.app.services.provisional.ban(fx.seed.userId, {
      reason: 'test',
      durationSeconds: null,
    });
    expect((await redeem(pending)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await pollDevice(device.device_code)).json()).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it("M3: another app's client cannot burn a code; a refused verifier does not burn it", async () => {
    const grant = await codeFor();
    const other = await seedDeveloper(fx.server.app, uniqueName('eve'), 'eve app');
    const foreign = await token(
      {
        grant_type: 'authorization_code',
        code: grant.code,
        redirect_uri: REDIRECT,
        code_verifier: grant.verifier,
      },
      basic(other),
    );
    expect(foreign.json()).toMatchObject({ error: 'invalid_grant' });
    const wrong = await redeem({ code: grant.code, verifier: verifier() });
    expect(wrong.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await redeem(grant)).statusCode).toBe(200);
  });

  it('M1/M3: concurrent redemptions of one device code or code: one wins', async () => {
    const device = await startDevice();
    const polls = await Promise.all([
      pollDevice(device.device_code),
      pollDevice(device.device_code),
    ]);
    expect(polls.map((r) => r.statusCode).sort()).toEqual([200, 400]);

    const grant = await codeFor();
    const [a, b] = await Promise.all([redeem(grant), redeem(grant)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    // The reuse revoked what the code bought, even though the two raced.
    const winner = a.statusCode === 200 ? a : b;
    const me = await inject({
      method: 'GET',
      url: '/api/v10/oauth2/@me',
      headers: {
        authorization: `Bearer ${winner.json<{ access_token: string }>().access_token}`,
      },
    });
    expect(me.statusCode).toBe(401);
  });

  it('M3: a refresh racing a revoke leaves no live token behind', async () => {
    const first = await redeem(await codeFor());
    const issued = first.json<{ refresh_token: string; access_token: string }>();
    // The revoke names the access token, which the refresh does not rotate: it always finds the
    // authorization, whichever of the two commits first.
    const [refreshed, revoked] = await Promise.all([
      token({ grant_type: 'refresh_token', refresh_token: issued.refresh_token }, basic(fx.seed)),
      revoke(issued.access_token),
    ]);
    expect(revoked.statusCode).toBe(200);
    if (refreshed.statusCode === 200) {
      const me = await inject({
        method: 'GET',
        url: '/api/v10/oauth2/@me',
        headers: {
          authorization: `Bearer ${refreshed.json<{ access_token: string }>().access_token}`,
        },
      });
      expect(me.statusCode).toBe(401);
    } else {
      expect(refreshed.json()).toMatchObject({ error: 'invalid_grant' });
    }
  });

  it('H3: a bot install grants only what the installer holds, masked to known bits, at position 1', async () => {
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: fx.seed.userId,
      name: 'Ada guild',
      channels: [{ name: 'general', type: 'text' }],
    });
    const storage = fx.server.app.storage;
    const moderatorRole = await storage.roles.create({
      id: '1100000000000000001',
      guildId: guild.id,
      name: 'moderator',
      permissions: P.MANAGE_GUILD | P.VIEW_CHANNEL,
      position: 1,
      color: 0,
      hoist: false,
      mentionable: false,
      managed: false,
      botUserId: null,
      flags: 0,
    });
    const bob = await seedDeveloper(fx.server.app, uniqueName('bob'), 'bob app');
    await storage.members.add({
      guildId: guild.id,
      userId: bob.userId,
      nick: null,
      joinedAt: clock.now(),
      deaf: false,
      mute: false,
      flags: 0,
      roleIds: [moderatorRole.id],
    });
    const install = (permissions: bigint, userToken: string) =>
      decide({ scope: 'bot', permissions: permissions.toString(), guild_id: guild.id }, userToken);

    const escalation = await install(P.ADMINISTRATOR, bob.userToken);
    expect(escalation.statusCode).toBe(400);
    expect(escalation.json()).toMatchObject({ error: 'invalid_request' });
    expect(await storage.members.find(guild.id, fx.seed.botUserId)).toBeNull();

    // The owner may grant anything; unknown bits are dropped.
    const granted = await install((1n << 60n) | P.ADMINISTRATOR, fx.seed.userToken);
    expect(granted.statusCode).toBe(200);
    const roles = await storage.roles.listByGuild(guild.id);
    const managed = roles.find((r) => r.managed && r.botUserId === fx.seed.botUserId);
    expect(managed).toMatchObject({ permissions: P.ADMINISTRATOR, position: 1 });
    expect(roles.find((r) => r.id === moderatorRole.id)?.position).toBe(2);
    expect(roles.find((r) => r.id === guild.id)?.position).toBe(0);
  });

  it('H3: a moderator may install with permissions they hold', async () => {
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: fx.seed.userId,
      name: 'Ada guild',
      channels: [{ name: 'general', type: 'text' }],
    });
    const role = await fx.server.app.storage.roles.create({
      id: '1100000000000000002',
      guildId: guild.id,
      name: 'moderator',
      permissions: P.MANAGE_GUILD | P.VIEW_CHANNEL | P.SEND_MESSAGES,
      position: 1,
      color: 0,
      hoist: false,
      mentionable: false,
      managed: false,
      botUserId: null,
      flags: 0,
    });
    const bob = await seedDeveloper(fx.server.app, uniqueName('bob'), 'bob app');
    await fx.server.app.storage.members.add({
      guildId: guild.id,
      userId: bob.userId,
      nick: null,
      joinedAt: clock.now(),
      deaf: false,
      mute: false,
      flags: 0,
      roleIds: [role.id],
    });
    const res = await decide(
      {
        scope: 'bot',
        permissions: (P.VIEW_CHANNEL | P.SEND_MESSAGES).toString(),
        guild_id: guild.id,
      },
      bob.userToken,
    );
    expect(res.statusCode).toBe(200);
    expect(await fx.server.app.storage.members.find(guild.id, fx.seed.botUserId)).not.toBeNull();
  });

  it('L5: a login next with CR/LF falls back to /activate, not a 500', async () => {
    const login = await fx.pageLogin('/activate\r\nX-Injected: 1');
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe('/activate');
  });

  it('L4: an unreadable token request body gets the RFC 6749 body', async () => {
    for (const url of ['/api/oauth2/token', '/api/v10/oauth2/token/revoke']) {
      const res = await inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"grant_type":',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('L6: a refreshed ID token does not claim a fresh login (auth_time)', async () => {
    const first = await redeem(await codeFor('openid identify'));
    const claims = (jwt: string) =>
      JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as {
        auth_time?: number;
      };
    const issued = first.json<{ id_token: string; refresh_token: string }>();
    expect(claims(issued.id_token).auth_time).toBe(Math.floor(clock.now() / 1000));
    clock.advance(3_600_000);
    const refreshed = await token(
      { grant_type: 'refresh_token', refresh_token: issued.refresh_token },
      basic(fx.seed),
    );
    expect(refreshed.statusCode).toBe(200);
    expect(claims(refreshed.json<{ id_token: string }>().id_token).auth_time).toBeUndefined();
  });
});
