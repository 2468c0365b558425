/**
 * The world the native tests run in: one Guildhall on a loopback port (SQLite), its gateway
 * behind a TCP proxy the tests cut and restore over HTTP, the server tests' OpenID provider, and
 * a developer's application set up as a public client (the SDK's loopback redirect, the device
 * flow, an OIDC identity provider). Each run of a test binary gets fresh people, ID tokens and a
 * child application (`PLATFORMPP_TEST_WORLD`), and a provisional account's token minted as if
 * days ago, which expires within the SDK's notice (the server's clock is set back while it is
 * minted, before the binary runs).
 *
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { hashSecret } from '../../server/src/domain/credentials.js';
import { ACCESS_TOKEN_SECONDS } from '../../server/src/oauth/service.js';
import { startTestIdp, type TestIdp } from '../../server/test/support/oidcIdp.js';
import { ADMIN_TOKEN } from '../../server/test/support/provisionalFixture.js';
import { startTcpProxy, type TcpProxy } from '../../server/test/support/tcpProxy.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
} from '../../server/test/support/testServer.js';

const LOOPBACK_REDIRECT = 'http://127.0.0.1/callback';
const RULES_FIXTURE = fileURLToPath(
  new URL('../../sdk/test/fixtures/social-rules.json', import.meta.url),
);
/** People each run of the suite uses up (one per login in the tests). */
const PEOPLE_PER_RUN = 10;
const ID_TOKENS_PER_RUN = 2;
/** What the expiring token has left when minted: less than the SDK's 5-minute notice. */
const EXPIRING_TOKEN_LEFT_MS = 4 * 60_000;

export interface NativeWorld {
  server: TestServer;
  apiBase: string;
  dev: Awaited<ReturnType<typeof seedDeveloper>>;
  /** PLATFORMPP_TEST_WORLD for one run of a test binary. */
  forRun(): Promise<string>;
  close(): Promise<void>;
}

function listenControl(proxy: TcpProxy): Promise<Server> {
  const control = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/cut') proxy.cut();
    else if (req.method === 'POST' && req.url === '/restore') proxy.restore();
    else {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(204).end();
  });
  return new Promise((resolve) => {
    control.listen(0, '127.0.0.1', () => {
      resolve(control);
    });
  });
}

export async function startNativeWorld(): Promise<NativeWorld> {
  let serverPort = 0;
  const proxy = await startTcpProxy(() => serverPort);
  const control = await listenControl(proxy);
  const idp: TestIdp = await startTestIdp({ idTokenTtlSeconds: 3600 });
  // The server's clock is the system's, moved back only while forRun mints the expiring token.
  let clockOffsetMs = 0;
  const clock = { now: () => Date.now() + clockOffsetMs };
  const server = await startTestServer({
    listen: true,
    clock,
    gateway: { identifiesPerBucket: 1000 },
    config: {
      oidcAllowInsecureLocal: true,
      adminTokenHash: hashSecret(ADMIN_TOKEN),
      gatewayUrl: `ws://127.0.0.1:${String(proxy.port)}/gateway`,
    },
  });
  serverPort = Number(new URL(server.baseUrl).port);
  const apiBase = `${server.baseUrl}/api/v10`;
  const dev = await seedDeveloper(server.app);
  const patch = async (path: string, method: string, body: unknown) => {
    const res = await fetch(`${apiBase}${path}`, {
      method,
      headers: { authorization: dev.userToken, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };
  await patch(`/applications/${dev.applicationId}`, 'PATCH', {
    public_client: true,
    redirect_uris: [LOOPBACK_REDIRECT],
    device_flow_enabled: true,
  });
  await patch(`/applications/${dev.applicationId}/identity-providers/oidc`, 'PUT', {
    issuer: idp.issuer,
    client_id: idp.clientId,
  });
  const { port: controlPort } = control.address() as AddressInfo;
  let runs = 0;
  return {
    server,
    apiBase,
    dev,
    async forRun() {
      runs += 1;
      const { app } = server;
      const people = [];
      for (let i = 0; i < PEOPLE_PER_RUN; i++) {
        const name = `native${String(runs)}p${String(i)}`;
        const session = await app.services.auth.register({
          email: `${name}@example.test`,
          username: name,
          password: 'correct horse battery',
        });
        people.push({ id: session.user_id, session: session.token });
      }
      const idTokens = [];
      for (let i = 0; i < ID_TOKENS_PER_RUN; i++) {
        idTokens.push(await idp.idToken(`native-subject-${String(runs)}-${String(i)}`));
      }
      clockOffsetMs = EXPIRING_TOKEN_LEFT_MS - ACCESS_TOKEN_SECONDS * 1000;
      let expiringToken: string;
      try {
        const res = await fetch(`${apiBase}/partner-sdk/token/bot`, {
          method: 'POST',
          headers: { authorization: `Bot ${dev.botToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ external_user_id: `native-expiring-${String(runs)}` }),
        });
        if (!res.ok) throw new Error(`minting the expiring token: ${String(res.status)}`);
        expiringToken = ((await res.json()) as { access_token: string }).access_token;
      } finally {
        clockOffsetMs = 0;
      }
      const child = await app.services.applications.create(dev.userId, {
        name: `child game ${String(runs)}`,
      });
      // A publisher's hub the game links to only in the test that needs it.
      const parent = await app.services.applications.create(dev.userId, {
        name: `publisher hub ${String(runs)}`,
      });
      return JSON.stringify({
        apiBase,
        applicationId: dev.applicationId,
        botToken: dev.botToken,
        adminToken: ADMIN_TOKEN,
        childApplicationId: child.application.id,
        parentApplicationId: parent.application.id,
        people,
        idTokens,
        proxyControl: `http://127.0.0.1:${String(controlPort)}`,
        rulesFixture: RULES_FIXTURE,
        expiringToken,
      });
    },
    async close() {
      await server.close();
      await proxy.close();
      await idp.close();
      await new Promise<void>((resolve) => {
        control.close(() => {
          resolve();
        });
      });
    },
  };
}
