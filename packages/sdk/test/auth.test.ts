/**
 * Account linking against a real server through the Node build: PKCE authorize on the loopback
 * listener → getToken → updateToken → connect, refresh, revoke (the connected client is closed
 * with 4004), the loopback listener's refusals, timeout and abort, and the token operations'
 * failures.
 */
import { describe, expect, it } from 'vitest';
import {
  AuthorizationArgs,
  AuthorizationCodeChallenge,
  AuthorizationTokenType,
  Client,
  ClientError,
  ClientStatus,
  ErrorType,
  IntegrationType,
  SdkError,
  type AuthorizeResult,
  type ClientStatus as Status,
} from '../src/node.js';
import { expandScopes } from '../../server/src/oauth/index.js';
import { LOOPBACK_REDIRECT, consentAs, makePublicClient, person } from './authSupport.js';
import { connectReady, describeDrivers, eventually, useSdkWorld } from './support.js';

async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SdkError);
    return error as SdkError;
  }
  throw new Error('expected a rejection');
}

function thrown(run: () => unknown): SdkError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SdkError);
    return error as SdkError;
  }
  throw new Error('expected an SdkError');
}

describeDrivers('SDK account linking ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('authorize (PKCE, loopback) → getToken → updateToken → connect; refresh; revoke', async () => {
    await makePublicClient(world());
    const ada = await person(world(), 'ada');
    const consent = consentAs(world(), ada);
    const client = await world().client(null, { platform: { openUrl: consent.openUrl } });
    client.setApplicationId(world().dev.applicationId);
    const logs: string[] = [];
    client.addLogCallback((line) => logs.push(line));

    const verifier = await client.createAuthorizationCodeVerifier();
    expect(verifier.verifier()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifier.challenge().challenge()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const args = new AuthorizationArgs();
    args.setScopes(client.getDefaultCommunicationScopes());
    args.setCodeChallenge(verifier.challenge());
    args.setNonce('n-0S6_WzA2Mj');
    const { code, redirectUri } = await client.authorize(args);

    // The page the SDK opened: the server's authorize page with the loopback redirect.
    const opened = new URL(consent.opened[0] ?? '');
    expect(opened.origin + opened.pathname).toBe(`${world().server.baseUrl}/oauth2/authorize`);
    expect(opened.searchParams.get('redirect_uri')).toBe(redirectUri);
    expect(opened.searchParams.get('code_challenge_method')).toBe('S256');
    expect(opened.searchParams.get('scope')).toBe('openid sdk.social_layer');
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(code.length).toBeGreaterThan(20);

    const tokens = await client.getToken(
      world().dev.applicationId,
      code,
      verifier.verifier(),
      redirectUri,
    );
    expect(tokens.tokenType).toBe(AuthorizationTokenType.Bearer);
    expect(tokens.expiresIn).toBe(604800);
    expect(tokens.scopes.split(' ')).toEqual(
      expect.arrayContaining(['sdk.social_layer', 'lobbies.write', 'openid']),
    );
    expect(tokens.refreshToken).not.toBe('');
    expect(tokens.idToken).not.toBeNull();
    // The same code a second time: used up.
    const replay = await rejection(
      client.getToken(world().dev.applicationId, code, verifier.verifier(), redirectUri),
    );
    expect(replay).toMatchObject({
      type: ErrorType.AuthorizationFailed,
      oauthError: 'invalid_grant',
    });
    expect(replay.message).toMatch(/authorize again/);

    // The replay revoked what the code bought (RFC 6749 §4.1.2): authorize afresh.
    const again = await client.authorize(args);
    const fresh = await client.getToken(
      world().dev.applicationId,
      again.code,
      verifier.verifier(),
      again.redirectUri,
    );

    // Refresh: new tokens, and the old refresh token stops working.
    const refreshed = await client.refreshToken(world().dev.applicationId, fresh.refreshToken);
    expect(refreshed.accessToken).not.toBe(fresh.accessToken);
    const stale = await rejection(
      client.refreshToken(world().dev.applicationId, fresh.refreshToken),
    );
    expect(stale).toMatchObject({
      type: ErrorType.AuthorizationFailed,
      oauthError: 'invalid_grant',
    });

    await client.updateToken(AuthorizationTokenType.Bearer, refreshed.accessToken);
    expect(client.isAuthenticated()).toBe(true);
    await connectReady(client);
    const me = await world().api<{ id: string }>('GET', '/users/@me', {
      auth: `Bearer ${refreshed.accessToken}`,
    });
    expect(me.body.id).toBe(ada.id);

    // Revoke (unlink): the connected client is closed with 4004 and says what to do.
    const statuses: [Status, ClientError, number][] = [];
    client.setStatusChangedCallback((status, error, detail) =>
      statuses.push([status, error, detail]),
    );
    await client.revokeToken(world().dev.applicationId, refreshed.refreshToken);
    await eventually(
      () => (client.getStatus() === ClientStatus.Disconnected ? true : undefined),
      'the revoked client to disconnect',
    );
    expect(statuses.at(-1)).toEqual([ClientStatus.Disconnected, ClientError.UnexpectedClose, 4004]);
    expect(logs.join('\n')).toMatch(/4004.*revoked/);
    const afterRevoke = await rejection(
      client.refreshToken(world().dev.applicationId, refreshed.refreshToken),
    );
    expect(afterRevoke.oauthError).toBe('invalid_grant');
    // No token reached the log at any level.
    for (const secret of [refreshed.accessToken, refreshed.refreshToken, fresh.accessToken, code]) {
      expect(logs.join('\n')).not.toContain(secret);
    }
  });

  it('the person declines: authorize rejects with access_denied', async () => {
    await makePublicClient(world());
    const bo = await person(world(), 'bo');
    const consent = consentAs(world(), bo, { approve: false });
    const client = await world().client(null, { platform: { openUrl: consent.openUrl } });
    client.setApplicationId(world().dev.applicationId);
    const args = new AuthorizationArgs();
    args.setScopes(client.getDefaultPresenceScopes());
    // A public client without a PKCE challenge: the server's error comes back through the redirect.
    const noChallenge = await rejection(client.authorize(args));
    expect(noChallenge).toMatchObject({
      type: ErrorType.AuthorizationFailed,
      oauthError: 'invalid_request',
    });
    expect(noChallenge.message).toMatch(/refused the authorization: invalid_request/);
    args.setCodeChallenge((await client.createAuthorizationCodeVerifier()).challenge());
    const error = await rejection(client.authorize(args));
    expect(error).toMatchObject({
      type: ErrorType.AuthorizationFailed,
      oauthError: 'access_denied',
    });
    expect(error.message).toMatch(/declined/);
  });

  it('the listener ignores a wrong state, answers 404 elsewhere, and closes after the code', async () => {
    await makePublicClient(world());
    const cy = await person(world(), 'cy');
    const right = consentAs(world(), cy);
    let listener = '';
    let forged = { status: 0, text: '' };
    let elsewhere = 0;
    const client = await world().client(null, {
      platform: {
        openUrl: async (url) => {
          listener = new URL(url).searchParams.get('redirect_uri') ?? '';
          // Another tab (or a page guessing the port) with another state: refused, still waiting.
          const wrong = await fetch(`${listener}?code=stolen&state=not-it`);
          forged = { status: wrong.status, text: await wrong.text() };
          elsewhere = (await fetch(new URL('/favicon.ico', listener))).status;
          await right.openUrl(url);
        },
      },
    });
    client.setApplicationId(world().dev.applicationId);
    const verifier = await client.createAuthorizationCodeVerifier();
    const args = new AuthorizationArgs();
    args.setScopes('identify');
    args.setCodeChallenge(verifier.challenge());
    args.setState('my-own-state');
    const result = await client.authorize(args);
    expect(forged.status).toBe(400);
    expect(forged.text).toMatch(/does not belong/);
    expect(elsewhere).toBe(404);
    expect(result.code).not.toBe('stolen');
    expect(new URL(right.redirected[0] ?? '').searchParams.get('state')).toBe('my-own-state');
    // Closed: nothing listens on the port any more.
    await expect(fetch(listener)).rejects.toThrow();
    const tokens = await client.getToken(
      world().dev.applicationId,
      result.code,
      verifier.verifier(),
      result.redirectUri,
    );
    expect(tokens.scopes).toBe('identify');
  });

  it('a confidential app refuses the public client exchange with a clear error', async () => {
    // Registered redirect, but public_client off: the code comes, the exchange is refused.
    await world().api('PATCH', `/applications/${world().dev.applicationId}`, {
      auth: world().dev.userToken,
      json: { redirect_uris: [LOOPBACK_REDIRECT] },
    });
    const di = await person(world(), 'di');
    const consent = consentAs(world(), di);
    const client = await world().client(null, { platform: { openUrl: consent.openUrl } });
    const verifier = await client.createAuthorizationCodeVerifier();
    const args = new AuthorizationArgs();
    args.setClientId(world().dev.applicationId);
    args.setScopes('identify');
    args.setCodeChallenge(verifier.challenge());
    args.setIntegrationType(IntegrationType.UserInstall);
    const result = await client.authorize(args);
    const error = await rejection(
      client.getToken(
        world().dev.applicationId,
        result.code,
        verifier.verifier(),
        result.redirectUri,
      ),
    );
    expect(error).toMatchObject({
      type: ErrorType.AuthorizationFailed,
      status: 401,
      oauthError: 'invalid_client',
    });
    expect(error.message).toMatch(/public_client/);
    // An unregistered redirect never reaches the listener: the server shows its error instead.
    const refused = await world().api('POST', '/oauth2/authorize', {
      auth: di.session,
      json: {
        client_id: world().dev.applicationId,
        scope: 'identify',
        redirect_uri: 'http://localhost:9999/callback',
        authorize: true,
      },
    });
    expect(refused.status).toBe(400);
  });
});

describeDrivers('SDK authorize requests ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('the person asks from the web client; only their SDK sessions of that game are called', async () => {
    await makePublicClient(world());
    const ivy = await person(world(), 'ivy');
    const appId = world().dev.applicationId;
    const other = await world().server.app.services.applications.create(world().dev.userId, {
      name: 'another game',
    });
    const sdkToken = async (applicationId: string) =>
      (
        await world().server.app.services.oauth.issueTokens({
          userId: ivy.id,
          applicationId,
          // Stored expanded, as every grant stores them (issueTokens' contract).
          scopes: expandScopes(['openid', 'sdk.social_layer']),
          refresh: false,
        })
      ).access_token;
    const consent = consentAs(world(), ivy);
    const game = await world().client(null, { platform: { openUrl: consent.openUrl } });
    await game.updateToken(AuthorizationTokenType.Bearer, await sdkToken(appId));
    const elsewhere = await world().client();
    await elsewhere.updateToken(
      AuthorizationTokenType.Bearer,
      await sdkToken(other.application.id),
    );
    const stranger = await world().readyClient(await world().player('Sly'));
    const asked: string[] = [];
    const linked: Promise<AuthorizeResult>[] = [];
    game.registerAuthorizeRequestCallback(() => {
      asked.push('game');
      const args = new AuthorizationArgs();
      args.setScopes(game.getDefaultCommunicationScopes());
      linked.push(game.authorize(args));
    });
    elsewhere.registerAuthorizeRequestCallback(() => asked.push('other game'));
    stranger.registerAuthorizeRequestCallback(() => asked.push('another person'));
    await connectReady(game);
    await connectReady(elsewhere);

    const ask = (applicationId: string, auth = ivy.session) =>
      world().api('POST', `/users/@me/applications/${applicationId}/authorize-request`, { auth });
    expect((await ask(appId)).status).toBe(204);
    await eventually(() => (asked.length > 0 ? true : undefined), 'the authorize request');
    // The callback's authorize() ran the person's consent (a public client needs PKCE: refused
    // here without a challenge, which proves the request went all the way to the server).
    const outcome = await rejection(linked[0] ?? Promise.resolve());
    expect(outcome.oauthError).toBe('invalid_request');
    expect(consent.opened).toHaveLength(1);
    expect(asked).toEqual(['game']);

    // Removed: nothing runs; an unknown app is 10002; a Bearer token may not ask.
    game.removeAuthorizeRequestCallback();
    expect((await ask(appId)).status).toBe(204);
    expect((await ask('1')).body).toMatchObject({ code: 10002 });
    expect((await ask(appId, `Bearer ${await sdkToken(appId)}`)).status).toBe(401);
    // Markers on the same sessions (each delivers in order) show the earlier requests arrived:
    // none ran after the removal, none reached the other game's session.
    game.registerAuthorizeRequestCallback(() => asked.push('game marker'));
    elsewhere.registerAuthorizeRequestCallback(() => asked.push('other game marker'));
    expect((await ask(appId)).status).toBe(204);
    expect((await ask(other.application.id)).status).toBe(204);
    await eventually(() => (asked.length === 3 ? true : undefined), 'the markers');
    expect(asked.sort()).toEqual(['game', 'game marker', 'other game marker']);
  });
});

describe('SDK authorize without a person', () => {
  const world = useSdkWorld('sqlite');

  it('times out, closing the listener', async () => {
    let listener = '';
    const client = new Client({
      apiBase: world().apiBase,
      platform: {
        authorizeTimeoutMs: 300,
        openUrl: (url) => {
          listener = new URL(url).searchParams.get('redirect_uri') ?? '';
          return Promise.resolve();
        },
      },
    });
    client.setApplicationId(world().dev.applicationId);
    const args = new AuthorizationArgs();
    args.setScopes('identify');
    const error = await rejection(client.authorize(args));
    expect(error.type).toBe(ErrorType.Aborted);
    expect(error.message).toMatch(/within 0 s|within \d+ s/);
    expect(listener).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    await expect(fetch(`${listener}?code=late`)).rejects.toThrow();
  });

  it('abortAuthorize ends it, one authorize at a time, and a fixed port is honoured', async () => {
    let opened!: () => void;
    const openedOnce = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let listener = '';
    const client = new Client({
      apiBase: world().apiBase,
      platform: {
        openUrl: (url) => {
          listener = new URL(url).searchParams.get('redirect_uri') ?? '';
          opened();
          return Promise.resolve();
        },
      },
    });
    client.setApplicationId(world().dev.applicationId);
    const args = new AuthorizationArgs();
    args.setScopes('identify');
    const pending = client.authorize(args);
    await openedOnce;
    const second = await rejection(client.authorize(args));
    expect(second.type).toBe(ErrorType.ValidationError);
    expect(second.message).toMatch(/abortAuthorize/);
    expect((await fetch(`${listener}?state=x&code=y`)).status).toBe(400);
    client.abortAuthorize();
    expect(await rejection(pending)).toMatchObject({ type: ErrorType.Aborted });
    await expect(fetch(listener)).rejects.toThrow();

    // ClientOptions.redirectUri with a path: the listener answers there; a non-loopback one is refused.
    const custom = new Client({
      apiBase: world().apiBase,
      redirectUri: 'http://127.0.0.1/game/return',
      platform: {
        authorizeTimeoutMs: 200,
        openUrl: (url) => {
          listener = new URL(url).searchParams.get('redirect_uri') ?? '';
          return Promise.resolve();
        },
      },
    });
    custom.setApplicationId(world().dev.applicationId);
    await rejection(custom.authorize(args));
    expect(listener).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/game\/return$/);
    const remote = new Client({ apiBase: world().apiBase, redirectUri: 'http://localhost/cb' });
    remote.setApplicationId(world().dev.applicationId);
    const refused = await rejection(remote.authorize(args));
    expect(refused.type).toBe(ErrorType.ValidationError);
    expect(refused.message).toMatch(/127\.0\.0\.1/);
  });
});

describe('SDK auth arguments', () => {
  it('setters refuse bad values with ValidationError', () => {
    const args = new AuthorizationArgs();
    expect(
      thrown(() => {
        args.setScopes('');
      }).type,
    ).toBe(ErrorType.ValidationError);
    expect(
      thrown(() => {
        args.setScopes('openid "quoted"');
      }).message,
    ).toMatch(/not a scope/);
    expect(
      thrown(() => {
        args.setClientId('app');
      }).type,
    ).toBe(ErrorType.ValidationError);
    expect(
      thrown(() => {
        args.setState('x'.repeat(1025));
      }).message,
    ).toMatch(/longer/);
    expect(
      thrown(() => {
        args.setState('');
      }).type,
    ).toBe(ErrorType.ValidationError);
    expect(
      thrown(() => {
        args.setNonce('n'.repeat(513));
      }).message,
    ).toMatch(/longer/);
    expect(
      thrown(() => {
        args.setIntegrationType(7 as IntegrationType);
      }).type,
    ).toBe(ErrorType.ValidationError);
    expect(
      thrown(() => {
        args.setCustomSchemeParam('My Game');
      }).type,
    ).toBe(ErrorType.ValidationError);
    expect(
      thrown(() => {
        args.setCodeChallenge(new AuthorizationCodeChallenge());
      }).message,
    ).toMatch(/createAuthorizationCodeVerifier/);
    const challenge = new AuthorizationCodeChallenge();
    expect(
      thrown(() => {
        challenge.setChallenge('short');
      }).type,
    ).toBe(ErrorType.ValidationError);
    expect(
      thrown(() => {
        challenge.setMethod(1 as 0);
      }).type,
    ).toBe(ErrorType.ValidationError);
    // Valid values stick.
    args.setScopes('  openid sdk.social_layer ');
    args.setClientId('1234567890');
    args.setCustomSchemeParam('mygame');
    args.setIntegrationType(IntegrationType.GuildInstall);
    expect([
      args.scopes(),
      args.clientId(),
      args.customSchemeParam(),
      args.integrationType(),
    ]).toEqual(['openid sdk.social_layer', '1234567890', 'mygame', IntegrationType.GuildInstall]);
  });

  it('operations refuse bad arguments before any request', async () => {
    let requests = 0;
    const client = new Client({
      apiBase: 'http://127.0.0.1:9/api/v10',
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    const noScopes = await rejection(client.authorize(new AuthorizationArgs()));
    expect(noScopes.message).toMatch(/setScopes/);
    const args = new AuthorizationArgs();
    args.setScopes('identify');
    expect((await rejection(client.authorize(args))).message).toMatch(/setApplicationId/);
    args.setCustomSchemeParam('mygame');
    args.setClientId('123');
    expect((await rejection(client.authorize(args))).message).toMatch(/customSchemeParam/);
    const verifier = await client.createAuthorizationCodeVerifier();
    const bad: (() => Promise<unknown>)[] = [
      () => client.getToken('x', 'code', verifier.verifier(), 'http://127.0.0.1:1/callback'),
      () => client.getToken('123', '', verifier.verifier(), 'http://127.0.0.1:1/callback'),
      () => client.getToken('123', 'code', 'too-short', 'http://127.0.0.1:1/callback'),
      () => client.getToken('123', 'code', verifier.verifier(), ''),
      () => client.refreshToken('123', ''),
      () => client.revokeToken('not-an-id', 'token'),
      () => client.getProvisionalToken('123', 99 as 0, 'token'),
      () => client.getProvisionalToken('123', 0, ''),
      () => client.getProvisionalToken('123', 0, 'x'.repeat(10241)),
      () => client.unmergeIntoProvisionalAccount('123', 5, ''),
      () => client.exchangeChildToken('', '123'),
      () => client.exchangeChildToken('token', 'child'),
    ];
    for (const run of bad) {
      // Called directly: a synchronous throw would fail the test instead of rejecting.
      const error = await rejection(run());
      expect(error.type, error.message).toBe(ErrorType.ValidationError);
    }
    expect(requests).toBe(0);
    expect(client.getDefaultCommunicationScopes()).toBe('openid sdk.social_layer');
    expect(client.getDefaultPresenceScopes()).toBe('openid sdk.social_layer_presence');
    expect(client.isAuthenticated()).toBe(false);
    // Two verifiers differ, and each challenge is the S256 of its verifier.
    const other = await client.createAuthorizationCodeVerifier();
    expect(other.verifier()).not.toBe(verifier.verifier());
    const digest = await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode(verifier.verifier()),
    );
    expect(Buffer.from(digest).toString('base64url')).toBe(verifier.challenge().challenge());
  });
});
