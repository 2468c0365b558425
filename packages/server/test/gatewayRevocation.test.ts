/**
 * Revocation ends live gateway sessions (close 4004) and cached tokens at once: a reset bot token,
 * a logout (here or everywhere), an operator ban and an OAuth2 revocation (the path a
 * deauthorization takes too). On one node over the in-process bus, and across two nodes sharing
 * PostgreSQL and NATS (each through the `auth.revoked` subject, events/revocations.ts), where the
 * node that did not revoke closes its sessions and refuses the cached tokens.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../src/domain/credentials.js';
import { keyringOf } from '../src/domain/keyring.js';
import { uniqueName, useFileServer } from './support/fileServer.js';
import { connectGateway, identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { natsAvailable, TEST_NATS_URL } from './support/nats.js';
import { nodesDatabase, useNodePair } from './support/nodePair.js';
import { postgresAvailable } from './support/postgres.js';
import { seedDeveloper, type TestServer, type TestServerOptions } from './support/testServer.js';
import { apiRequest } from './support/inject.js';

const ADMIN_TOKEN = randomBytes(24).toString('hex');

const clients: GatewayClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.raw.terminate();
});

/** What every node of the file is started with: listening, with the operator's token. */
const nodeOptions = (options: TestServerOptions = {}): TestServerOptions => ({
  listen: true,
  ...options,
  config: { adminTokenHash: hashSecret(ADMIN_TOKEN), ...options.config },
});

const request = (server: TestServer, options: InjectOptions) => server.app.http.inject(options);

/** Opens an identified gateway session on `server` with `token`. */
async function session(server: TestServer, token: string) {
  const { client } = await identifyGateway(server.app.gatewayUrl(), { token, intents: 0 });
  clients.push(client);
  return client;
}

const me = (server: TestServer, authorization: string) =>
  apiRequest(server.app, 'GET /users/@me', { auth: authorization });

let addresses = 0;

/**
 * Logs `name` in again, from an address no other login of the file came from: the tests share
 * a server, and its login bucket is kept per address.
 */
const login = async (server: TestServer, name: string) => {
  const res = await request(server, {
    method: 'POST',
    url: '/api/v10/auth/login',
    payload: { login: name, password: 'correct horse battery' },
    remoteAddress: `198.51.100.${String(++addresses)}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ token: string }>().token;
};

/** A bearer token for the app's owner (client credentials), and the request that revokes it. */
async function bearerToken(server: TestServer, seed: Awaited<ReturnType<typeof seedDeveloper>>) {
  const basic = `Basic ${Buffer.from(`${seed.applicationId}:${seed.clientSecret}`).toString('base64')}`;
  const form = (url: string, body: Record<string, string>) =>
    request(server, {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      payload: new URLSearchParams(body).toString(),
    });
  const res = await form('/api/oauth2/token', {
    grant_type: 'client_credentials',
    scope: 'identify',
  });
  expect(res.statusCode).toBe(200);
  const token = res.json<{ access_token: string }>().access_token;
  return { token, revoke: () => form('/api/oauth2/token/revoke', { token }) };
}

describe('revocation on one node (in-process bus)', () => {
  // One server for the block: each test revokes what only its own people and apps hold.
  const file = useFileServer(nodeOptions());

  it('a reset bot token closes its sessions with 4004 and cannot resume; other credentials stay', async () => {
    const { server } = file;
    const seed = await seedDeveloper(server.app, uniqueName('resetter'));
    const opened = await identifyGateway(server.app.gatewayUrl(), {
      token: seed.botToken,
      intents: 0,
    });
    const bot = opened.client;
    clients.push(bot);
    const human = await session(server, seed.userToken);
    expect((await me(server, `Bot ${seed.botToken}`)).statusCode).toBe(200);

    const reset = await request(server, {
      method: 'POST',
      url: `/api/v10/applications/${seed.applicationId}/bot/reset`,
      headers: { authorization: seed.userToken },
    });
    expect(reset.statusCode).toBe(200);
    expect((await bot.closed).code).toBe(4004);
    expect((await me(server, `Bot ${seed.botToken}`)).statusCode).toBe(401);
    // The session is gone, not waiting for a RESUME, even one with the new token.
    const newToken = reset.json<{ token: string }>().token;
    const resumer = await connectGateway(server.app.gatewayUrl());
    clients.push(resumer);
    await resumer.next((f) => f.op === 10);
    resumer.send(6, { token: newToken, session_id: opened.ready.session_id, seq: 0 });
    expect((await resumer.next((f) => f.op === 9)).d).toBe(false);
    // The new token identifies; the human's session, another credential, is untouched.
    clients.push(
      (await identifyGateway(server.app.gatewayUrl(), { token: newToken, intents: 0 })).client,
    );
    expect(server.app.gateway.sessionsOf(seed.userId)).toHaveLength(1);
    expect(human.raw.readyState).toBe(human.raw.OPEN);
  });

  it('a logout closes that token’s sessions; logging out everywhere closes the rest', async () => {
    const { server } = file;
    const seed = await seedDeveloper(server.app, uniqueName('leaver'));
    const second = await login(server, seed.username);
    const third = await login(server, seed.username);
    const first = await session(server, seed.userToken);
    const other = await session(server, second);
    const bot = await session(server, seed.botToken);

    const logout = await request(server, {
      method: 'POST',
      url: '/api/v10/auth/logout',
      headers: { authorization: seed.userToken },
    });
    expect(logout.statusCode).toBe(204);
    expect((await first.closed).code).toBe(4004);
    expect(other.raw.readyState).toBe(other.raw.OPEN);
    expect((await me(server, second)).statusCode).toBe(200);

    const everywhere = await request(server, {
      method: 'POST',
      url: '/api/v10/auth/logout-all',
      headers: { authorization: third },
    });
    expect(everywhere.statusCode).toBe(204);
    expect((await other.closed).code).toBe(4004);
    expect((await me(server, second)).statusCode).toBe(401);
    expect((await me(server, third)).statusCode).toBe(401);
    // Session tokens only: the user's bot still has its session and its token.
    expect(bot.raw.readyState).toBe(bot.raw.OPEN);
    expect((await me(server, `Bot ${seed.botToken}`)).statusCode).toBe(200);
  });

  it('an operator ban closes every session of the account', async () => {
    const { server } = file;
    const seed = await seedDeveloper(server.app, uniqueName('banned'));
    const other = await seedDeveloper(server.app, uniqueName('bystander'));
    const first = await session(server, seed.userToken);
    const second = await session(server, await login(server, seed.username));
    const bystander = await session(server, other.userToken);

    const ban = await request(server, {
      method: 'PUT',
      url: `/api/v10/admin/users/${seed.userId}/ban`,
      headers: { authorization: `Admin ${ADMIN_TOKEN}` },
      payload: { reason: 'spam' },
    });
    expect(ban.statusCode).toBe(200);
    expect((await first.closed).code).toBe(4004);
    expect((await second.closed).code).toBe(4004);
    expect(server.app.gateway.sessionsOf(seed.userId)).toHaveLength(0);
    expect(bystander.raw.readyState).toBe(bystander.raw.OPEN);
  });

  it('an OAuth2 revocation refuses the bearer token at once, though it was cached', async () => {
    const { server } = file;
    const seed = await seedDeveloper(server.app, uniqueName('granter'));
    const bearer = await bearerToken(server, seed);
    expect((await me(server, `Bearer ${bearer.token}`)).statusCode).toBe(200);
    expect((await bearer.revoke()).statusCode).toBe(200);
    expect((await me(server, `Bearer ${bearer.token}`)).statusCode).toBe(401);
  });
});

describe.skipIf(!postgresAvailable || !natsAvailable)('revocation across nodes', () => {
  // One pair for the block: each test revokes what only its own people and apps hold.
  const nodes = useNodePair(async () => {
    const database = await nodesDatabase('postgres');
    return {
      options: nodeOptions({
        ...database.options,
        // Nodes sharing a database share the secret key too (docs/operations.md, Secret key).
        config: { natsUrl: TEST_NATS_URL, secretKey: keyringOf(randomBytes(32)) },
      }),
      cleanup: database.cleanup,
    };
  });

  it('a revocation on node A closes node B’s sessions and B refuses the token at once', async () => {
    const { a, b } = nodes();
    const seed = await seedDeveloper(a.app, uniqueName('multinode'));
    const bearer = await bearerToken(a, seed);
    // Node B has verified (and cached) each token before the revocations.
    expect((await me(b, `Bot ${seed.botToken}`)).statusCode).toBe(200);
    expect((await me(b, `Bearer ${bearer.token}`)).statusCode).toBe(200);
    expect((await me(b, seed.userToken)).statusCode).toBe(200);
    const bot = await session(b, seed.botToken);
    const human = await session(b, seed.userToken);

    const reset = await request(a, {
      method: 'POST',
      url: `/api/v10/applications/${seed.applicationId}/bot/reset`,
      headers: { authorization: seed.userToken },
    });
    expect(reset.statusCode).toBe(200);
    expect((await bot.closed).code).toBe(4004);
    expect((await me(b, `Bot ${seed.botToken}`)).statusCode).toBe(401);

    // A's revocations reach B in the order A made them: once the logout's close arrives,
    // the OAuth2 revocation before it has been applied too.
    expect((await bearer.revoke()).statusCode).toBe(200);
    const logout = await request(a, {
      method: 'POST',
      url: '/api/v10/auth/logout',
      headers: { authorization: seed.userToken },
    });
    expect(logout.statusCode).toBe(204);
    expect((await human.closed).code).toBe(4004);
    expect((await me(b, seed.userToken)).statusCode).toBe(401);
    expect((await me(b, `Bearer ${bearer.token}`)).statusCode).toBe(401);
  });

  it('an operator ban and a deauthorization on node A end what node B holds', async () => {
    const { a, b } = nodes();
    const banned = await seedDeveloper(a.app, uniqueName('remoteban'));
    const granter = await seedDeveloper(a.app, uniqueName('remotegrant'));
    const bystander = await seedDeveloper(a.app, uniqueName('remotestay'));
    const second = await login(a, banned.username);
    const bearer = await bearerToken(a, granter);
    // Node B has verified (and cached) each credential, and serves sessions of both users.
    for (const authorization of [banned.userToken, second, `Bearer ${bearer.token}`]) {
      expect((await me(b, authorization)).statusCode).toBe(200);
    }
    const first = await session(b, banned.userToken);
    const other = await session(b, second);
    const stays = await session(b, bystander.userToken);

    const ban = await request(a, {
      method: 'PUT',
      url: `/api/v10/admin/users/${banned.userId}/ban`,
      headers: { authorization: `Admin ${ADMIN_TOKEN}` },
      payload: { reason: 'spam' },
    });
    expect(ban.statusCode).toBe(200);
    expect((await first.closed).code).toBe(4004);
    expect((await other.closed).code).toBe(4004);
    expect(b.app.gateway.sessionsOf(banned.userId)).toHaveLength(0);
    expect((await me(b, banned.userToken)).statusCode).toBe(401);
    expect((await me(b, second)).statusCode).toBe(401);

    // The application's owner deauthorizes on A (RFC 7009 revoke): B drops the cached token as
    // soon as the bus brings the revocation (A answered once it applied it itself).
    expect((await bearer.revoke()).statusCode).toBe(200);
    await expect
      .poll(async () => (await me(b, `Bearer ${bearer.token}`)).statusCode, { timeout: 5000 })
      .toBe(401);
    expect(stays.raw.readyState).toBe(stays.raw.OPEN);
    expect((await me(b, bystander.userToken)).statusCode).toBe(200);
  });
});
