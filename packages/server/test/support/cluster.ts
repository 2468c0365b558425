/**
 * Several `guildhall start` processes of one deployment for a test: the built CLI
 * (`node packages/server/bundle/guildhall.js start`, configured by its environment alone, as a container
 * would be) on one PostgreSQL schema, one NATS subject prefix (and so one history stream) and one
 * Redis key prefix of the test's own, all removed again by {@link Cluster.close}.
 *
 * @module
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { historyStreamName } from '../../src/bus/nats/index.js';
import { TEST_NATS_URL, deleteStream, uniqueSubjectPrefix } from './nats.js';
import { TEST_DATABASE_URL, dropSchema, uniqueSchema } from './postgres.js';
import { TEST_REDIS_URL, deleteRedisPrefix, uniqueRedisPrefix } from './redis.js';

/**
 * The built CLI, as the package's `guildhall` bin runs it: `npm test` builds it first (`pretest`),
 * and the test run's setup bundles it again when dist/ changed (`npx tsc -b` is then enough).
 */
export const BUILT_MAIN = fileURLToPath(new URL('../../bundle/guildhall.js', import.meta.url));
/** How long a process may take to say where it listens (a loaded CI machine is slow). */
const START_TIMEOUT_MS = 60_000;
/** How long a process may take to stop on SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 10_000;

/** The http(s) origin of an http or ws URL. */
function httpOrigin(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'ws:') parsed.protocol = 'http:';
  if (parsed.protocol === 'wss:') parsed.protocol = 'https:';
  return parsed.origin;
}

/** One running process. */
export interface ClusterNode {
  readonly role: 'api' | 'gateway' | 'all';
  /** The API's URL, '' on a gateway node (its running line names only what it serves). */
  readonly apiUrl: string;
  readonly gatewayUrl: string;
  /** Its own http origin (files, health checks): every node serves those, whatever its role. */
  readonly origin: string;
  /** What it printed on stdout and stderr so far. */
  output(): string;
  /** Resolves with how it ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/** Servers of the test's own (test/support/privateServers.ts) instead of the shared ones. */
export interface ClusterServices {
  databaseUrl: string;
  natsUrl: string;
  redisUrl: string;
}

export interface Cluster {
  /** The schema every process uses (its DATABASE_URL sets the search path to it). */
  readonly schema: string;
  /** DATABASE_URL of the schema, for a seeder in the test. */
  readonly databaseUrl: string;
  /**
   * The data folder the processes share (uploaded files; a shared volume in a deployment), or
   * with `dataDirPerNode` (blobs in object storage) the parent of each process's own.
   */
  readonly dataDir: string;
  /** The environment every process gets (besides GUILDHALL_ROLE). */
  readonly env: Readonly<Record<string, string>>;
  start(role: ClusterNode['role'], extraEnv?: Record<string, string>): Promise<ClusterNode>;
  /** Stops every process still running (SIGTERM) and removes the schema, stream and keys. */
  close(): Promise<void>;
}

/**
 * Starts `guildhall start` (the built CLI) with `env` alone, resolving once it says where it
 * listens (GUILDHALL_DEMO=off: the one-line banner).
 */
export function spawnNode(env: Record<string, string>): Promise<ClusterNode> {
  // Only what the deployment sets: nothing of the test runner's environment leaks in.
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [BUILT_MAIN, 'start'], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: 'pipe',
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
    });
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`guildhall start (${String(env['GUILDHALL_ROLE'])}) is silent:\n${output}`));
    }, START_TIMEOUT_MS);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      // The running line names what the process serves: `API: URL` and/or `Gateway: URL`.
      const line = /Guildhall is running.*\n/.exec(output)?.[0];
      if (line === undefined) return;
      clearTimeout(timer);
      const apiUrl = /API: (\S+)/.exec(line)?.[1] ?? '';
      const gatewayUrl = /Gateway: (\S+)/.exec(line)?.[1] ?? '';
      resolve({
        role: env['GUILDHALL_ROLE'] as ClusterNode['role'],
        apiUrl,
        gatewayUrl,
        origin: httpOrigin(apiUrl === '' ? gatewayUrl : apiUrl),
        output: () => output,
        exited,
        kill: (signal) => child.kill(signal),
      });
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`guildhall start exited (${String(code ?? signal)}):\n${output}`));
    });
  });
}

/**
 * Makes a cluster's shared ground (the schema, created and migrated by the first process or the
 * test's seeder; a data folder) and returns what starts its processes. `env` adds settings
 * every process gets; `services`, servers of the test's own, replace the shared ones (what the
 * cluster made on them goes with them); `dataDirPerNode` gives each process a data folder of its
 * own, as on machines that share none (its blobs then in object storage, its secret key set).
 * @throws Error saying to build first when the CLI is not built.
 */
export async function createCluster(
  env: Record<string, string> = {},
  services?: ClusterServices,
  options: { dataDirPerNode?: boolean } = {},
): Promise<Cluster> {
  if (!existsSync(BUILT_MAIN)) {
    throw new Error(`${BUILT_MAIN} is missing: build first (npm run build, or npm test).`);
  }
  const schema = uniqueSchema('cluster');
  const natsPrefix = uniqueSubjectPrefix('cluster');
  const redisPrefix = uniqueRedisPrefix('cluster');
  const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-cluster-'));
  const url = new URL(services?.databaseUrl ?? TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const shared: Record<string, string> = {
    DATABASE_URL: url.toString(),
    NATS_URL: services?.natsUrl ?? TEST_NATS_URL,
    REDIS_URL: services?.redisUrl ?? TEST_REDIS_URL,
    GUILDHALL_NATS_PREFIX: natsPrefix,
    GUILDHALL_REDIS_PREFIX: redisPrefix,
    GUILDHALL_DATA_DIR: dataDir,
    GUILDHALL_HOST: '127.0.0.1',
    GUILDHALL_PORT: '0',
    GUILDHALL_DEMO: 'off',
    GUILDHALL_LOG_LEVEL: 'warn',
    ...env,
  };
  const nodes: ClusterNode[] = [];
  let started = 0;
  return {
    schema,
    databaseUrl: url.toString(),
    dataDir,
    env: shared,
    async start(role, extraEnv = {}) {
      const own: Record<string, string> =
        options.dataDirPerNode === true
          ? { GUILDHALL_DATA_DIR: join(dataDir, `node-${String(started++)}`) }
          : {};
      const node = await spawnNode({ ...shared, ...own, ...extraEnv, GUILDHALL_ROLE: role });
      nodes.push(node);
      return node;
    },
    async close() {
      await Promise.all(
        nodes.map(async (node) => {
          node.kill('SIGTERM');
          const timer = setTimeout(() => {
            node.kill('SIGKILL');
          }, STOP_TIMEOUT_MS);
          await node.exited;
          clearTimeout(timer);
        }),
      );
      if (services === undefined) {
        await deleteStream(historyStreamName(natsPrefix));
        await deleteRedisPrefix(redisPrefix);
        await dropSchema(schema);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
