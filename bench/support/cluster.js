/**
 * The processes of bench/multinode.js: `node packages/server/bundle/guildhall.js start` with
 * GUILDHALL_ROLE api or gateway, configured by their environment alone (as docs/operations.md
 * runs them), on a PostgreSQL schema, NATS subject prefix and Redis key prefix of the run's own,
 * removed again by `close()`. The world (an owner, a guild with one text channel, bots in it) is
 * written to the schema before the processes start.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL, fileURLToPath } from 'node:url';
import { PermissionFlags as P } from '@guildhall/protocol';
import { Redis } from 'ioredis';
import { connect as connectNats } from 'nats';
import pg from 'pg';
import { createApp } from '../../packages/server/dist/app.js';
// eslint-disable-next-line no-restricted-imports -- the run removes the history stream it made
import { historyStreamName } from '../../packages/server/dist/bus/nats/index.js';
import { loadConfig } from '../../packages/server/dist/config.js';
// eslint-disable-next-line no-restricted-imports -- a benchmark picks its driver, as app.ts does
import { createPostgresStorage } from '../../packages/server/dist/storage/postgres/index.js';

const MAIN = fileURLToPath(new URL('../../packages/server/bundle/guildhall.js', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** Starts one process; resolves once it says where it listens. */
function startNode(env) {
  const child = spawn(process.execPath, [MAIN, 'start'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`guildhall start (${env.GUILDHALL_ROLE}) is silent:\n${output}`));
    }, START_TIMEOUT_MS);
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      // The running line names what the process serves: `API: URL` and/or `Gateway: URL`.
      const line = /Guildhall is running.*\n/.exec(output)?.[0];
      if (line === undefined) return;
      clearTimeout(timer);
      resolve({
        role: env.GUILDHALL_ROLE,
        apiUrl: /API: (\S+)/.exec(line)?.[1] ?? '',
        gatewayUrl: /Gateway: (\S+)/.exec(line)?.[1] ?? '',
        pid: child.pid,
        exited,
        output: () => output,
        kill: (signal) => child.kill(signal),
      });
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`guildhall start exited (${code ?? signal}):\n${output}`));
    });
  });
}

/** Writes the world to the schema: an owner, a guild with one channel, `bots` bots in it. */
async function seed({ databaseUrl, schema, dataDir, bots }) {
  const storage = await createPostgresStorage({ connectionString: databaseUrl, schema });
  const app = await createApp(
    loadConfig({
      GUILDHALL_DATA_DIR: dataDir,
      GUILDHALL_LOG_LEVEL: 'silent',
      GUILDHALL_DEMO: 'off',
      GUILDHALL_CONTROL: 'off',
    }),
    { overrides: { storage } },
  );
  try {
    const owner = await app.services.auth.register({
      email: 'multinode-bench@guildhall.localhost',
      username: 'multinodebench',
      password: randomBytes(16).toString('hex'),
    });
    const { guild, channels } = await app.services.guilds.create({
      ownerId: owner.user_id,
      name: 'Multi-node bench',
      channels: [{ name: 'general', type: 'text' }],
    });
    const tokens = [];
    for (let i = 0; i < bots; i++) {
      const made = await app.services.applications.create(owner.user_id, { name: `bench ${i}` });
      await app.services.guilds.addBot({
        guildId: guild.id,
        applicationId: made.application.id,
        permissions: P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY,
      });
      tokens.push(`Bot ${made.botToken}`);
    }
    return { ownerToken: owner.token, channelId: channels[0].id, botTokens: tokens };
  } finally {
    await app.close();
  }
}

/**
 * Seeds a fresh schema and starts `apis` API and `gateways` gateway processes on it.
 * `env` adds settings (GUILDHALL_NATS_HISTORY_SECONDS, say).
 */
export async function startCluster({ urls, apis, gateways, bots, env = {} }) {
  const tag = randomBytes(6).toString('hex');
  const schema = `bench_${tag}`;
  const natsPrefix = `bench_${tag}.`;
  const redisPrefix = `guildhall-bench:${tag}:`;
  const dataDir = await mkdtemp(join(os.tmpdir(), 'guildhall-multinode-'));
  const databaseUrl = new URL(urls.postgres);
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
  const world = await seed({ databaseUrl: urls.postgres, schema, dataDir, bots });
  const shared = {
    DATABASE_URL: databaseUrl.toString(),
    NATS_URL: urls.nats,
    REDIS_URL: urls.redis,
    GUILDHALL_NATS_PREFIX: natsPrefix,
    GUILDHALL_REDIS_PREFIX: redisPrefix,
    GUILDHALL_DATA_DIR: dataDir,
    GUILDHALL_HOST: '127.0.0.1',
    GUILDHALL_PORT: '0',
    GUILDHALL_DEMO: 'off',
    GUILDHALL_LOG_LEVEL: 'warn',
    GUILDHALL_RATE_LIMITS: 'off',
    // Every bench socket comes from one address.
    GUILDHALL_GATEWAY_MAX_UNIDENTIFIED: '100000',
    ...env,
  };
  const roles = [...Array(apis).fill('api'), ...Array(gateways).fill('gateway')];
  const nodes = [];
  const cleanup = async () => {
    await Promise.all(
      nodes.map(async (node) => {
        node.kill('SIGTERM');
        const timer = setTimeout(() => node.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await node.exited;
        clearTimeout(timer);
      }),
    );
    const nc = await connectNats({ servers: urls.nats });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(historyStreamName(natsPrefix)).catch(() => undefined);
    await nc.close();
    const redis = new Redis(urls.redis);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    const client = new pg.Client({ connectionString: urls.postgres });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    for (const role of roles) nodes.push(await startNode({ ...shared, GUILDHALL_ROLE: role }));
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    world,
    apis: nodes.filter((n) => n.role === 'api'),
    gateways: nodes.filter((n) => n.role === 'gateway'),
    close: cleanup,
  };
}
