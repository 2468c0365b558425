/**
 * The provisional account test fixture: a test OpenID provider and a server per driver (the worker's files share it)
 * (its clock at the real time, local OIDC issuers allowed, an operator token), and per test a
 * developer whose app subscribes to the authorization webhook events; and the requests the tests
 * make.
 *
 * @module
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Config } from '../../src/config.js';
import type { manualClock } from '../../src/domain/clock.js';
import { hashSecret } from '../../src/domain/credentials.js';
import type { ExternalCredential } from '../../src/oauth/provisional/identities.js';
import type { Driver } from './drivers.js';
import { startTestIdp, type TestIdp } from './oidcIdp.js';
import { sharedClock, uniqueName, useFileServer } from './fileServer.js';
import { seedDeveloper, startTestServer, type TestServer } from './testServer.js';
import { apiRequest } from './inject.js';

/** The operator token the fixture's server accepts (`Admin <token>`). */
export const ADMIN_TOKEN = 'operator-token-for-tests-0123456789abcdef';
/** How long the test provider's ID tokens live. */
const ID_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** A token endpoint answer. */
export interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

interface State {
  server: TestServer;
  clock: ReturnType<typeof manualClock>;
  dev: Awaited<ReturnType<typeof seedDeveloper>>;
}

/**
 * Registers the provider and the server of one driver (both for the file), and each test's
 * developer; read its fields in tests.
 */
export function useProvisionalFixture(driver: Driver) {
  let provider: TestIdp | undefined;
  const idpNow = () => {
    if (provider === undefined) throw new Error('no OpenID provider outside the tests');
    return provider;
  };
  const clock = sharedClock(`provisional:${driver}`, Date.now());
  const shared = useFileServer(
    {
      storage: driver,
      clock,
      config: { oidcAllowInsecureLocal: true, adminTokenHash: hashSecret(ADMIN_TOKEN) },
    },
    'provisional',
  );
  /** A server a test started for itself (restart), closed after it. */
  let own: TestServer | undefined;
  let state: State | undefined;
  const current = () => {
    if (state === undefined) throw new Error('no provisional server outside a test');
    return state;
  };

  beforeAll(async () => {
    provider = await startTestIdp({ idTokenTtlSeconds: ID_TOKEN_TTL_SECONDS });
  });
  afterAll(async () => {
    await provider?.close();
  });
  beforeEach(async () => {
    // At the real time, as the provider's tokens are.
    clock.set(Date.now());
    const { server } = shared;
    const dev = await seedDeveloper(server.app, uniqueName('gamedev'));
    // The app subscribes to APPLICATION_DEAUTHORIZED webhook events.
    await server.app.storage.applications.update(dev.applicationId, {
      eventWebhooksUrl: 'https://game.example.com/events',
      eventWebhooksStatus: 2,
      eventWebhooksTypes: ['APPLICATION_AUTHORIZED', 'APPLICATION_DEAUTHORIZED'],
    });
    state = { server, clock, dev };
  });
  afterEach(async () => {
    state = undefined;
    const ended = own;
    own = undefined;
    await ended?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    options: { auth?: string; payload?: object } = {},
  ) => apiRequest(current().server.app, `${method} ${url}`, options);
  const bot = () => `Bot ${current().dev.botToken}`;
  const admin = { auth: `Admin ${ADMIN_TOKEN}` };

  const saveProvider = (issuer = idpNow().issuer) =>
    call('PUT', `/applications/${current().dev.applicationId}/identity-providers/oidc`, {
      auth: current().dev.userToken,
      payload: { issuer, client_id: idpNow().clientId },
    });
  const exchange = async (subject: string, extra: object = {}) =>
    call('POST', '/partner-sdk/token', {
      payload: {
        client_id: current().dev.applicationId,
        client_secret: current().dev.clientSecret,
        external_auth_type: 'OIDC',
        external_auth_token: await idpNow().idToken(subject),
        ...extra,
      },
    });
  const botToken = (externalUserId: string, name?: string) =>
    call('POST', '/partner-sdk/token/bot', {
      auth: bot(),
      payload: {
        external_user_id: externalUserId,
        ...(name === undefined ? {} : { preferred_global_name: name }),
      },
    });
  const me = (accessToken: string) => call('GET', '/users/@me', { auth: `Bearer ${accessToken}` });
  /** A new person named after `name` (made unique: uniqueName); their user id. */
  const person = async (name: string) => {
    const username = uniqueName(name);
    const session = await current().server.app.services.auth.register({
      email: `${username}@example.test`,
      username,
      password: 'correct horse battery',
    });
    return session.user_id;
  };
  /** The merge extension as the code grant runs it: merge, then the grant's tokens. */
  const merge = (userId: string, credential: ExternalCredential) =>
    current().server.app.storage.transaction(async (tx) => {
      const merged = await current().server.app.services.provisional.mergeProvisional(tx, {
        applicationId: current().dev.applicationId,
        userId,
        credential,
      });
      await current().server.app.services.oauth.issueTokens({
        tx,
        userId,
        applicationId: current().dev.applicationId,
        scopes: ['identify'],
        refresh: true,
      });
      return merged;
    });
  /** Tokens a full account got from the app's OAuth2 flow. */
  const authorize = (userId: string) =>
    current().server.app.services.oauth.issueTokens({
      userId,
      applicationId: current().dev.applicationId,
      scopes: ['identify', 'openid'],
      refresh: true,
    });
  const deauthorizedEvents = async () =>
    (
      await current().server.app.storage.outbox.listByApplication(current().dev.applicationId, {
        limit: 50,
      })
    )
      .filter((e) => e.eventType === 'APPLICATION_DEAUTHORIZED')
      .map((e) => (JSON.parse(e.event) as { data: { user: { id: string } } }).data.user.id);
  const identity = (subject: string, authType: ExternalCredential['type'] = 'OIDC') =>
    current().server.app.storage.provisional.findIdentity({
      applicationId: current().dev.applicationId,
      authType,
      subject,
    });

  return {
    get idp() {
      return idpNow();
    },
    get server() {
      return current().server;
    },
    get clock() {
      return current().clock;
    },
    get dev() {
      return current().dev;
    },
    /**
     * Moves this test to a server of its own started with only `config` over the defaults (and
     * a new developer, without webhook events), on the same clock; closed after the test.
     */
    async restart(config: Partial<Config>) {
      const { clock: same } = current();
      await own?.close();
      own = await startTestServer({ storage: driver, clock: same, config });
      state = {
        server: own,
        clock: same,
        dev: await seedDeveloper(own.app, uniqueName('gamedev')),
      };
    },
    call,
    bot,
    admin,
    saveProvider,
    exchange,
    botToken,
    me,
    person,
    merge,
    authorize,
    deauthorizedEvents,
    identity,
  };
}
