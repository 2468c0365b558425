/**
 * Two nodes (two apps in this process, on one database) with one REDIS_URL share every limit:
 * the HTTP rate limits, the session start limit, the identify buckets, the op 8 all-members
 * window, and the presences GUILD_CREATE shows. Each check would pass on a single node and fails
 * when the nodes keep their counts apart, as they do without Redis.
 *
 * @module
 */
import { ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, realTimers, type Timers } from '../src/domain/clock.js';
import { IDENTIFY_WINDOW_MS } from '../src/gateway/identifyQueue.js';
import { describeDrivers, type Driver } from './support/drivers.js';
import { advanceToNextTest, uniqueName } from './support/fileServer.js';
import { connectGateway, identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { nodesDatabase, useNodePair } from './support/nodePair.js';
import {
  TEST_REDIS_URL,
  deleteRedisPrefix,
  redisAvailable,
  uniqueRedisPrefix,
} from './support/redis.js';
import { seedDeveloper, type TestServer, type TestServerOptions } from './support/testServer.js';
import { apiRequest } from './support/inject.js';

const NOW = Date.UTC(2026, 10, 24, 12);

/**
 * Two nodes on one database and one Redis prefix for the block (none when Redis is unreachable:
 * the tests skip). The limits they share are kept per bot, address, guild or user, and each test
 * has its own: they share the nodes.
 */
function useTwoNodes(driver: Driver, options: Omit<TestServerOptions, 'storage' | 'database'>) {
  return useNodePair(async () => {
    if (!redisAvailable) return null;
    const redisKeyPrefix = uniqueRedisPrefix('nodes');
    const database = await nodesDatabase(driver);
    return {
      options: {
        ...options,
        ...database.options,
        config: { ...options.config, redisUrl: TEST_REDIS_URL, redisKeyPrefix },
      },
      cleanup: [...database.cleanup, () => deleteRedisPrefix(redisKeyPrefix)],
    };
  });
}

let addresses = 0;

/**
 * What sends the test's GETs (under /api/v10, as `authorization`), from a client address no other
 * test of the file has (TEST-NET-2): its per-address counts are its own.
 */
const requester = () => {
  const remoteAddress = `198.51.100.${String(++addresses)}`;
  return (server: TestServer, url: string, auth: string) =>
    apiRequest(server.app, `GET ${url}`, { auth, remoteAddress });
};

describeDrivers('HTTP limits across two nodes on $driver and Redis', (driver) => {
  const clock = manualClock(NOW);
  // The limits of every test at once. Each test's bot and address are its own, so a limit it
  // does not test stays out of reach: a route bucket of 3 and a global limit of 4 per bot, and
  // 3 invalid requests per address (the tests' 429s count as invalid, each on its own address).
  const nodes = useTwoNodes(driver, {
    clock,
    defaultRouteBucket: { limit: 3, windowMs: 5000 },
    invalidRequestLimit: { limit: 3, windowMs: 600_000 },
    config: { globalRateLimitPerSecond: 4 },
  });
  beforeEach((ctx) => {
    if (!redisAvailable) ctx.skip();
    advanceToNextTest(clock, NOW);
  });

  it('one route bucket: the headers count down across nodes, then 429', async () => {
    const { a, b } = nodes();
    const get = requester();
    const { botToken } = await seedDeveloper(a.app, uniqueName('dev'));
    const answers = [];
    for (const node of [a, b, a, b]) {
      answers.push(await get(node, '/users/@me', `Bot ${botToken}`));
    }
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
    const { a, b } = nodes();
    const get = requester();
    const { botToken } = await seedDeveloper(a.app, uniqueName('dev'));
    const auth = `Bot ${botToken}`;
    // Routes of their own (a bucket each, not spent here): only the global limit is common.
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
    const { a, b } = nodes();
    const get = requester();
    const { botToken } = await seedDeveloper(a.app, uniqueName('dev'));
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
  const clock = manualClock(NOW);
  // One set of held waits for both nodes: only a wait for a later window lands in it.
  const waits = holdIdentifyWaits();
  const nodes = useTwoNodes('sqlite', {
    clock,
    listen: true,
    gatewayTimers: waits.timers,
    // One identify per bucket and window: the identify test queues its second one, the others
    // identify their bot a window apart. Short heartbeats keep the sweep's turns shorter than
    // an identify window; the long grace keeps 4009 away from sessions the clock passes by.
    gateway: {
      heartbeatIntervalMs: 2000,
      heartbeatGraceMs: 600_000,
      maxConcurrency: 1,
      identifiesPerBucket: 1,
    },
  });
  const clients: GatewayClient[] = [];
  /** The users whose sessions the test opened. */
  const users: string[] = [];
  beforeEach(() => {
    advanceToNextTest(clock, NOW);
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.raw.terminate();
    // The test's sessions end rather than wait for a RESUME: the next test counts the sessions.
    const userIds = users.splice(0);
    const { a, b } = nodes();
    for (const node of [a, b]) node.app.gateway.revoke({ tokenHashes: [], userIds });
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
    users.push((ready['user'] as { id: string }).id);
    return { client, ready };
  };

  it('one identify bucket and one session start budget for both nodes', async () => {
    const { a, b } = nodes();
    const { botToken } = await seedDeveloper(a.app, uniqueName('dev'));
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
    const gatewayBot = (await apiRequest(b.app, 'GET /gateway/bot', { auth: token })).json<{
      session_start_limit: { total: number; remaining: number };
    }>();
    expect(gatewayBot.session_start_limit).toMatchObject({ total: 1000, remaining: 998 });

    clock.advance(IDENTIFY_WINDOW_MS);
    waits.held[0]?.();
    expect((await queued.dispatch('READY')).d).toMatchObject({ shard: [1, 2] });
  });

  it('the op 8 all-members window holds across nodes', async () => {
    const { a, b } = nodes();
    const fixture = await guildFixture(a, { botPermissions: 0n, nowMs: () => clock.now() });
    await privileged(a, fixture);
    const intents = I.GUILDS | I.GUILD_MEMBERS;
    const onA = await session(a, fixture.bot.token, intents);
    // The bot's second identify, a window after its first: one per window here.
    clock.advance(IDENTIFY_WINDOW_MS);
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
    const { a, b } = nodes();
    const fixture = await guildFixture(a, { botPermissions: 0n, nowMs: () => clock.now() });
    await privileged(a, fixture);
    const intents = I.GUILDS | I.GUILD_PRESENCES;
    const sender = await session(a, fixture.bot.token, intents);
    await sender.client.dispatch('GUILD_CREATE');
    const activities = [{ name: 'chess', type: 0 }];
    sender.client.send(3, { status: 'dnd', activities, since: null, afk: false });
    // A's own PRESENCE_UPDATE is sent once the presence is stored.
    await sender.client.dispatch('PRESENCE_UPDATE');

    // The bot's second identify, a window after its first: one per window here.
    clock.advance(IDENTIFY_WINDOW_MS);
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
