/**
 * Two nodes (two apps in this process, on one database) with one REDIS_URL share every limit:
 * the HTTP rate limits, the session start limit, the identify buckets, the op 8 all-members
 * window, and the presences GUILD_CREATE shows. Each check would pass on a single node and fails
 * when the nodes keep their counts apart, as they do without Redis.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, realTimers, type Timers } from '../src/domain/clock.js';
import { IDENTIFY_WINDOW_MS } from '../src/gateway/identifyQueue.js';
import { describeDrivers, type Driver } from './support/drivers.js';
import { connectGateway, identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { dropSchema, uniqueSchema } from './support/postgres.js';
import {
  TEST_REDIS_URL,
  deleteRedisPrefix,
  redisAvailable,
  uniqueRedisPrefix,
} from './support/redis.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
  type TestServerOptions,
} from './support/testServer.js';
import { apiRequest } from './support/inject.js';

const NOW = Date.UTC(2026, 10, 24, 12);

/** Two nodes on one database and one Redis prefix; closes them and cleans up after each test. */
function twoNodes(driver: Driver) {
  const servers: TestServer[] = [];
  let cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0).reverse()) await server.close();
    for (const step of cleanup.splice(0)) await step();
  });
  return async (options: Omit<TestServerOptions, 'storage' | 'database'> = {}) => {
    const redisKeyPrefix = uniqueRedisPrefix('nodes');
    let database: string;
    if (driver === 'postgres') {
      database = uniqueSchema('nodes');
      cleanup = [() => dropSchema(database)];
    } else {
      const dir = await mkdtemp(join(tmpdir(), 'guildhall-nodes-'));
      database = join(dir, 'guildhall.db');
      cleanup = [() => rm(dir, { recursive: true, force: true })];
    }
    cleanup.push(() => deleteRedisPrefix(redisKeyPrefix));
    const open = async () => {
      const server = await startTestServer({
        ...options,
        storage: driver,
        database,
        config: { ...options.config, redisUrl: TEST_REDIS_URL, redisKeyPrefix },
      });
      servers.push(server);
      return server;
    };
    const a = await open();
    const b = await open();
    return { a, b };
  };
}

const get = (server: TestServer, url: string, authorization: string) =>
  apiRequest(server.app, `GET ${url}`, { auth: authorization });

describeDrivers('HTTP limits across two nodes on $driver and Redis', (driver) => {
  const nodes = twoNodes(driver);
  beforeEach((ctx) => {
    if (!redisAvailable) ctx.skip();
  });

  it('one route bucket: the headers count down across nodes, then 429', async () => {
    const clock = manualClock(NOW);
    const { a, b } = await nodes({ clock, defaultRouteBucket: { limit: 3, windowMs: 5000 } });
    const { botToken } = await seedDeveloper(a.app);
    const answers = [];
    for (const node of [a, b, a, b]) answers.push(await get(node, '/users/@me', `Bot ${botToken}`));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expect(answers.slice(0, 3).map((r) => r.headers['x-ratelimit-remaining'])).toEqual([
      '2',
      '1',
      '0',
    ]);
    expect(new Set(answers.map((r) => r.headers['x-ratelimit-bucket'])).size).toBe(1);
    expect(answers[3]?.headers['x-ratelimit-scope']).toBe('user');
    expect(answers[3]?.json()).toMatchObject({ global: false, retry_after: 5 });
  });

  it('one global limit: a bot’s requests split across nodes hit 429 at the shared limit', async () => {
    const clock = manualClock(NOW);
    const { a, b } = await nodes({ clock, config: { globalRateLimitPerSecond: 4 } });
    const { botToken } = await seedDeveloper(a.app);
    const auth = `Bot ${botToken}`;
    // Routes of their own (each with a wide bucket here): only the global limit is common.
    const calls = [
      () => get(a, '/users/@me', auth),
      () => get(b, '/applications/@me', auth),
      () => get(a, '/users/@me/guilds', auth),
      () => get(b, '/gateway/bot', auth),
      () => get(a, '/users/@me', auth),
    ];
    const answers = [];
    for (const call of calls) answers.push(await call());
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 429]);
    expect(answers[4]?.json()).toMatchObject({ global: true });
    expect(answers[4]?.headers['x-ratelimit-global']).toBe('true');
    // A second later, a new window on either node.
    clock.advance(1000);
    expect((await get(b, '/users/@me', auth)).statusCode).toBe(200);
  });

  it('one invalid-request count per address: 401s on one node refuse the address on the other', async () => {
    const { a, b } = await nodes({ invalidRequestLimit: { limit: 3, windowMs: 600_000 } });
    const { botToken } = await seedDeveloper(a.app);
    for (const node of [a, b, a]) {
      expect((await get(node, '/users/@me', 'Bot wrong')).statusCode).toBe(401);
    }
    const refused = await get(b, '/users/@me', `Bot ${botToken}`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ global: true });
  });
});

/**
 * Timers that hold the identify queue's waits (exactly one identify window long) until the test
 * runs them, and leave the gateway's other waits (shorter here) to the event loop.
 */
function holdIdentifyWaits() {
  const held: (() => void)[] = [];
  const timers: Timers = {
    schedule(fn, ms) {
      if (ms !== IDENTIFY_WINDOW_MS) return realTimers.schedule(fn, ms);
      held.push(fn);
      return () => {
        held.splice(held.indexOf(fn), 1);
      };
    },
  };
  return { timers, held };
}

describe.skipIf(!redisAvailable)('the gateway across two nodes on Redis', () => {
  const nodes = twoNodes('sqlite');
  const clients: GatewayClient[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.raw.terminate();
  });

  const privileged = async (server: TestServer, fixture: GuildFixture) => {
    await server.app.storage.applications.update(fixture.bot.applicationId, {
      flags:
        ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED | ApplicationFlags.GATEWAY_PRESENCE_LIMITED,
    });
  };
  const session = async (server: TestServer, token: string, intents: number) => {
    const { client, ready } = await identifyGateway(server.app.gatewayUrl(), { token, intents });
    clients.push(client);
    return { client, ready };
  };

  it('one identify bucket and one session start budget for both nodes', async () => {
    const clock = manualClock(NOW);
    // One set of held waits for both nodes: only a wait for a later window lands in it.
    const waits = holdIdentifyWaits();
    // Short heartbeats keep the sweep's turns shorter than an identify window.
    const gateway = { heartbeatIntervalMs: 2000, maxConcurrency: 1, identifiesPerBucket: 1 };
    const { a, b } = await nodes({ clock, listen: true, gateway, gatewayTimers: waits.timers });
    const { botToken } = await seedDeveloper(a.app);
    const token = `Bot ${botToken}`;

    await session(a, token, I.GUILDS);
    expect(waits.held).toHaveLength(0);
    // Shard 1 of 2 is in the same bucket (1 % max_concurrency 1): its turn is the next window,
    // though it identifies on the other node.
    const queued = await connectGateway(b.app.gatewayUrl());
    clients.push(queued);
    await queued.next((f) => f.op === 10);
    queued.send(2, {
      token,
      intents: I.GUILDS,
      shard: [1, 2],
      properties: { os: 'linux', browser: 'test', device: 'test' },
    });
    await expect.poll(() => waits.held.length).toBe(1);
    expect(b.app.gateway.sessionCount()).toBe(0);
    // Both identifies were spent from the bot's one daily budget, as either node reports it.
    const gatewayBot = (await get(b, '/gateway/bot', token)).json<{
      session_start_limit: { total: number; remaining: number };
    }>();
    expect(gatewayBot.session_start_limit).toMatchObject({ total: 1000, remaining: 998 });

    clock.advance(IDENTIFY_WINDOW_MS);
    waits.held[0]?.();
    expect((await queued.dispatch('READY')).d).toMatchObject({ shard: [1, 2] });
  });

  it('the op 8 all-members window holds across nodes', async () => {
    const clock = manualClock(NOW);
    const { a, b } = await nodes({
      clock,
      listen: true,
      gateway: { identifiesPerBucket: 1000 },
    });
    const fixture = await guildFixture(a, { botPermissions: 0n, nowMs: () => clock.now() });
    await privileged(a, fixture);
    const intents = I.GUILDS | I.GUILD_MEMBERS;
    const onA = await session(a, fixture.bot.token, intents);
    const onB = await session(b, fixture.bot.token, intents);
    await onA.client.dispatch('GUILD_CREATE');
    await onB.client.dispatch('GUILD_CREATE');
    const all = { guild_id: fixture.guildId, query: '', limit: 0 };
    onA.client.send(8, { ...all, nonce: 'a' });
    expect((await onA.client.dispatch('GUILD_MEMBERS_CHUNK')).d).toMatchObject({ nonce: 'a' });
    clock.advance(10_000);
    onB.client.send(8, { ...all, nonce: 'b' });
    expect((await onB.client.dispatch('RATE_LIMITED')).d).toEqual({
      opcode: 8,
      retry_after: 20,
      meta: { guild_id: fixture.guildId, nonce: 'b' },
    });
  });

  it('a presence set on one node shows in a GUILD_CREATE built on the other', async () => {
    const clock = manualClock(NOW);
    const { a, b } = await nodes({
      clock,
      listen: true,
      gateway: { identifiesPerBucket: 1000 },
    });
    const fixture = await guildFixture(a, { botPermissions: 0n, nowMs: () => clock.now() });
    await privileged(a, fixture);
    const intents = I.GUILDS | I.GUILD_PRESENCES;
    const sender = await session(a, fixture.bot.token, intents);
    await sender.client.dispatch('GUILD_CREATE');
    const activities = [{ name: 'chess', type: 0 }];
    sender.client.send(3, { status: 'dnd', activities, since: null, afk: false });
    // A's own PRESENCE_UPDATE is sent once the presence is stored.
    await sender.client.dispatch('PRESENCE_UPDATE');

    const viewer = await session(b, fixture.bot.token, intents);
    const created = (await viewer.client.dispatch('GUILD_CREATE')).d as {
      presences: { user: { id: string }; status: string; activities: unknown[] }[];
    };
    expect(created.presences).toEqual([
      {
        user: { id: fixture.bot.userId },
        status: 'dnd',
        activities,
        client_status: { web: 'dnd' },
      },
    ]);
  });
});
