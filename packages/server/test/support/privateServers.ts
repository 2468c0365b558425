/**
 * NATS, Redis and PostgreSQL servers of a test's own, on free loopback ports, that the test stops
 * and starts again (an outage), never the machine's shared ones: `nats-server -js` with its store
 * in a temporary folder, `redis-server` keeping nothing on disk, and a PostgreSQL cluster made by
 * Debian's `initdb` and run by `pg_ctl`. PostgreSQL refuses to run as root: as root, its commands
 * run as the `postgres` user through `runuser`. Each server's files are removed by `remove()`.
 *
 * @module
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { PRIVATE_SERVER_BINARIES } from './serviceUrls.js';

export { PRIVATE_SERVER_BINARIES } from './serviceUrls.js';

const run = promisify(execFile);

/**
 * What stops the servers still running when the test process exits without removing them (a
 * worker ended early): none is left behind.
 */
const stillRunning = new Set<() => void>();
process.on('exit', () => {
  for (const stopNow of stillRunning) stopNow();
});

/**
 * Whether tests with private servers run: the binaries were found by `globalSetup.ts` (which
 * fails the run under CI=true when they were not).
 */
export const privateServersAvailable = inject('privateServersFailure') === null;

/** How long a server may take to accept connections after it was started. */
const READY_TIMEOUT_MS = 15_000;
const READY_POLL_MS = 25;

/** Where private servers' ports are picked: below the kernel's ephemeral range (Linux: 32768). */
const PORT_RANGE = { from: 20_000, to: 32_000 };

/** Whether the port can be listened on now. */
async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, '127.0.0.1', () => {
      resolve(true);
    });
  });
  if (listening) {
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }
  return listening;
}

/**
 * A free loopback TCP port for a server the test stops and starts again on it. Picked outside the
 * kernel's ephemeral range, so no outgoing connection takes it while the server is down.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
    if (await canListen(port)) return port;
  }
}

/** Resolves once something accepts TCP connections on the port. */
async function waitForPort(port: number, what: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => {
        resolve(false);
      });
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
}

/** A server of the test's own. */
export interface PrivateServer {
  /** The URL clients use (`nats://…`, `redis://…`, `postgres://…`). */
  readonly url: string;
  readonly port: number;
  /** Starts it again on the same port and files (after {@link stop}). */
  start(): Promise<void>;
  /**
   * Stops it: `kill` ends it at once (SIGKILL: nothing written out, connections cut), `clean` lets
   * it shut down as an operator would.
   */
  stop(how?: 'kill' | 'clean'): Promise<void>;
  /** Stops it if running and removes its files. */
  remove(): Promise<void>;
}

/** A server run as a child of the test process. */
function childServer(input: {
  what: string;
  port: number;
  url: string;
  command: () => [string, string[]];
  files: string;
}): PrivateServer & { ready: Promise<void> } {
  let child: ChildProcess | null = null;
  let output = '';
  const start = async () => {
    if (child !== null) return;
    const [bin, args] = input.command();
    const started = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    const stopNow = () => started.kill('SIGKILL');
    stillRunning.add(stopNow);
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.once('exit', () => {
      stillRunning.delete(stopNow);
      if (child === started) child = null;
    });
    try {
      await waitForPort(input.port, input.what);
    } catch (err) {
      throw new Error(`${(err as Error).message}:\n${output}`, { cause: err });
    }
  };
  const stop = async (how: 'kill' | 'clean' = 'kill') => {
    const running = child;
    if (running === null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(how === 'kill' ? 'SIGKILL' : 'SIGTERM');
    await exited;
  };
  return {
    url: input.url,
    port: input.port,
    ready: start(),
    start,
    stop,
    async remove() {
      await stop('kill');
      await rm(input.files, { recursive: true, force: true });
    },
  };
}

/** A NATS server of the test's own, which may also be started without JetStream. */
export interface PrivateNats extends PrivateServer {
  /** Starts it again on the same port with JetStream off (a misconfigured restart). */
  startWithoutJetStream(): Promise<void>;
}

/**
 * `nats-server` with JetStream, its store in a folder of its own, so a stream outlives a restart
 * as it does on a deployment's volume.
 */
export async function startPrivateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const files = await mkdtemp(join(tmpdir(), 'guildhall-nats-'));
  let jetstream = true;
  const server = childServer({
    what: 'nats-server',
    port,
    url: `nats://127.0.0.1:${port}`,
    files,
    command: () => [
      PRIVATE_SERVER_BINARIES.nats,
      ['-a', '127.0.0.1', '-p', String(port), ...(jetstream ? ['-js', '-sd', files] : [])],
    ],
  });
  await server.ready;
  return {
    ...server,
    async start() {
      jetstream = true;
      await server.start();
    },
    async startWithoutJetStream() {
      jetstream = false;
      await server.start();
    },
  };
}

/** `redis-server` keeping nothing on disk: started again, it is empty. */
export async function startPrivateRedis(): Promise<PrivateServer> {
  const port = await freePort();
  const files = await mkdtemp(join(tmpdir(), 'guildhall-redis-'));
  const server = childServer({
    what: 'redis-server',
    port,
    url: `redis://127.0.0.1:${port}`,
    files,
    command: () => [
      PRIVATE_SERVER_BINARIES.redis,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    ],
  });
  await server.ready;
  return server;
}

/** A PostgreSQL command line, run as the `postgres` user when this process is root. */
function asPostgres(bin: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0
    ? [PRIVATE_SERVER_BINARIES.runuser, ['-u', 'postgres', '--', bin, ...args]]
    : [bin, args];
}

/** Runs a PostgreSQL command (see {@link asPostgres}). */
function pgCommand(bin: string, args: string[]) {
  return run(...asPostgres(bin, args));
}

/**
 * A PostgreSQL cluster of its own (`initdb`, trust authentication for `postgres` on loopback),
 * run by `pg_ctl`; its database `postgres`. fsync is off: a test's data need not survive the
 * machine, only the server's restart.
 */
export async function startPrivatePostgres(): Promise<PrivateServer> {
  const port = await freePort();
  const files = await mkdtemp(join(tmpdir(), 'guildhall-pg-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(files, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(files, 'data');
  await pgCommand(PRIVATE_SERVER_BINARIES.initdb, [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const options = `-p ${port} -k ${files} -c listen_addresses=127.0.0.1 -c fsync=off`;
  let running = false;
  const stopNow = () => {
    const [bin, args] = asPostgres(PRIVATE_SERVER_BINARIES.pgCtl, [
      '-D',
      data,
      '-m',
      'immediate',
      '-w',
      'stop',
    ]);
    execFileSync(bin, args, { stdio: 'ignore' });
  };
  const start = async () => {
    if (running) return;
    await pgCommand(PRIVATE_SERVER_BINARIES.pgCtl, [
      '-D',
      data,
      '-o',
      options,
      '-l',
      join(files, 'log'),
      '-w',
      'start',
    ]);
    running = true;
    stillRunning.add(stopNow);
  };
  const stop = async (how: 'kill' | 'clean' = 'kill') => {
    if (!running) return;
    // `immediate` ends every backend at once without a checkpoint, as a crash would.
    await pgCommand(PRIVATE_SERVER_BINARIES.pgCtl, [
      '-D',
      data,
      '-m',
      how === 'kill' ? 'immediate' : 'fast',
      '-w',
      'stop',
    ]);
    running = false;
    stillRunning.delete(stopNow);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async remove() {
      await stop('kill');
      await rm(files, { recursive: true, force: true });
    },
  };
}
