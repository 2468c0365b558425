/**
 * Provisional accounts, merges, unmerges, child tokens and the device flow through the SDK's Node
 * build, against a real server (both databases) and the server tests' OpenID provider.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashSecret } from '../../server/src/domain/credentials.js';
import { startTestIdp, type TestIdp } from '../../server/test/support/oidcIdp.js';
import { ADMIN_TOKEN } from '../../server/test/support/provisionalFixture.js';
import {
  AuthenticationExternalAuthType,
  DeviceAuthorizationArgs,
  ErrorType,
  SdkError,
} from '../src/node.js';
import { authorizeAs, makePublicClient, person } from './authSupport.js';
import { describeDrivers, useSdkWorld, type SdkWorld } from './support.js';

async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SdkError);
    return error as SdkError;
  }
  throw new Error('expected a rejection');
}

let idp: TestIdp | null = null;
beforeAll(async () => {
  idp = await startTestIdp({ idTokenTtlSeconds: 3600 });
});
afterAll(async () => {
  await idp?.close();
});
const provider = (): TestIdp => {
  if (idp === null) throw new Error('no OpenID provider');
  return idp;
};

/** The id of the user a Bearer token belongs to, or the status when it is refused. */
async function whoIs(world: SdkWorld, token: string): Promise<string | number> {
  const me = await world.api<{ id: string }>('GET', '/users/@me', { auth: `Bearer ${token}` });
  return me.status === 200 ? me.body.id : me.status;
}

describeDrivers('SDK provisional accounts and linking ($driver)', (driver) => {
  const world = useSdkWorld(driver, {
    config: { oidcAllowInsecureLocal: true, adminTokenHash: hashSecret(ADMIN_TOKEN) },
  });

  it('getProvisionalToken with a bot-issued token; refusals keep the platform codes', async () => {
    const player = await world().player('Pip');
    const client = await world().client();
    const appId = world().dev.applicationId;
    // Not a public client yet: the public form is refused.
    const confidential = await rejection(
      client.getProvisionalToken(
        appId,
        AuthenticationExternalAuthType.DiscordBotIssuedAccessToken,
        player.token,
      ),
    );
    expect(confidential).toMatchObject({
      type: ErrorType.AuthorizationFailed,
      code: 530007,
      status: 401,
    });
    await makePublicClient(world());
    const minted = await client.getProvisionalToken(
      appId,
      AuthenticationExternalAuthType.DiscordBotIssuedAccessToken,
      player.token,
    );
    expect(await whoIs(world(), minted.accessToken)).toBe(player.id);
    expect(minted.scopes).toBe('sdk.social_layer');
    expect(minted.idToken).not.toBeNull();
    const steam = await rejection(
      client.getProvisionalToken(
        appId,
        AuthenticationExternalAuthType.SteamSessionTicket,
        'ticket',
      ),
    );
    expect(steam).toMatchObject({ code: 530000 });
    const forged = await rejection(
      client.getProvisionalToken(
        appId,
        AuthenticationExternalAuthType.DiscordBotIssuedAccessToken,
        'not-a-token-of-this-app',
      ),
    );
    expect(forged).toMatchObject({ code: 50025, status: 403 });
  });

  it('OIDC: provisional → merge (getTokenFromProvisionalMerge) → unmerge → a new provisional account', async () => {
    await makePublicClient(world());
    const appId = world().dev.applicationId;
    const saved = await world().api('PUT', `/applications/${appId}/identity-providers/oidc`, {
      auth: world().dev.userToken,
      json: { issuer: provider().issuer, client_id: provider().clientId },
    });
    expect(saved.status).toBe(200);
    const idToken = await provider().idToken('player-subject-1');
    const client = await world().client();
    const provisional = await client.getProvisionalToken(
      appId,
      AuthenticationExternalAuthType.OIDC,
      idToken,
    );
    expect(provisional.refreshToken).not.toBe('');
    const provisionalId = await whoIs(world(), provisional.accessToken);
    expect(typeof provisionalId).toBe('string');

    const eve = await person(world(), 'eve');
    const { client: linking, code, redirectUri, verifier } = await authorizeAs(world(), eve);
    const merged = await linking.getTokenFromProvisionalMerge(
      appId,
      code,
      verifier,
      redirectUri,
      AuthenticationExternalAuthType.OIDC,
      idToken,
    );
    expect(await whoIs(world(), merged.accessToken)).toBe(eve.id);
    // The provisional account is gone with its tokens; its identity now belongs to eve.
    expect(await whoIs(world(), provisional.accessToken)).toBe(401);
    const linked = await rejection(
      client.getProvisionalToken(appId, AuthenticationExternalAuthType.OIDC, idToken),
    );
    expect(linked).toMatchObject({ code: 530010 });

    await client.unmergeIntoProvisionalAccount(appId, AuthenticationExternalAuthType.OIDC, idToken);
    // Eve's authorization of the app ended; the identity is a new provisional account.
    expect(await whoIs(world(), merged.accessToken)).toBe(401);
    const again = await client.getProvisionalToken(
      appId,
      AuthenticationExternalAuthType.OIDC,
      idToken,
    );
    const newId = await whoIs(world(), again.accessToken);
    expect(newId).not.toBe(provisionalId);
    expect(newId).not.toBe(eve.id);
    // Unmerging what is still provisional is refused with the platform's code.
    const still = await rejection(
      client.unmergeIntoProvisionalAccount(appId, AuthenticationExternalAuthType.OIDC, idToken),
    );
    expect(still).toMatchObject({ code: 50229, status: 400 });
  });

  it('merging a bot-issued provisional account; a wrong verifier leaves the code usable', async () => {
    await makePublicClient(world());
    const appId = world().dev.applicationId;
    const player = await world().player('Quill');
    const fay = await person(world(), 'fay');
    const { client, code, redirectUri, verifier } = await authorizeAs(world(), fay);
    const wrongVerifier = await rejection(
      client.getTokenFromProvisionalMerge(
        appId,
        code,
        'x'.repeat(43),
        redirectUri,
        AuthenticationExternalAuthType.DiscordBotIssuedAccessToken,
        player.token,
      ),
    );
    expect(wrongVerifier).toMatchObject({ oauthError: 'invalid_grant' });
    const merged = await client.getTokenFromProvisionalMerge(
      appId,
      code,
      verifier,
      redirectUri,
      AuthenticationExternalAuthType.DiscordBotIssuedAccessToken,
      player.token,
    );
    expect(await whoIs(world(), merged.accessToken)).toBe(fay.id);
    expect(await whoIs(world(), player.token)).toBe(401);
  });

  it('exchangeChildToken: refused until an operator links the apps, then the same person', async () => {
    await makePublicClient(world());
    const parentId = world().dev.applicationId;
    const child = await world().server.app.services.applications.create(world().dev.userId, {
      name: 'child game',
    });
    const childId = child.application.id;
    const gus = await person(world(), 'gus');
    const { client, code, redirectUri, verifier } = await authorizeAs(world(), gus);
    const parent = await client.getToken(parentId, code, verifier, redirectUri);
    const unapproved = await rejection(client.exchangeChildToken(parent.accessToken, childId));
    expect(unapproved).toMatchObject({ code: 10002 });
    const link = await world().api('PUT', `/admin/application-links/${parentId}/${childId}`, {
      auth: `Admin ${ADMIN_TOKEN}`,
    });
    expect(link.status).toBeLessThan(300);
    const childToken = await client.exchangeChildToken(parent.accessToken, childId);
    expect(childToken.refreshToken).toBe('');
    expect(childToken.accessToken).not.toBe(parent.accessToken);
    expect(await whoIs(world(), childToken.accessToken)).toBe(gus.id);
    const dead = await rejection(client.exchangeChildToken('not-a-live-token', childId));
    expect(dead).toMatchObject({ code: 50025 });
  });

  it('the device flow: the person approves on another device; merge and abort', async () => {
    const appId = world().dev.applicationId;
    const hal = await person(world(), 'hal');
    const args = new DeviceAuthorizationArgs();
    args.setClientId(appId);
    args.setScopes('openid sdk.social_layer');
    let approvals = 0;
    const approving = () => ({
      platform: {
        openUrl: async (url: string) => {
          const userCode = new URL(url).searchParams.get('user_code') ?? '';
          const verified = await world().api('POST', '/oauth2/device/verify', {
            auth: hal.session,
            json: { user_code: userCode, authorize: true },
          });
          if (verified.status === 200) approvals++;
        },
      },
    });
    // A confidential app: the SDK says to turn public_client on.
    const confidential = await rejection(
      (await world().client(null, approving())).getTokenFromDevice(args),
    );
    expect(confidential).toMatchObject({ oauthError: 'invalid_client' });
    expect(confidential.message).toMatch(/public_client/);
    // The flow is off until the owner turns it on.
    await makePublicClient(world());
    const off = await rejection((await world().client(null, approving())).getTokenFromDevice(args));
    expect(off).toMatchObject({
      type: ErrorType.AuthorizationFailed,
      oauthError: 'unauthorized_client',
    });
    await makePublicClient(world(), { device_flow_enabled: true });

    const player = await world().player('Rune');
    const client = await world().client(null, approving());
    const merged = await client.getTokenFromDeviceProvisionalMerge(
      args,
      AuthenticationExternalAuthType.DiscordBotIssuedAccessToken,
      player.token,
    );
    expect(approvals).toBe(1);
    expect(await whoIs(world(), merged.accessToken)).toBe(hal.id);
    expect(await whoIs(world(), player.token)).toBe(401);

    // Nobody approves: abortGetTokenFromDevice ends the wait.
    let shown!: () => void;
    const opened = new Promise<void>((resolve) => {
      shown = resolve;
    });
    const waiting = await world().client(null, {
      platform: {
        openUrl: () => {
          shown();
          return Promise.resolve();
        },
      },
    });
    const pending = waiting.getTokenFromDevice(args);
    await opened;
    waiting.abortGetTokenFromDevice();
    expect(await rejection(pending)).toMatchObject({ type: ErrorType.Aborted });
  });
});
