/**
 * Proxy authentication end to end (docs/activities.md#proxy-authentication): a person's ticket
 * from `POST /applications/{id}/proxy-tickets`, carried in a request's query or its Referer
 * through the proxy host, reaches the activity's backend as the three signed headers, which the
 * platform's own example checks with the app's public key. Over real sockets: the platform on a
 * loopback port, the backend a local HTTP server.
 */
import { createPublicKey, verify } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { seedDeveloper, startTestServer, type TestServer } from '../../test/support/testServer.js';

/** The backend: answers every request, and greets every WebSocket, with the headers it got. */
function headersTarget(): Server {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.headers));
  });
  new WebSocketServer({ server }).on('connection', (ws, req) => {
    ws.send(JSON.stringify(req.headers));
  });
  return server;
}

/**
 * What the platform's example does with the headers ("Validating Proxy Request Headers"): the
 * payload's `created_at` is the timestamp, it has not expired, and the app's key signed it.
 */
function checkAsTheDocsDo(headers: IncomingHttpHeaders, publicKeyHex: string, nowS: number) {
  const signature = headers['x-signature-ed25519'];
  const timestamp = headers['x-signature-timestamp'];
  const payload = headers['x-discord-proxy-payload'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return 'missing';
  if (typeof payload !== 'string') return 'missing';
  const payloadBytes = Buffer.from(payload, 'base64');
  const data = JSON.parse(payloadBytes.toString('utf-8')) as Record<string, unknown>;
  if (String(data['created_at']) !== timestamp) return 'invalid request timestamp';
  if (Number(data['expires_at']) < nowS) return 'expired proxy token';
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyHex, 'hex').toString('base64url') },
    format: 'jwk',
  });
  if (!verify(null, payloadBytes, key, Buffer.from(signature, 'base64'))) {
    return 'invalid request signature';
  }
  return data;
}

describe('proxy tickets and proxy authentication', () => {
  const target = headersTarget();
  let server: TestServer;
  let port: number;
  let dev: Awaited<ReturnType<typeof seedDeveloper>>;
  let other: Awaited<ReturnType<typeof seedDeveloper>>;
  let publicKey = '';

  const api = async (method: string, path: string, token: string) => {
    const res = await fetch(`${server.baseUrl}/api/v10${path}`, {
      method,
      headers: { authorization: token, 'content-type': 'application/json' },
      body: method === 'POST' ? '{}' : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const ticketFor = async (applicationId: string, token = dev.userToken) => {
    const res = await api('POST', `/applications/${applicationId}/proxy-tickets`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return String(res.body['ticket']);
  };

  /** A GET on an app's activity origin; answers what the backend saw. */
  const viaProxy = (applicationId: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<IncomingHttpHeaders>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          headers: { host: `${applicationId}.activities.localhost:${String(port)}`, ...headers },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`status ${String(res.statusCode)}`));
            else resolve(JSON.parse(Buffer.concat(chunks).toString()) as IncomingHttpHeaders);
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  const origin = (applicationId: string) =>
    `http://${applicationId}.activities.localhost:${String(port)}`;

  const activity = (applicationId: string, requiresAgeGate = false) =>
    server.app.storage.activities.saveConfig({
      applicationId,
      urlMappings: [{ prefix: '/', target: `127.0.0.1:${String(targetPort)}` }],
      supportedPlatforms: ['web'],
      defaultOrientationLockState: null,
      tabletDefaultOrientationLockState: null,
      requiresAgeGate,
      updatedAt: Date.now(),
    });
  let targetPort = 0;

  beforeAll(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetPort = (target.address() as AddressInfo).port;
    server = await startTestServer({ listen: true, config: { activityAllowLoopback: true } });
    port = Number(new URL(server.baseUrl).port);
    dev = await seedDeveloper(server.app);
    other = await seedDeveloper(server.app, 'other');
    await activity(dev.applicationId);
    await activity(other.applicationId);
    const app = await server.app.storage.applications.findById(dev.applicationId);
    publicKey = app?.verifyKey ?? '';
  });

  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => target.close(resolve));
  });

  it('gives a person a ticket their app can check, for an hour', async () => {
    const before = Math.floor(Date.now() / 1000);
    const ticket = await ticketFor(dev.applicationId);
    const seen = await viaProxy(dev.applicationId, `/?discord_proxy_ticket=${ticket}`);
    const payload = checkAsTheDocsDo(seen, publicKey, before);
    expect(payload).toEqual({
      application_id: dev.applicationId,
      user_id: dev.userId,
      created_at: expect.any(Number) as number,
      expires_at: expect.any(Number) as number,
    });
    const { created_at: createdAt, expires_at: expiresAt } = payload as {
      created_at: number;
      expires_at: number;
    };
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(expiresAt - createdAt).toBe(3600);
    // Another person's ticket names them.
    const theirs = await ticketFor(dev.applicationId, other.userToken);
    const seenTheirs = await viaProxy(dev.applicationId, `/x?discord_proxy_ticket=${theirs}`);
    expect(checkAsTheDocsDo(seenTheirs, publicKey, before)).toMatchObject({
      user_id: other.userId,
    });
  });

  it("takes the ticket from the Referer of the activity's own page", async () => {
    const ticket = await ticketFor(dev.applicationId);
    const page = `${origin(dev.applicationId)}/?instance_id=i-1&discord_proxy_ticket=${encodeURIComponent(ticket)}`;
    const seen = await viaProxy(dev.applicationId, '/api/score', { referer: page });
    expect(checkAsTheDocsDo(seen, publicKey, 0)).toMatchObject({ user_id: dev.userId });
    // A page of another origin naming the ticket is not taken.
    const elsewhere = page.replace(origin(dev.applicationId), 'http://evil.test');
    const foreign = await viaProxy(dev.applicationId, '/api/score', { referer: elsewhere });
    expect(foreign['x-discord-proxy-payload']).toBeUndefined();
  });

  it('signs a WebSocket that names the ticket in its URL', async () => {
    const ticket = await ticketFor(dev.applicationId);
    const ws = new WebSocket(
      `ws://127.0.0.1:${String(port)}/rt?discord_proxy_ticket=${encodeURIComponent(ticket)}`,
      { headers: { host: `${dev.applicationId}.activities.localhost:${String(port)}` } },
    );
    const greeting = await new Promise<string>((resolve, reject) => {
      ws.once('message', (data: Buffer) => {
        resolve(data.toString());
      });
      ws.once('error', reject);
    });
    ws.close();
    const seen = JSON.parse(greeting) as IncomingHttpHeaders;
    expect(checkAsTheDocsDo(seen, publicKey, 0)).toMatchObject({ user_id: dev.userId });
  });

  it('never forwards headers it did not sign', async () => {
    const ticket = await ticketFor(dev.applicationId);
    const [payload = '', signature = ''] = ticket.split('.');
    // The browser's own copies are dropped.
    const forged = {
      'x-discord-proxy-payload': Buffer.from('{"user_id":"1"}').toString('base64'),
      'x-signature-ed25519': 'AAAA',
      'x-signature-timestamp': '1',
    };
    const plain = await viaProxy(dev.applicationId, '/', forged);
    expect(plain['x-discord-proxy-payload']).toBeUndefined();
    expect(plain['x-signature-ed25519']).toBeUndefined();
    expect(plain['x-signature-timestamp']).toBeUndefined();
    // A payload changed under its signature, and a ticket of another app, are not forwarded.
    const changed = JSON.parse(Buffer.from(payload, 'base64url').toString()) as object;
    const tampered = `${Buffer.from(JSON.stringify({ ...changed, user_id: other.userId })).toString('base64url')}.${signature}`;
    for (const [app, t] of [
      [dev.applicationId, tampered],
      [other.applicationId, ticket],
      [dev.applicationId, 'not-a-ticket'],
    ] as const) {
      const seen = await viaProxy(app, `/?discord_proxy_ticket=${encodeURIComponent(t)}`, forged);
      expect(seen['x-discord-proxy-payload'], t).toBeUndefined();
      expect(seen['x-signature-ed25519'], t).toBeUndefined();
    }
  });

  it('refuses apps a person may not launch', async () => {
    const bare = await seedDeveloper(server.app, 'bare');
    const notEmbedded = await api(
      'POST',
      `/applications/${bare.applicationId}/proxy-tickets`,
      dev.userToken,
    );
    expect(notEmbedded.status).toBe(400);
    expect(notEmbedded.body['code']).toBe(50035);
    await activity(bare.applicationId, true);
    const gated = await api(
      'POST',
      `/applications/${bare.applicationId}/proxy-tickets`,
      dev.userToken,
    );
    expect([gated.status, gated.body['code']]).toEqual([403, 20024]);
    await server.app.storage.users.setNsfwAllowed(dev.userId, true);
    expect((await ticketFor(bare.applicationId)).length).toBeGreaterThan(0);
    const unknown = await api('POST', '/applications/1234/proxy-tickets', dev.userToken);
    expect([unknown.status, unknown.body['code']]).toEqual([404, 10002]);
    // People only: an app's bot has no person to vouch for (a session route refuses it).
    const bot = await api(
      'POST',
      `/applications/${dev.applicationId}/proxy-tickets`,
      `Bot ${dev.botToken}`,
    );
    expect(bot.status).toBe(403);
  });
});
