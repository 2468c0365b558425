/**
 * The outage drill of docs/operations.md (Outages): two API and two gateway processes (the built
 * CLI) on a PostgreSQL, a NATS (JetStream) and a Redis of the test's own, a writer posting 20
 * messages a second through both API nodes (retrying a write elsewhere until acknowledged), and
 * two bots that behave as good clients (heartbeats, RESUME on close, IDENTIFY on INVALID_SESSION).
 * One after another: a gateway node and an API node killed with SIGKILL and started again, Redis
 * killed and started empty, NATS killed and started a second later, PostgreSQL killed and started
 * a second later. No acknowledged write may be lost, and every bot must hear every acknowledged
 * message without being told to start over.
 *
 * `GUILDHALL_OUTAGE_REPORT=<file>` writes what each fault cost (bench/outages.js prints it).
 *
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { GatewayIntentBits as I, PermissionFlags as P } from '@guildhall/protocol';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPostgresStorage } from '../src/storage/postgres/index.js';
import { createCluster, type Cluster, type ClusterNode } from './support/cluster.js';
import { SteadyWriter, runDrill, type Fault } from './support/outageDrill.js';
import {
  privateServersAvailable,
  startPrivateNats,
  startPrivatePostgres,
  startPrivateRedis,
  type PrivateServer,
} from './support/privateServers.js';
import { ResumingBot } from './support/resumingBot.js';
import { seedDeveloper } from './support/testServer.js';

const BOTS = 2;
const WRITES_PER_SECOND = 20;
/** How long NATS and PostgreSQL stay down before they are started again, ms. */
const DOWN_MS = 1000;
/** Steady traffic after each fault, before the next, ms. */
const SETTLE_MS = 1500;
/** Generous: four processes and three servers on a shared, loaded machine. */
const TEST_TIMEOUT_MS = 240_000;

/** The world, written to the cluster's schema before its processes start. */
async function seed(cluster: Cluster, databaseUrl: string) {
  const storage = await createPostgresStorage({
    connectionString: databaseUrl,
    schema: cluster.schema,
  });
  const app = await createApp(
    { ...loadConfig({}), dataDir: cluster.dataDir, logLevel: 'silent', demo: false },
    { overrides: { storage } },
  );
  try {
    const dev = await seedDeveloper(app, 'drill');
    const { guild, channels } = await app.services.guilds.create({
      ownerId: dev.userId,
      name: 'Drill',
      channels: [{ name: 'general', type: 'text' }],
    });
    const botTokens: string[] = [];
    for (let i = 0; i < BOTS; i++) {
      const made = await app.services.applications.create(dev.userId, { name: `bot ${i}` });
      await app.services.guilds.addBot({
        guildId: guild.id,
        applicationId: made.application.id,
        permissions: P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY,
      });
      botTokens.push(`Bot ${made.botToken}`);
    }
    return { userToken: dev.userToken, channelId: channels[0]?.id ?? '', botTokens };
  } finally {
    await app.close();
  }
}

/** The ids of the messages stored in the channel. */
async function storedIds(databaseUrl: string, schema: string, channelId: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `SELECT id::text AS id FROM "${schema}".messages WHERE channel_id = $1`,
      [channelId],
    );
    return new Set(rows.map((row) => row.id));
  } finally {
    await client.end();
  }
}

const origin = (node: ClusterNode) => node.origin;

describe.skipIf(!privateServersAvailable)('outages one after another under traffic', () => {
  let servers: { pg: PrivateServer; nats: PrivateServer; redis: PrivateServer } | null = null;
  let cluster: Cluster | null = null;
  let writer: SteadyWriter | null = null;
  const bots: ResumingBot[] = [];

  beforeAll(async () => {
    const [postgres, nats, redis] = await Promise.all([
      startPrivatePostgres(),
      startPrivateNats(),
      startPrivateRedis(),
    ]);
    servers = { pg: postgres, nats, redis };
  }, TEST_TIMEOUT_MS);
  afterAll(async () => {
    for (const bot of bots) bot.stop();
    await cluster?.close();
    if (servers !== null) await Promise.all(Object.values(servers).map((s) => s.remove()));
  }, TEST_TIMEOUT_MS);

  it(
    'loses no acknowledged write and leaves no event unheard',
    async () => {
      if (servers === null) throw new Error('no private servers');
      const { pg: postgres, nats, redis } = servers;
      cluster = await createCluster(
        // Only the global limit applies: the writer's 20 a second stay within it.
        { GUILDHALL_ROUTE_RATE_LIMIT: '100000/1' },
        { databaseUrl: postgres.url, natsUrl: nats.url, redisUrl: redis.url },
      );
      const world = await seed(cluster, postgres.url);
      const live = cluster;
      const nodes = {
        api: await Promise.all([live.start('api'), live.start('api')]),
        gateway: await Promise.all([live.start('gateway'), live.start('gateway')]),
      };
      const nodeUrls = () => [...nodes.api, ...nodes.gateway].map(origin);

      for (const [i, token] of world.botTokens.entries()) {
        // Each bot starts on its own gateway node and tries the other next.
        const bot = new ResumingBot({
          token,
          intents: I.GUILDS | I.GUILD_MESSAGES,
          gatewayUrls: () => {
            const urls = nodes.gateway.map((node) => node.gatewayUrl);
            return [...urls.slice(i % urls.length), ...urls.slice(0, i % urls.length)];
          },
        });
        bots.push(bot);
        await bot.start();
      }
      writer = new SteadyWriter({
        apiUrls: () => nodes.api.map((node) => node.apiUrl),
        token: world.userToken,
        channelId: world.channelId,
        perSecond: WRITES_PER_SECOND,
      });
      writer.start();

      const restart = (role: 'api' | 'gateway') => ({
        inject: async () => {
          const victim = nodes[role][0];
          victim.kill('SIGKILL');
          await victim.exited;
        },
        restore: async () => {
          nodes[role][0] = await live.start(role);
        },
      });
      const faults: Fault[] = [
        { name: 'kill -9 a gateway node', downMs: 0, ...restart('gateway') },
        { name: 'kill -9 an API node', downMs: 0, ...restart('api') },
        {
          name: 'Redis killed, restarted empty',
          downMs: DOWN_MS,
          inject: () => redis.stop('kill'),
          restore: () => redis.start(),
        },
        {
          name: 'NATS killed, restarted 1 s later',
          downMs: DOWN_MS,
          inject: () => nats.stop('kill'),
          restore: () => nats.start(),
        },
        {
          name: 'PostgreSQL killed, restarted 1 s later',
          downMs: DOWN_MS,
          inject: () => postgres.stop('kill'),
          restore: () => postgres.start(),
        },
      ];
      const reports = await runDrill({
        faults,
        writer,
        bots,
        nodeUrls,
        settleMs: SETTLE_MS,
        readyTimeoutMs: 30_000,
        deliveryTimeoutMs: 30_000,
      });
      const reportFile = process.env['GUILDHALL_OUTAGE_REPORT'];
      if (reportFile !== undefined) await writeFile(reportFile, JSON.stringify(reports, null, 2));

      // Every node came back after every fault (none was left dead: a crash, say).
      expect(reports.filter((r) => r.readyAgainMs === null).map((r) => r.fault)).toEqual([]);
      // Every write an API node acknowledged is stored.
      const stored = await storedIds(postgres.url, live.schema, world.channelId);
      const acknowledged = writer.acknowledged.map((a) => a.id);
      expect(acknowledged.length).toBeGreaterThan(0);
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      // Every bot heard every one, and no session had to start over.
      expect(
        reports.map((r) => ({ fault: r.fault, missed: r.missed, invalid: r.invalidations })),
      ).toEqual(faults.map((f) => ({ fault: f.name, missed: [0, 0], invalid: [0, 0] })));
      // The writes met the faults (the drill did break things), and were retried until taken.
      const failed = reports.map((r) => Object.keys(r.writeFailures).length > 0);
      expect(failed[1]).toBe(true);
      expect(failed[4]).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
