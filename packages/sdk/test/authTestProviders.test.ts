/**
 * A game's account-linking path for Steam, Epic Online Services, Unity, Apple and PlayStation
 * through the SDK's Node build, with those providers in Guildhall's test mode: credentials signed
 * with the developer's registered key (docs/provisional-accounts.md, Test identity providers).
 */
import { generateKeyPairSync } from 'node:crypto';
import { expect, it } from 'vitest';
import { AuthenticationExternalAuthType, SdkError } from '../src/node.js';
import { authorizeAs, makePublicClient, person } from './authSupport.js';
import { describeDrivers, useSdkWorld, type SdkWorld } from './support.js';

const PROVIDERS = [
  { provider: 'steam', type: AuthenticationExternalAuthType.SteamSessionTicket },
  { provider: 'epic', type: AuthenticationExternalAuthType.EpicOnlineServicesIdToken },
  { provider: 'unity', type: AuthenticationExternalAuthType.UnityServicesIdToken },
  { provider: 'apple', type: AuthenticationExternalAuthType.AppleIdToken },
  { provider: 'playstation', type: AuthenticationExternalAuthType.PlayStationNetworkIdToken },
] as const;
type Provider = (typeof PROVIDERS)[number]['provider'];

/** Puts a provider of the world's app in test mode; the private key PEM that signs for it. */
async function testMode(world: SdkWorld, provider: Provider): Promise<string> {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const res = await world.api(
    'PUT',
    `/applications/${world.dev.applicationId}/identity-providers/${provider}`,
    {
      auth: world.dev.userToken,
      json: {
        mode: 'test',
        public_key: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      },
    },
  );
  expect(res.status).toBe(200);
  return pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** A credential as `guildhall identity issue` makes it. */
async function issue(world: SdkWorld, as: { provider: Provider; key: string; subject: string }) {
  const { provider, key, subject } = as;
  const issued = await world.server.app.services.provisional.issueTestCredential({
    applicationId: world.dev.applicationId,
    provider,
    subject,
    preferredName: `${provider} player`,
    privateKeyPem: key,
    ttlSeconds: 600,
  });
  return issued.token;
}

async function whoIs(world: SdkWorld, token: string): Promise<string | number> {
  const me = await world.api<{ id: string }>('GET', '/users/@me', { auth: `Bearer ${token}` });
  return me.status === 200 ? me.body.id : me.status;
}

describeDrivers('SDK account linking with test identity providers ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('getProvisionalToken for each provider in test mode; 530000 for one that is not', async () => {
    await makePublicClient(world());
    const appId = world().dev.applicationId;
    const client = await world().client();
    const off = await client
      .getProvisionalToken(appId, AuthenticationExternalAuthType.AppleIdToken, 'ticket')
      .catch((e: unknown) => e);
    expect(off).toBeInstanceOf(SdkError);
    expect(off).toMatchObject({ code: 530000 });
    for (const { provider, type } of PROVIDERS) {
      const key = await testMode(world(), provider);
      const token = await issue(world(), { provider, key, subject: `${provider}-subject` });
      const minted = await client.getProvisionalToken(appId, type, token);
      expect(minted.scopes).toBe('sdk.social_layer');
      const me = await world().api<{ global_name: string }>('GET', '/users/@me', {
        auth: `Bearer ${minted.accessToken}`,
      });
      expect(me.body.global_name).toBe(`${provider} player`);
    }
  });

  it('a Steam player: provisional, merged into a full account, unmerged again', async () => {
    await makePublicClient(world());
    const appId = world().dev.applicationId;
    const key = await testMode(world(), 'steam');
    const ticket = await issue(world(), { provider: 'steam', key, subject: '76561197960287930' });
    const game = await world().client();
    const steam = AuthenticationExternalAuthType.SteamSessionTicket;
    const provisional = await game.getProvisionalToken(appId, steam, ticket);
    const provisionalId = await whoIs(world(), provisional.accessToken);
    expect(typeof provisionalId).toBe('string');

    const hana = await person(world(), 'hana');
    const { client, code, redirectUri, verifier } = await authorizeAs(world(), hana);
    const merged = await client.getTokenFromProvisionalMerge(
      appId,
      code,
      verifier,
      redirectUri,
      steam,
      ticket,
    );
    expect(await whoIs(world(), merged.accessToken)).toBe(hana.id);
    expect(await whoIs(world(), provisional.accessToken)).toBe(401);
    await expect(game.getProvisionalToken(appId, steam, ticket)).rejects.toMatchObject({
      code: 530010,
    });

    await game.unmergeIntoProvisionalAccount(appId, steam, ticket);
    expect(await whoIs(world(), merged.accessToken)).toBe(401);
    const again = await game.getProvisionalToken(appId, steam, ticket);
    const newId = await whoIs(world(), again.accessToken);
    expect(newId).not.toBe(hana.id);
    expect(newId).not.toBe(provisionalId);
  });
});
