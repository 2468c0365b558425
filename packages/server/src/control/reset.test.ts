import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayIntentBits } from '@guildhall/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifyGateway, connectGateway } from '../../test/support/gatewayClient.js';
import { useFileServer } from '../../test/support/fileServer.js';
import { apiRequest } from '../../test/support/inject.js';
import { postgresAvailable } from '../../test/support/postgres.js';
import { startTestServer, type TestServer } from '../../test/support/testServer.js';
import { SnapshotUnsupportedError } from './reset.js';
import type { WorldFile } from './worldSchema.js';
import type { LoadedWorld } from './worldTypes.js';

const WORLD: WorldFile = {
  people: { alice: null, bob: null },
  applications: { helper: { owner: 'alice' } },
  guilds: {
    main: {
      owner: 'alice',
      channels: { general: {} },
      members: { bob: null },
      bots: { helper: { permissions: ['SEND_MESSAGES', 'VIEW_CHANNEL'] } },
    },
  },
};

/** What a test changes after the world loaded: a message, a member gone, a new account. */
async function changeEverything(server: TestServer, world: LoadedWorld) {
  const { app } = server;
  const alice = world.people['alice']?.token ?? '';
  const bot = `Bot ${world.applications['helper']?.botToken ?? ''}`;
  const guild = world.guilds['main'];
  const sent = await apiRequest(
    app,
    `POST /channels/${guild?.channels['general'] ?? ''}/messages`,
    {
      auth: bot,
      payload: { content: 'after the load' },
    },
  );
  expect(sent.statusCode, sent.body).toBe(200);
  const kicked = await apiRequest(
    app,
    `DELETE /guilds/${guild?.id ?? ''}/members/${world.people['bob']?.id ?? ''}`,
    { auth: alice },
  );
  expect(kicked.statusCode, kicked.body).toBe(204);
  const joined = await apiRequest(app, 'POST /auth/register', {
    payload: { username: 'newcomer', email: 'new@example.test', password: 'correct horse battery' },
  });
  expect(joined.statusCode, joined.body).toBe(201);
  const newcomer = joined.json<{ token: string }>().token;
  // Used once, so the authenticator has it cached when the reset comes.
  expect((await apiRequest(app, 'GET /users/@me', { auth: newcomer })).statusCode).toBe(200);
  return { messageId: sent.json<{ id: string }>().id, newcomer };
}

/** Everything changeEverything did is undone. */
async function expectWorldAsLoaded(
  server: TestServer,
  world: LoadedWorld,
  changed: { messageId: string; newcomer: string },
) {
  const { app } = server;
  const alice = world.people['alice']?.token ?? '';
  const guild = world.guilds['main'];
  const channel = guild?.channels['general'] ?? '';
  const messages = await apiRequest(app, `GET /channels/${channel}/messages`, { auth: alice });
  expect(messages.json()).toEqual([]);
  const gone = await apiRequest(app, `GET /channels/${channel}/messages/${changed.messageId}`, {
    auth: alice,
  });
  expect(gone.statusCode).toBe(404);
  const bob = await apiRequest(
    app,
    `GET /guilds/${guild?.id ?? ''}/members/${world.people['bob']?.id ?? ''}`,
    { auth: alice },
  );
  expect(bob.statusCode, bob.body).toBe(200);
  expect((await apiRequest(app, 'GET /users/@me', { auth: changed.newcomer })).statusCode).toBe(
    401,
  );
  // The world's own tokens still work.
  expect((await apiRequest(app, 'GET /users/@me', { auth: alice })).statusCode).toBe(200);
}

describe('reset on SQLite in memory', () => {
  let server: TestServer;
  let world: LoadedWorld;
  beforeAll(async () => {
    server = await startTestServer({ listen: true });
    world = await server.app.worlds.load(WORLD);
  });
  afterAll(() => server.close());

  it('returns messages, members and accounts to the loaded world, every time', async () => {
    for (let round = 0; round < 2; round += 1) {
      const changed = await changeEverything(server, world);
      await server.app.worlds.reset();
      await expectWorldAsLoaded(server, world, changed);
    }
    expect(server.app.worlds.loaded()).toEqual([world]);
  });

  it('ends gateway sessions: a RESUME is refused, a new IDENTIFY sees the world', async () => {
    const token = world.applications['helper']?.botToken ?? '';
    const intents = GatewayIntentBits.GUILDS;
    const { client, ready } = await identifyGateway(server.app.gatewayUrl(), { token, intents });
    await server.app.worlds.reset();
    expect((await client.closed).code).toBe(4000);
    const again = await connectGateway(server.app.gatewayUrl());
    await again.next((f) => f.op === 10);
    again.send(6, { token, session_id: ready.session_id, seq: 1 });
    expect((await again.next((f) => f.op === 9)).d).toBe(false);
    await again.close();
    const fresh = await identifyGateway(server.app.gatewayUrl(), { token, intents });
    expect(fresh.ready['guilds']).toEqual([
      expect.objectContaining({ id: world.guilds['main']?.id }),
    ]);
    await fresh.client.close();
  });

  it('marks a point to return to besides a loaded world', async () => {
    const { app } = server;
    const alice = world.people['alice']?.token ?? '';
    const channel = world.guilds['main']?.channels['general'] ?? '';
    const bot = `Bot ${world.applications['helper']?.botToken ?? ''}`;
    const send = (content: string) =>
      apiRequest(app, `POST /channels/${channel}/messages`, { auth: bot, payload: { content } });
    await send('kept');
    await app.worlds.mark();
    await send('undone');
    await app.worlds.reset();
    const left = await apiRequest(app, `GET /channels/${channel}/messages`, { auth: alice });
    expect(left.json<{ content: string }[]>().map((m) => m.content)).toEqual(['kept']);
  });
});

describe('reset on a SQLite file', () => {
  it('rewrites the file with the snapshot and opens it again', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'guildhall-reset-'));
    try {
      await using server = await startTestServer({ database: join(folder, 'guildhall.db') });
      const world = await server.app.worlds.load(WORLD);
      const changed = await changeEverything(server, world);
      await server.app.worlds.reset();
      await expectWorldAsLoaded(server, world, changed);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!postgresAvailable)('reset on PostgreSQL', () => {
  // A refused snapshot changes nothing: the worker's server of the API files serves.
  const shared = useFileServer({ storage: 'postgres' }, 'api');

  it('is refused with a reason and what to do', async () => {
    const snapshot = shared.server.app.snapshot();
    await expect(snapshot).rejects.toThrow(SnapshotUnsupportedError);
    await expect(snapshot).rejects.toThrow(/on postgres .* run it on SQLite/);
  });
});
