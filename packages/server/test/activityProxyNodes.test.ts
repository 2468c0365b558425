/**
 * The activity proxy host holds each application's URL mappings in memory
 * (activities/mappingCache.ts); a change to them is in force on every node, not only after the
 * held copy expires. Two nodes share PostgreSQL and NATS: node B proxies an activity (and so
 * holds its mappings), the owner points the mapping elsewhere through node A, and B's next
 * requests go to the new target as soon as the bus brings A's revocation (events/revocations.ts);
 * A's own requests go there at once.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { keyringOf } from '../src/domain/keyring.js';
import { apiRequest } from './support/inject.js';
import { natsAvailable, TEST_NATS_URL } from './support/nats.js';
import { dropSchema, postgresAvailable, uniqueSchema } from './support/postgres.js';
import { seedDeveloper, startTestServer, type TestServer } from './support/testServer.js';

/** A target that answers every request with its own name. */
async function namedTarget(name: string): Promise<{ server: Server; host: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end(name);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, host: `127.0.0.1:${String((server.address() as AddressInfo).port)}` };
}

/** GET `/` on the application's activity origin through `node`: the answering target's name. */
function throughProxy(node: TestServer, applicationId: string): Promise<string> {
  const port = Number(new URL(node.baseUrl).port);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/',
        headers: { host: `${applicationId}.activities.localhost:${String(port)}` },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve(`${String(res.statusCode)} ${Buffer.concat(chunks).toString()}`);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Sets the application's URL mappings through `node`, with its owner's session. */
async function setMappings(
  node: TestServer,
  app: { owner: string; applicationId: string },
  mappings: { prefix: string; target: string }[],
) {
  const res = await apiRequest(
    node.app,
    `PATCH /applications/${app.applicationId}/embedded-activity-config`,
    { auth: app.owner, payload: { url_mappings: mappings } },
  );
  expect(res.statusCode, res.body).toBe(200);
}

describe.skipIf(!postgresAvailable || !natsAvailable)('activity URL mappings across nodes', () => {
  const targets: Server[] = [];
  const nodes: TestServer[] = [];
  const schema = uniqueSchema('mappings');

  afterAll(async () => {
    for (const node of nodes.splice(0).reverse()) await node.close();
    for (const server of targets) await new Promise((resolve) => server.close(resolve));
    await dropSchema(schema);
  });

  it('a mapping changed through node A is in force on node B, which held the old one', async () => {
    const one = await namedTarget('one');
    const two = await namedTarget('two');
    targets.push(one.server, two.server);
    const shared = {
      listen: true,
      storage: 'postgres' as const,
      database: schema,
      // Nodes sharing a database share the secret key too (docs/operations.md, Secret key).
      config: {
        natsUrl: TEST_NATS_URL,
        secretKey: keyringOf(randomBytes(32)),
        activityAllowLoopback: true,
      },
    };
    const a = await startTestServer(shared);
    nodes.push(a);
    const b = await startTestServer(shared);
    nodes.push(b);
    const dev = await seedDeveloper(a.app, 'mapper');
    const activity = { owner: dev.userToken, applicationId: dev.applicationId };

    await setMappings(a, activity, [{ prefix: '/', target: one.host }]);
    // Both nodes now hold the mappings naming target one.
    expect(await throughProxy(a, dev.applicationId)).toBe('200 one');
    expect(await throughProxy(b, dev.applicationId)).toBe('200 one');

    await setMappings(a, activity, [{ prefix: '/', target: two.host }]);
    // A forgot its copy before answering the change.
    expect(await throughProxy(a, dev.applicationId)).toBe('200 two');
    // B forgets its copy as soon as the revocation arrives, long before the copy would expire.
    await expect
      .poll(() => throughProxy(b, dev.applicationId), { timeout: 5000, interval: 20 })
      .toBe('200 two');

    // Removing the root mapping ends the activity on B as well.
    await setMappings(a, activity, []);
    await expect
      .poll(() => throughProxy(b, dev.applicationId), { timeout: 5000, interval: 20 })
      .toMatch(/^404 /);
  });
});
