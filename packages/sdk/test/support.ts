/**
 * The SDK tests' harness: a real Guildhall server on a loopback port per file (SQLite, or
 * PostgreSQL with describeDrivers), and per test a developer with an application, players with provisional accounts minted by
 * the application's bot, and SDK clients (the Node build) connected as those players.
 *
 * @module
 */
import { afterEach, beforeEach } from 'vitest';
import type { Driver } from '../../server/test/support/drivers.js';
import { uniqueName, useFileServer } from '../../server/test/support/fileServer.js';
import {
  seedDeveloper,
  type TestServer,
  type TestServerOptions,
} from '../../server/test/support/testServer.js';
import {
  AuthorizationTokenType,
  Client,
  ClientStatus,
  type ClientOptions,
  type WireUser,
} from '../src/node.js';

export { describeDrivers, type Driver } from '../../server/test/support/drivers.js';

export interface Player {
  id: string;
  token: string;
  user: WireUser;
}

export interface SdkWorld {
  server: TestServer;
  /** `http://127.0.0.1:<port>/api/v10` */
  apiBase: string;
  dev: Awaited<ReturnType<typeof seedDeveloper>>;
  /** A provisional account of the developer's application (POST /partner-sdk/token/bot). */
  player(name: string): Promise<Player>;
  /** A client for a player, not connected; closed after the test. */
  client(player?: Player | null, options?: ClientOptions): Promise<Client>;
  /** A client for a player, connected and Ready. */
  readyClient(player: Player, options?: ClientOptions): Promise<Client>;
  /** A request to the API as someone (`Bot …`, `Bearer …`, a session token). */
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the body's shape
  api<T = unknown>(
    method: string,
    path: string,
    options?: { auth?: string; json?: unknown },
  ): Promise<{ status: number; body: T }>;
}

/**
 * Registers a server on the driver (one per call's block; the worker's SDK files share
 * it), and per test a developer and the clients the test makes; read the world inside tests.
 */
export function useSdkWorld(
  driver: Driver = 'sqlite',
  serverOptions: TestServerOptions = {},
): () => SdkWorld {
  let world: SdkWorld | null = null;
  const clients: Client[] = [];
  // Shared with the worker's other SDK files of the same settings: each test seeds its own
  // developer and players.
  const shared = useFileServer(
    { storage: driver, listen: true, gateway: { identifiesPerBucket: 1000 }, ...serverOptions },
    'sdk',
  );

  beforeEach(async () => {
    const { server } = shared;
    const apiBase = `${server.baseUrl}/api/v10`;
    const dev = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
    const api: SdkWorld['api'] = async (method, path, options = {}) => {
      const response = await fetch(`${apiBase}${path}`, {
        method,
        headers: {
          ...(options.auth === undefined ? {} : { authorization: options.auth }),
          ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as never };
    };
    const client: SdkWorld['client'] = async (player = null, options = {}) => {
      const made = new Client({ apiBase, ...options });
      clients.push(made);
      if (player !== null) await made.updateToken(AuthorizationTokenType.Bearer, player.token);
      return made;
    };
    world = {
      server,
      apiBase,
      dev,
      api,
      async player(name) {
        const minted = await api<{ access_token: string }>('POST', '/partner-sdk/token/bot', {
          auth: `Bot ${dev.botToken}`,
          json: { external_user_id: `player-${name}`, preferred_global_name: name },
        });
        if (minted.status !== 200) throw new Error(`minting ${name}: ${JSON.stringify(minted)}`);
        const token = minted.body.access_token;
        const me = await api<WireUser>('GET', '/users/@me', { auth: `Bearer ${token}` });
        return { id: me.body.id, token, user: me.body };
      },
      client,
      async readyClient(player, options) {
        const made = await client(player, options);
        await connectReady(made);
        return made;
      },
    };
  });

  afterEach(() => {
    for (const made of clients.splice(0)) made.disconnect();
    world = null;
  });

  return () => {
    if (world === null) throw new Error('the SDK world exists only inside a test');
    return world;
  };
}

/** Connects a client and resolves when it is Ready (rejects when it ends Disconnected). */
export function connectReady(client: Client, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`not Ready within ${timeoutMs} ms (status ${client.getStatus()})`));
    }, timeoutMs);
    client.setStatusChangedCallback((status, error, detail) => {
      if (status === ClientStatus.Ready) {
        clearTimeout(timer);
        resolve();
      } else if (status === ClientStatus.Disconnected) {
        clearTimeout(timer);
        reject(new Error(`disconnected (error ${error}, detail ${detail})`));
      }
    });
    client.connect();
  });
}

/** Resolves when `check` returns a value other than undefined (polled), or rejects after a time. */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
