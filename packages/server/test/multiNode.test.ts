/**
 * The multi-node topology of docs/operations.md, as real processes: two API processes and two
 * gateway processes (`guildhall start` with GUILDHALL_ROLE api or gateway, the built CLI) on
 * PostgreSQL, NATS and Redis. Bots are connected to both gateway nodes while messages are posted
 * through both API nodes; one bot's requests split across the API nodes share one global rate
 * limit; a gateway node killed with SIGKILL mid-traffic has its sessions RESUME on the other,
 * and no bot misses a message. Each process has a data folder of its own, as on machines that
 * share none: uploaded files live in an S3-compatible bucket (a server this file starts), so a
 * file posted through one node is served by every other.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { GatewayIntentBits as I, PermissionFlags as P } from '@guildhall/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPostgresStorage } from '../src/storage/postgres/index.js';
import { createCluster, type Cluster, type ClusterNode } from './support/cluster.js';
import {
  connectGateway,
  identifyGateway,
  type Frame,
  type GatewayClient,
} from './support/gatewayClient.js';
import { natsAvailable } from './support/nats.js';
import { startS3Server, type TestS3Server } from './support/s3Server.js';
import { TEST_DATABASE_URL, postgresAvailable } from './support/postgres.js';
import { redisAvailable } from './support/redis.js';
import { countAppStart, seedDeveloper } from './support/testServer.js';

/** The global limit of every bot here: small, so a burst of three times it is quick. */
const GLOBAL_LIMIT = 25;
/** The bots in the guild: the first half on one gateway node, the rest on the other. */
const BOTS = 4;
/** Messages each bot sees before the first gateway node is killed, and after its RESUME. */
const BEFORE_KILL = 15;
const AFTER_RESUME = 15;
/** A burst must be answered within the global window for its count to be exact; else retried. */
const BURST_ATTEMPTS = 3;
const WINDOW_MS = 1000;

interface Bot {
  token: string;
  userId: string;
}

/** The key every process (and the seeder) seals secrets with: they share no data folder. */
const SECRET_KEY = randomBytes(32).toString('base64');

/** The world, written to the cluster's schema before the processes start. */
async function seed(cluster: Cluster) {
  const storage = await createPostgresStorage({
    connectionString: TEST_DATABASE_URL,
    schema: cluster.schema,
  });
  countAppStart();
  const app = await createApp(
    {
      ...loadConfig({ GUILDHALL_SECRET_KEY: SECRET_KEY }),
      dataDir: cluster.dataDir,
      logLevel: 'silent',
      demo: false,
    },
    { overrides: { storage } },
  );
  try {
    const dev = await seedDeveloper(app, 'multinode');
    const { guild, channels } = await app.services.guilds.create({
      ownerId: dev.userId,
      name: 'Multi-node',
      channels: [
        { name: 'one', type: 'text' },
        { name: 'two', type: 'text' },
      ],
    });
    const bots: Bot[] = [];
    for (let i = 0; i < BOTS; i++) {
      const made = await app.services.applications.create(dev.userId, { name: `bot ${i}` });
      await app.services.guilds.addBot({
        guildId: guild.id,
        applicationId: made.application.id,
        permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.READ_MESSAGE_HISTORY,
      });
      bots.push({ token: `Bot ${made.botToken}`, userId: made.bot.id });
    }
    return {
      // Not in the guild: its only requests are the rate-limit burst.
      limitedToken: `Bot ${dev.botToken}`,
      bots,
      channelIds: channels.map((c) => c.id),
    };
  } finally {
    await app.close();
  }
}

const messageIdOf = (f: Frame) =>
  f.op === 0 && f.t === 'MESSAGE_CREATE' ? (f.d as { id: string }).id : null;

/** A bot's view: every connection it had, in order. */
class BotView {
  readonly connections: GatewayClient[] = [];
  sessionId = '';
  messageIds(): string[] {
    return this.connections.flatMap((c) => c.frames.map(messageIdOf).filter((id) => id !== null));
  }
  lastSeq(): number {
    return Math.max(0, ...(this.connections.at(-1)?.frames.map((f) => f.s ?? 0) ?? []));
  }
}

describe.skipIf(!postgresAvailable || !natsAvailable || !redisAvailable)(
  'two API and two gateway processes on PostgreSQL, NATS and Redis',
  () => {
    let cluster: Cluster | null = null;
    let s3: TestS3Server | null = null;
    const views: BotView[] = [];
    /** The posting loops, stopped by the test or, when it fails midway, after it. */
    const flow = { on: true, done: Promise.resolve() };

    afterEach(async () => {
      flow.on = false;
      await flow.done.catch(() => undefined);
      for (const view of views.splice(0)) for (const c of view.connections) c.raw.terminate();
      await cluster?.close();
      cluster = null;
      await s3?.close();
      s3 = null;
    }, 60_000);

    it('shares the global limit, and a gateway killed mid-traffic loses no message', async () => {
      s3 = await startS3Server();
      cluster = await createCluster(
        {
          GUILDHALL_GLOBAL_RATE_LIMIT: String(GLOBAL_LIMIT),
          // Only the global limit is tried here: each route's own bucket is out of the way.
          GUILDHALL_ROUTE_RATE_LIMIT: '100000/1',
          GUILDHALL_SECRET_KEY: SECRET_KEY,
          ...s3.env(),
        },
        undefined,
        { dataDirPerNode: true },
      );
      const world = await seed(cluster);
      const [apiA, apiB, gatewayA, gatewayB] = await Promise.all([
        cluster.start('api'),
        cluster.start('api'),
        cluster.start('gateway'),
        cluster.start('gateway'),
      ]);
      const apis: ClusterNode[] = [apiA, apiB];

      // One bot's burst, split across both API nodes: one window of the global limit in all.
      let statuses: number[] = [];
      for (let attempt = 1; attempt <= BURST_ATTEMPTS; attempt++) {
        const startedAt = performance.now();
        const answers = await Promise.all(
          Array.from({ length: 3 * GLOBAL_LIMIT }, (_, i) =>
            fetch(`${apis[i % 2]?.apiUrl ?? ''}/users/@me`, {
              headers: { authorization: world.limitedToken },
            }),
          ),
        );
        statuses = answers.map((r) => r.status);
        const refused = answers.find((r) => r.status === 429);
        expect(refused?.headers.get('x-ratelimit-global')).toBe('true');
        expect(await refused?.json()).toMatchObject({ global: true });
        // Answered within one window: the count is exact. Else the next window is tried.
        if (performance.now() - startedAt < WINDOW_MS) break;
        await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(GLOBAL_LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(2 * GLOBAL_LIMIT);

      // A file posted through one API node is served by the other and by a gateway node.
      const form = new FormData();
      form.append('payload_json', JSON.stringify({ content: 'a file' }));
      form.append('files[0]', new Blob(['shared bytes'], { type: 'text/plain' }), 'shared.txt');
      const uploaded = await fetch(
        `${apiA.apiUrl}/channels/${world.channelIds[0] ?? ''}/messages`,
        {
          method: 'POST',
          headers: { authorization: world.bots[0]?.token ?? '' },
          body: form,
        },
      );
      expect(uploaded.status).toBe(200);
      const { attachments } = (await uploaded.json()) as { attachments: { url: string }[] };
      const path = new URL(attachments[0]?.url ?? '');
      for (const node of [apiB, gatewayB]) {
        const served = await fetch(new URL(`${path.pathname}${path.search}`, node.origin));
        expect(served.status).toBe(200);
        expect(await served.text()).toBe('shared bytes');
      }

      // Bots on both gateway nodes.
      const gatewayOf = (i: number) => (i < BOTS / 2 ? gatewayA : gatewayB);
      for (const [i, bot] of world.bots.entries()) {
        const view = new BotView();
        views.push(view);
        const { client, ready } = await identifyGateway(gatewayOf(i).gatewayUrl, {
          token: bot.token,
          intents: I.GUILDS | I.GUILD_MESSAGES,
        });
        view.connections.push(client);
        view.sessionId = ready.session_id;
        await client.dispatch('GUILD_CREATE', 10_000);
      }

      // Every bot posts, in turn through each API node, into each channel.
      const posted: string[] = [];
      flow.on = true;
      const post = async (bot: Bot, n: number) => {
        const api = apis[n % 2]?.apiUrl ?? '';
        const channelId = world.channelIds[n % world.channelIds.length] ?? '';
        for (;;) {
          const answer = await fetch(`${api}/channels/${channelId}/messages`, {
            method: 'POST',
            headers: { authorization: bot.token, 'content-type': 'application/json' },
            body: JSON.stringify({ content: `m${String(n)}` }),
          });
          if (answer.status === 429) {
            const { retry_after: wait } = (await answer.json()) as { retry_after: number };
            await new Promise((resolve) => setTimeout(resolve, wait * 1000));
            continue;
          }
          expect(answer.status).toBe(200);
          posted.push(((await answer.json()) as { id: string }).id);
          return;
        }
      };
      flow.done = Promise.all(
        world.bots.map(async (bot, b) => {
          for (let n = b; flow.on; n += BOTS) await post(bot, n);
        }),
      ).then(() => undefined);
      const seen = (view: BotView, count: number) =>
        expect.poll(() => view.messageIds().length, { timeout: 15_000 }).toBeGreaterThan(count);
      await Promise.all(views.map((view) => seen(view, BEFORE_KILL)));

      // The first gateway node dies; its bots resume on the other, the traffic going on.
      gatewayA.kill('SIGKILL');
      expect(await gatewayA.exited).toMatchObject({ signal: 'SIGKILL' });
      const moved = views.slice(0, BOTS / 2);
      await Promise.all(
        moved.map(async (view, i) => {
          const dropped = view.connections.at(-1);
          await dropped?.closed;
          const seq = view.lastSeq();
          const resumed = await connectGateway(gatewayB.gatewayUrl);
          view.connections.push(resumed);
          await resumed.next((f) => f.op === 10);
          resumed.send(6, { token: world.bots[i]?.token, session_id: view.sessionId, seq });
          await resumed.dispatch('RESUMED', 15_000);
        }),
      );
      const atResume = views.map((view) => view.messageIds().length);
      await Promise.all(views.map((view, i) => seen(view, (atResume[i] ?? 0) + AFTER_RESUME)));
      flow.on = false;
      await flow.done;

      // Every bot has every message (the moved ones may have a few twice: those the dead node
      // sent but had not stored).
      for (const view of views) {
        await expect
          .poll(() => new Set(view.messageIds()).size, { timeout: 15_000 })
          .toBe(posted.length);
        expect(new Set(view.messageIds())).toEqual(new Set(posted));
      }
      for (const view of views.slice(BOTS / 2)) {
        expect(view.messageIds()).toHaveLength(posted.length);
      }
      // A resumed session numbers on without a gap, and never sends READY again.
      for (const view of moved) {
        const resumed = view.connections.at(-1);
        expect(resumed?.frames.some((f) => f.t === 'READY')).toBe(false);
        const seqs = resumed?.frames.filter((f) => f.op === 0).map((f) => f.s ?? 0) ?? [];
        expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] ?? 0) + i));
      }
      // The survivors were never disturbed.
      for (const node of [apiA, apiB, gatewayB]) expect(node.output()).not.toMatch(/"level":50/);
    }, 90_000);
  },
);
