/**
 * `startGuildhall`: the platform in this process on a free loopback port, SQLite in memory unless
 * told otherwise, a world loaded, and the handle a test drives it with.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createApp,
  loadConfig,
  memoryStorageTemplate,
  openMemoryStorage,
  readWorldFile,
  type App,
  type Config,
  type LoadedWorld,
  type LogLevel,
  type ParsedWorld,
  type WorldFile,
} from '@guildhall/server';
import type { WaitOptions } from './eventLog.js';
import {
  waitForBotReady,
  waitForLogEntry,
  type ControlLog,
  type LogEntry,
  type LogFilter,
} from './observe.js';
import { People } from './people.js';

/**
 * The platform's clock (`app.control.clock`): freeze, set and advance it; every dated rule of
 * the platform follows it (docs/testing.md#time).
 */
export type PlatformClock = App['control']['clock'];
/** Faults injected on purpose (`app.control.faults`; docs/testing.md#faults). */
export type Faults = App['control']['faults'];

/** How to start. Everything is optional: `startGuildhall()` is an empty platform. */
export interface StartOptions {
  /**
   * The world to load: a world object, or the path of a world file (JSON or YAML). Without one
   * the platform starts empty (load one later with {@link Guildhall.load}).
   */
  world?: WorldFile | string;
  /** The seed ids and tokens follow (overrides the world's own `seed`). */
  seed?: string;
  /**
   * A PostgreSQL database to use instead of SQLite in memory (`postgres://…`): give each kit a
   * database of its own, which it migrates and fills.
   */
  databaseUrl?: string;
  /** A NATS server for the bus (`nats://…`); the in-process bus otherwise. */
  natsUrl?: string;
  /** A Redis server for shared limits and presences (`redis://…`); in memory otherwise. */
  redisUrl?: string;
  /** The platform's log level (default `silent`). */
  logLevel?: LogLevel;
  /** Any other setting of `guildhall start` (docs/operations.md), by its `Config` name. */
  config?: Partial<Config>;
}

/** A running platform and the controls a test drives it with. Close it (or `await using` it). */
export interface Guildhall extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`: the web client, the portal and the CDN are served here. */
  readonly baseUrl: string;
  /** The `/api` base a client library takes (discord.js `rest.api`). */
  readonly apiUrl: string;
  /** Where images and attachments are served (discord.js `rest.cdn`). */
  readonly cdnUrl: string;
  /** The gateway's `ws://` URL (also what `GET /gateway/bot` answers). */
  readonly gatewayUrl: string;
  /** Ids and tokens of the loaded world, by the names the world gave them. */
  readonly world: LoadedWorld;
  /** The world's people, to act as. */
  readonly people: People;
  /** The platform's clock: `await gh.clock.advance('15m')`. */
  readonly clock: PlatformClock;
  /** Faults: `gh.faults.add({ kind: 'http', path: '/channels/*\/messages', type: 'rateLimit' })`. */
  readonly faults: Faults;
  /** What each bot (and person) did and was sent: requests, gateway commands, dispatches. */
  readonly log: ControlLog;
  /**
   * The first log entry matching among those kept (after `since`, a `seq`), or the next to come:
   * a bot's request, gateway command or a dispatch it was sent. `filter.botId` takes a bot's
   * user id or its application's id.
   */
  waitForLog(
    match: (entry: LogEntry) => boolean,
    options?: WaitOptions & { filter?: LogFilter },
  ): Promise<LogEntry>;
  /** The platform itself, for what the kit does not wrap (its services, storage, config). */
  readonly app: App;
  /**
   * Loads another world on top of what is there, and makes it the one {@link Guildhall.reset}
   * returns to.
   */
  load(world: WorldFile | string, options?: { seed?: string }): Promise<LoadedWorld>;
  /**
   * Returns to the loaded world: the database as it was when the world loaded, gateway
   * sessions closed, limits and presences forgotten, faults and the clock's changes gone.
   * `waitForBots` (bot user ids or application ids) waits until each of those bots' client
   * libraries has identified again (READY and its guilds), so the next test does not race their
   * reconnect.
   */
  reset(options?: { waitForBots?: readonly string[]; timeoutMs?: number }): Promise<void>;
  /** Stops the platform and removes its data folder. */
  close(): Promise<void>;
}

/** How long `reset({ waitForBots })` waits for each bot's READY by default (identifies queue). */
const BOT_RETURN_TIMEOUT_MS = 30_000;

/** The default route bucket of a kit's platform (the platform's is 5 per 5 seconds). */
export const KIT_DEFAULT_ROUTE_BUCKET = { limit: 1000, windowMs: 1000 } as const;

/** The migrated empty database, made once per process: later starts skip migrating. */
let template: Buffer | undefined;

const EMPTY_WORLD: LoadedWorld = {
  seed: '',
  people: {},
  applications: {},
  guilds: {},
  lobbies: {},
};

/**
 * The secret key stored secrets are sealed with, made once per process and kept in its memory:
 * a kit's database lives no longer than its data folder, so a key file (written and synced to
 * disk at each start) would outlive everything it seals.
 */
let secretKey: string | undefined;

/** The settings of a kit's platform: loopback, free ports, quiet, local deliveries allowed. */
function kitConfig(dataDir: string, options: StartOptions): Config {
  secretKey ??= randomBytes(32).toString('base64');
  return {
    ...loadConfig({ GUILDHALL_SECRET_KEY: secretKey }, []),
    host: '127.0.0.1',
    port: 0,
    voicePort: 0,
    voiceEndpoint: '127.0.0.1:0',
    dataDir,
    logLevel: options.logLevel ?? 'silent',
    demo: false,
    // The bots under test listen on loopback: their interaction endpoints and webhook targets.
    allowLocalWebhooks: true,
    // The clock, faults and the log of what each bot did, and their HTTP face (loopback only).
    control: true,
    // Routes with a bucket of their own (a channel's message sends, reactions…) keep it; the
    // default bucket of the others is wide, so a test's people never wait on it
    // (docs/testing.md#rate-limits). Faults make 429s on purpose.
    routeRateLimit: KIT_DEFAULT_ROUTE_BUCKET,
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    ...(options.natsUrl === undefined ? {} : { natsUrl: options.natsUrl }),
    ...(options.redisUrl === undefined ? {} : { redisUrl: options.redisUrl }),
    ...options.config,
  };
}

async function readWorld(world: WorldFile | string): Promise<WorldFile | ParsedWorld> {
  return typeof world === 'string' ? readWorldFile(world) : world;
}

/**
 * Starts the platform in this process on a free loopback port (SQLite in memory by default) and
 * loads `options.world`.
 *
 * @example
 * ```ts
 * await using gh = await startGuildhall({ world: 'test/world.yaml' });
 * const ann = gh.people.get('ann');
 * await ann.send(gh.world.guilds.home.channels.general, 'hello');
 * ```
 */
export async function startGuildhall(options: StartOptions = {}): Promise<Guildhall> {
  const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-kit-'));
  const config = kitConfig(dataDir, options);
  let app: App;
  try {
    app = await createApp(config, {
      ...(config.databaseUrl === null
        ? {
            overrides: {
              storage: openMemoryStorage({ template: (template ??= memoryStorageTemplate()) }),
            },
          }
        : {}),
    });
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  try {
    await app.listen();
    return await handle(app, dataDir, options);
  } catch (err) {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}

async function handle(app: App, dataDir: string, options: StartOptions): Promise<Guildhall> {
  const baseUrl = app.baseUrl();
  const apiUrl = `${baseUrl}/api`;
  const urls = { apiUrl, gatewayUrl: app.gatewayUrl() };
  let world = EMPTY_WORLD;
  const people = new People(urls, {});
  let closed: Promise<void> | null = null;
  /** Everyone the loaded worlds named (a later world's name wins). */
  const everyone = () =>
    Object.assign({}, ...app.worlds.loaded().map((w) => w.people)) as LoadedWorld['people'];

  // `app.worlds` loads and marks the point a reset returns to, as the HTTP controls do.
  const load = async (source: WorldFile | string, seed = options.seed) => {
    world = await app.worlds.load(await readWorld(source), seed === undefined ? {} : { seed });
    people.forget(everyone());
    return world;
  };
  if (options.world !== undefined) await load(options.world);
  else await app.worlds.mark();

  const close = () =>
    (closed ??= (async () => {
      people.forget();
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    })());

  return {
    baseUrl,
    apiUrl,
    cdnUrl: baseUrl,
    gatewayUrl: urls.gatewayUrl,
    get world() {
      return world;
    },
    people,
    clock: app.control.clock,
    faults: app.control.faults,
    log: app.control.log,
    waitForLog: (match, waitOptions = {}) =>
      waitForLogEntry(
        app.control.log,
        { match, ...(waitOptions.filter === undefined ? {} : { filter: waitOptions.filter }) },
        waitOptions,
      ),
    app,
    load: (source, loadOptions = {}) => load(source, loadOptions.seed ?? options.seed),
    async reset(resetOptions = {}) {
      people.forget();
      // The world's point, and with it the faults, the clock and the log (as POST /reset does).
      await app.worlds.reset();
      // The reset ended every session: a bot's library resumes (refused) and identifies again.
      const timeoutMs = resetOptions.timeoutMs ?? BOT_RETURN_TIMEOUT_MS;
      await Promise.all(
        (resetOptions.waitForBots ?? []).map((botId) =>
          waitForBotReady(app.control.log, botId, { timeoutMs }),
        ),
      );
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
