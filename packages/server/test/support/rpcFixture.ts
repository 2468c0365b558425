/**
 * What the RPC tests share: a listening platform (SQLite or PostgreSQL) per driver (the worker's files share it), and
 * per test an application and its developer, a player who runs the RPC daemon (`runRpc`, as `guildhall rpc` does) in a temporary
 * socket folder, the player's friend watching presences on a real gateway WebSocket, and a raw
 * IPC socket client with its own frame parser.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import {
  runRpc,
  type ConsentMode,
  type RunRpcOptions,
  type RunningRpc,
} from '../../src/rpc/index.js';
import type { Driver } from './drivers.js';
import { identifyGateway, type Frame, type GatewayClient } from './gatewayClient.js';
import { uniqueName, useFileServer } from './fileServer.js';
import { seedDeveloper, type TestServer } from './testServer.js';
import { apiRequest } from './inject.js';

export interface Person {
  userId: string;
  token: string;
  username: string;
}

export interface RpcWorld {
  server: TestServer;
  dev: Awaited<ReturnType<typeof seedDeveloper>>;
  /** The person the daemon runs for. */
  player: Person;
  friend: Person;
  /** The friend's gateway session. */
  watcher: GatewayClient;
  /** The socket folder (the clients' XDG_RUNTIME_DIR). */
  dir: string;
  rpc: RunningRpc;
  /** Daemon log lines. */
  log: string[];
  /** Starts another daemon for the player (same folder: it takes the next free socket). */
  startDaemon(options?: DaemonSettings): Promise<RunningRpc>;
  /** The PRESENCE_UPDATEs of the player the friend received after the `seen`th frame. */
  playerPresence(seen: number, match?: (d: PresenceData) => boolean): Promise<PresenceData>;
}

export interface PresenceData {
  user: { id: string };
  status: string;
  activities: Record<string, unknown>[];
}

async function register(server: TestServer, username: string): Promise<Person> {
  const session = await server.app.services.auth.register({
    email: `${username}@example.test`,
    username,
    password: 'correct horse battery',
  });
  return { userId: session.user_id, token: session.token, username };
}

async function befriend(server: TestServer, a: Person, b: Person): Promise<void> {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const res = await apiRequest(server.app, `PUT /users/@me/relationships/${to.userId}`, {
      auth: from.token,
      payload: {},
    });
    if (res.statusCode !== 204) throw new Error(`befriend: ${res.statusCode} ${res.body}`);
  }
}

export interface DaemonSettings {
  consent?: ConsentMode;
  /** Frames per connection per minute. */
  frames?: number;
  handshakeTimeoutMs?: number;
  /** The daemon's gateway WebSocket constructor. */
  WebSocket?: RunRpcOptions['WebSocket'];
  /** The local WebSocket transport's ports (none unless asked: test files run side by side). */
  wsPorts?: readonly number[];
}

/**
 * Starts the block's server (one per driver; the worker's files share it) and sets up the rest of the world before
 * each test, torn down after it.
 */
export function useRpcWorld(driver: Driver, options: DaemonSettings = {}) {
  const world = {} as RpcWorld;
  const shared = useFileServer(
    {
      storage: driver,
      listen: true,
    },
    'rpc',
  );
  const daemons: RunningRpc[] = [];
  /** What this test made, undone in reverse (only what was made, if a step failed). */
  const cleanups: (() => Promise<unknown>)[] = [];
  beforeEach(async () => {
    world.server = shared.server;
    world.dev = await seedDeveloper(world.server.app, uniqueName('dev'), 'dev app');
    world.player = await register(world.server, uniqueName('ada'));
    world.friend = await register(world.server, uniqueName('bob'));
    await befriend(world.server, world.player, world.friend);
    world.watcher = (
      await identifyGateway(world.server.app.gatewayUrl(), {
        token: world.friend.token,
        intents: 0,
      })
    ).client;
    const watcher = world.watcher;
    cleanups.push(() => watcher.close());
    world.dir = await mkdtemp(join(tmpdir(), 'guildhall-rpc-'));
    const dir = world.dir;
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    cleanups.push(async () => {
      for (const daemon of daemons.splice(0)) await daemon.close();
    });
    world.log = [];
    world.startDaemon = async (more = {}) => {
      const frames = more.frames ?? options.frames;
      const running = await runRpc({
        apiBase: world.server.app.apiUrl(),
        token: world.player.token,
        tokenSource: 'the test token',
        consent: more.consent ?? options.consent ?? 'allow',
        ask: null,
        env: { XDG_RUNTIME_DIR: world.dir },
        log: (line) => world.log.push(line),
        ...(more.WebSocket === undefined ? {} : { WebSocket: more.WebSocket }),
        wsPorts: more.wsPorts ?? options.wsPorts ?? [],
        limits: {
          ...(frames === undefined ? {} : { rateLimit: { frames, windowMs: 60_000 } }),
          ...(more.handshakeTimeoutMs === undefined
            ? {}
            : { handshakeTimeoutMs: more.handshakeTimeoutMs }),
        },
      });
      daemons.push(running);
      return running;
    };
    world.rpc = await world.startDaemon();
    // The person's own events reach the games only once the daemon's session is READY.
    await Promise.race([world.rpc.ready, world.rpc.fatal]);
    world.playerPresence = async (seen, match = () => true) => {
      const frame = await world.watcher.next(
        (f: Frame) =>
          world.watcher.frames.indexOf(f) >= seen &&
          f.t === 'PRESENCE_UPDATE' &&
          (f.d as PresenceData).user.id === world.player.userId &&
          match(f.d as PresenceData),
        10_000,
      );
      return frame.d as PresenceData;
    };
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return world;
}

/** Runs `body` with process.env[name] set (the RPC libraries read it when they connect). */
export async function withEnv<T>(name: string, value: string, body: () => Promise<T>): Promise<T> {
  const before = process.env[name];
  process.env[name] = value;
  try {
    return await body();
  } finally {
    if (before === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = before;
  }
}

// ── A raw IPC client ────────────────────────────────────────────────────────────────────────

export interface RawFrame {
  op: number;
  data: unknown;
}

export interface RawIpc {
  socket: Socket;
  frames: RawFrame[];
  write(bytes: Buffer): void;
  send(op: number, payload: unknown): void;
  /** The first frame (from the start) matching, waiting if needed. */
  next(match: (f: RawFrame) => boolean): Promise<RawFrame>;
  /** Resolves when the daemon hung up. */
  ended: Promise<void>;
}

/** One frame's bytes, written here independently of the daemon's encoder. */
export function frameBytes(op: number, payload: unknown): Buffer {
  const json = Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
  const header = Buffer.alloc(8);
  header.writeUInt32LE(op, 0);
  header.writeUInt32LE(json.length, 4);
  return Buffer.concat([header, json]);
}

/** Frame payloads as JSON strings (`frameBytes` writes a string as it is). */
export const json = (value: unknown) => JSON.stringify(value);

export async function rawIpc(path: string): Promise<RawIpc> {
  const socket = connect(path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const frames: RawFrame[] = [];
  const waiters: { match: (f: RawFrame) => boolean; resolve: (f: RawFrame) => void }[] = [];
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 8) {
      const length = buffer.readUInt32LE(4);
      if (buffer.length < 8 + length) break;
      const frame = {
        op: buffer.readUInt32LE(0),
        data: JSON.parse(buffer.subarray(8, 8 + length).toString('utf8')) as unknown,
      };
      buffer = buffer.subarray(8 + length);
      frames.push(frame);
      for (const waiter of [...waiters]) {
        if (waiter.match(frame)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(frame);
        }
      }
    }
  });
  const ended = new Promise<void>((resolve) => {
    socket.once('close', () => {
      resolve();
    });
  });
  socket.on('error', () => undefined);
  return {
    socket,
    frames,
    write: (bytes) => {
      socket.write(bytes);
    },
    send: (op, payload) => {
      socket.write(frameBytes(op, json(payload)));
    },
    next: (match) => {
      const found = frames.find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise<RawFrame>((resolve, reject) => {
        ended.then(
          () => {
            const late = frames.find(match);
            if (late === undefined) {
              reject(new Error(`closed without the frame; got ${JSON.stringify(frames)}`));
            } else resolve(late);
          },
          () => undefined,
        );
        waiters.push({ match, resolve });
      });
    },
    ended,
  };
}
