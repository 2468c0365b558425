/**
 * Scale-out: the HTTP API and the gateway as separate processes (`guildhall start --role api`
 * and `--role gateway`), joined by NATS and sharing one database. A bot connected to a gateway
 * process receives the dispatches of REST calls made on the API process, and a session dropped
 * while changes happen resumes with them replayed: on the same gateway process with SQLite (its
 * sessions live in that process), on another gateway process with PostgreSQL (sessions and replay
 * are kept in the database).
 *
 * @module
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPostgresStorage } from '../src/storage/postgres/index.js';
import { createSqliteStorage } from '../src/storage/sqlite/index.js';
import { connectGateway, identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { historyStreamName } from '../src/bus/nats/index.js';
import { BUILT_MAIN } from './support/cluster.js';
import { TEST_NATS_URL, deleteStream, natsAvailable, uniqueSubjectPrefix } from './support/nats.js';
import {
  TEST_DATABASE_URL,
  acquireSchema,
  postgresAvailable,
  releaseSchema,
} from './support/postgres.js';
import { countAppStart, seedDeveloper } from './support/testServer.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Node {
  child: ChildProcessWithoutNullStreams;
  apiUrl: string;
  gatewayUrl: string;
  output: () => string;
}

/**
 * Starts `guildhall start` with these flags, the built CLI as `npx guildhall` runs it (it starts
 * in a second where tsx compiling the sources takes several); resolves once it says where it
 * listens.
 */
function startNode(args: readonly string[], env: Record<string, string>): Promise<Node> {
  const child = spawn(process.execPath, [BUILT_MAIN, 'start', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: 'pipe',
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`guildhall start ${args.join(' ')} did not start:\n${output}`));
    }, 30_000);
    const onData = (chunk: string) => {
      output += chunk;
      // The running line names what the process serves: `API: URL` and/or `Gateway: URL`.
      const line = /Guildhall is running.*\n/.exec(output)?.[0];
      if (line === undefined) return;
      clearTimeout(timer);
      resolve({
        child,
        apiUrl: /API: (\S+)/.exec(line)?.[1] ?? '',
        gatewayUrl: /Gateway: (\S+)/.exec(line)?.[1] ?? '',
        output: () => output,
      });
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`guildhall start exited with ${String(code)}:\n${output}`));
    });
  });
}

async function stopNode(node: Node): Promise<void> {
  if (node.child.exitCode !== null) return;
  const exited = new Promise((resolve) => node.child.once('exit', resolve));
  node.child.kill('SIGTERM');
  await exited;
}

const TARGETS = [
  { driver: 'sqlite' as const, resumeOn: 'the same gateway' as const, skip: !natsAvailable },
  {
    driver: 'postgres' as const,
    resumeOn: 'another gateway' as const,
    skip: !natsAvailable || !postgresAvailable,
  },
];

describe.each(TARGETS)('API and gateway processes over NATS on $driver', (target) => {
  const nodes: Node[] = [];
  const clients: GatewayClient[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const client of clients.splice(0)) client.raw.terminate();
    await Promise.all(nodes.splice(0).map(stopNode));
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.skipIf(target.skip)(
    `delivers REST changes to gateway sessions and resumes on ${target.resumeOn}`,
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-scale-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const env: Record<string, string> = {};
      let storage;
      if (target.driver === 'postgres') {
        // A migrated schema of the worker's pool (emptied again after), or a new one.
        const schema = acquireSchema();
        storage = await createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema });
        cleanups.push(() => releaseSchema(schema));
        const url = new URL(TEST_DATABASE_URL);
        url.searchParams.set('options', `-c search_path=${schema}`);
        env['DATABASE_URL'] = url.toString();
      } else {
        storage = createSqliteStorage({ filename: join(dataDir, 'guildhall.db') });
      }

      // The world, written straight to the shared database before the processes start.
      countAppStart();
      const seeder = await createApp(
        { ...loadConfig({}), dataDir, logLevel: 'silent', demo: false },
        { overrides: { storage } },
      );
      const dev = await seedDeveloper(seeder, 'scale');
      const { guild, channels } = await seeder.services.guilds.create({
        ownerId: dev.userId,
        name: 'Scaled',
        channels: [{ name: 'general', type: 'text' }],
      });
      await seeder.services.guilds.addBot({
        guildId: guild.id,
        applicationId: dev.applicationId,
        permissions: 0n,
      });
      await seeder.close();
      const channelId = channels[0]?.id ?? '';

      // Subjects and the history stream of this run alone.
      const natsPrefix = uniqueSubjectPrefix('scale');
      cleanups.push(() => deleteStream(historyStreamName(natsPrefix)));
      const common = [
        '--data-dir',
        dataDir,
        '--nats-url',
        TEST_NATS_URL,
        '--nats-prefix',
        natsPrefix,
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--demo',
        'off',
        '--log-level',
        'warn',
      ];
      const gatewayA = await startNode([...common, '--role', 'gateway', '--worker-id', '1'], env);
      nodes.push(gatewayA);
      const gatewayB =
        target.resumeOn === 'another gateway'
          ? await startNode([...common, '--role', 'gateway', '--worker-id', '2'], env)
          : gatewayA;
      if (gatewayB !== gatewayA) nodes.push(gatewayB);
      const api = await startNode(
        [...common, '--role', 'api', '--worker-id', '3', '--gateway-url', gatewayA.gatewayUrl],
        env,
      );
      nodes.push(api);

      const rest = (method: string, path: string, body?: unknown) =>
        fetch(`${api.apiUrl}${path}`, {
          method,
          headers: {
            authorization: `Bot ${dev.botToken}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const asOwner = (path: string, body: unknown) =>
        fetch(`${api.apiUrl}${path}`, {
          method: 'PATCH',
          headers: { authorization: dev.userToken, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });

      // The API advertises the gateway process; the gateway process serves no API.
      const info = (await (await rest('GET', '/gateway/bot')).json()) as { url: string };
      expect(info.url).toBe(gatewayA.gatewayUrl);
      // It does not even name an API URL; its HTTP port answers 404 under /api.
      expect(gatewayA.apiUrl).toBe('');
      const gatewayOrigin = new URL(gatewayA.gatewayUrl.replace(/^ws/, 'http')).origin;
      const onGateway = await fetch(`${gatewayOrigin}/api/v10/gateway/bot`, {
        headers: { authorization: `Bot ${dev.botToken}` },
      });
      expect(onGateway.status).toBe(404);

      const { client, ready } = await identifyGateway(info.url, {
        token: `Bot ${dev.botToken}`,
        intents: I.GUILDS,
      });
      clients.push(client);
      await client.dispatch('GUILD_CREATE');

      // A change on the API process reaches the session on the gateway process.
      const topicUpdate = (topic: string) => (f: { t: string | null; d: unknown }) =>
        f.t === 'CHANNEL_UPDATE' && (f.d as { topic?: string }).topic === topic;
      expect((await asOwner(`/channels/${channelId}`, { topic: 'crossed' })).status).toBe(200);
      const crossed = await client.next(topicUpdate('crossed'), 10_000);

      // Dropped; what happens meanwhile is replayed on resume.
      client.raw.terminate();
      await client.closed;
      expect((await asOwner(`/channels/${channelId}`, { topic: 'missed' })).status).toBe(200);
      const resumeUrl = String(ready['resume_gateway_url']);
      const resumeAt = target.resumeOn === 'another gateway' ? gatewayB.gatewayUrl : resumeUrl;
      const resumed = await connectGateway(resumeAt);
      clients.push(resumed);
      await resumed.next((f) => f.op === 10);
      resumed.send(6, {
        token: `Bot ${dev.botToken}`,
        session_id: ready.session_id,
        seq: crossed.s,
      });
      await resumed.dispatch('RESUMED', 10_000);
      const replayed = await resumed.next(topicUpdate('missed'), 10_000);
      expect(replayed.s).toBeGreaterThan(crossed.s ?? 0);
      expect(resumed.frames.some((f) => f.t === 'READY')).toBe(false);

      // And the resumed session goes on receiving.
      expect((await asOwner(`/channels/${channelId}`, { topic: 'after' })).status).toBe(200);
      await resumed.next(topicUpdate('after'), 10_000);
    },
    90_000,
  );
});
