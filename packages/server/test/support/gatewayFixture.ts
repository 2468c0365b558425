/**
 * The gateway test fixture: a listening server per driver and distinct settings (on SQLite, the
 * worker's files share it),
 * on a manual clock set back to the fixture's start before each test, and per test a guild whose
 * owner added their bot (no permissions), a dispatcher to publish events on the bus, and the
 * gateway clients the test opens, terminated after it.
 *
 * @module
 */
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { afterAll, afterEach, beforeEach } from 'vitest';
import type { manualClock } from '../../src/domain/clock.js';
import {
  createBusDispatcher,
  type AnyDispatch,
  type Dispatcher,
} from '../../src/events/dispatcher.js';
import type { GatewayOptions } from '../../src/gateway/index.js';
import type { Driver } from './drivers.js';
import {
  connectGateway,
  identifyGateway,
  type GatewayClient,
  type GatewayClientOptions,
} from './gatewayClient.js';
import { guildFixture, type GuildFixture } from './guildMembers.js';
import { sharedClock, sharedServer } from './fileServer.js';
import {
  ROOMY_IDENTIFIES_PER_BUCKET,
  type TestServer,
  type TestServerOptions,
} from './testServer.js';

/** The clock's start unless a test names another: before channel obfuscation was mandatory. */
export const GATEWAY_FIXTURE_NOW = Date.UTC(2026, 5, 1);

export type ManualClock = ReturnType<typeof manualClock>;

/** What a server of the fixture is started with. */
export interface GatewayServerSettings {
  /** The clock's start (GATEWAY_FIXTURE_NOW by default). */
  nowMs?: number;
  /** Gateway settings over the defaults (short heartbeats, wide identify buckets...). */
  gateway?: Partial<GatewayOptions>;
  /** The voice node's limits over its defaults and the timers of its periodic pass. */
  voice?: TestServerOptions['voice'];
}

export interface GatewayFixtureOptions extends GatewayServerSettings {
  /** The storage driver, SQLite by default (inside `describeDrivers` for both). */
  driver?: Driver;
  /**
   * Each test starts itself with `start(settings)` (tests that differ in settings: tests with
   * the same gateway and voice settings share a server); by default before each test.
   */
  manualStart?: boolean;
}

/** A client the fixture terminates after the test: a gateway or voice gateway client. */
export interface TrackedClient {
  raw: { terminate(): void };
}

/** An IDENTIFY's fields over the fixture's defaults (the bot's token, the GUILDS intent). */
export type IdentifyFields = { token?: string; intents?: number } & Record<string, unknown>;

export interface GatewayFixture {
  readonly server: TestServer;
  /** The guild, its owner and the bot. */
  readonly guild: GuildFixture;
  readonly clock: ManualClock;
  /**
   * Publishes dispatches on the server's bus, as a service's transaction does after commit, or as
   * another node may (any name, payloads left partial): the gateway decodes either.
   */
  readonly events: Dispatcher<AnyDispatch>;
  /**
   * Starts this test (with `manualStart`) on the server of `settings` merged over the fixture's,
   * starting that server if it is the first test with them.
   */
  start(settings?: GatewayServerSettings): Promise<void>;
  /** The server's gateway URL. */
  url(): string;
  /** Keeps a client (of the main or the voice gateway) to terminate after the test. */
  track<T extends TrackedClient>(client: T): T;
  /** A tracked connection, once HELLO arrived. */
  connect(options?: GatewayClientOptions): Promise<GatewayClient>;
  /** A tracked connection identified with `fields`, once READY arrived. */
  identify(
    fields?: IdentifyFields,
    options?: GatewayClientOptions,
  ): Promise<Awaited<ReturnType<typeof identifyGateway>>>;
  /** As `identify`, and once the first GUILD_CREATE arrived (its `d` as `guild`). */
  session(
    fields?: IdentifyFields,
    options?: GatewayClientOptions,
  ): Promise<Awaited<ReturnType<typeof identifyGateway>> & { guild: Record<string, unknown> }>;
  /** The sequence number of the last frame a client received (0 before any). */
  lastSeq(client: GatewayClient): number;
}

/** A server of the fixture, and the settings it was started with. */
interface StartedServer {
  server: TestServer;
  clock: ManualClock;
  gateway: string;
  voice: TestServerOptions['voice'];
  giveBack: () => Promise<void>;
}

/**
 * Registers the gateway servers of the enclosing block (one per distinct gateway and voice
 * settings, started on first use and closed after the block's last test), and per test a guild
 * and the clients the test opens; read its fields in tests.
 */
export function useGatewayFixture(options: GatewayFixtureOptions = {}): GatewayFixture {
  const servers: StartedServer[] = [];
  let state: { server: TestServer; guild: GuildFixture; clock: ManualClock } | undefined;
  let events: Dispatcher<AnyDispatch> | undefined;
  const clients: TrackedClient[] = [];
  const current = () => {
    if (state === undefined) throw new Error('no gateway server: outside a test, or not started');
    return state;
  };

  /**
   * The block's server with these settings: the worker's (shared with its other gateway files of
   * the same driver and settings, on one clock), borrowed on first use.
   */
  const serverFor = async (settings: GatewayServerSettings) => {
    // The test server's roomy identify bucket said here too, so that files that leave it out and
    // files that name it share one server.
    const gatewaySettings = {
      identifiesPerBucket: ROOMY_IDENTIFIES_PER_BUCKET,
      ...options.gateway,
      ...settings.gateway,
    };
    const gateway = JSON.stringify(gatewaySettings);
    const voice = settings.voice ?? options.voice;
    const found = servers.find((s) => s.gateway === gateway && s.voice === voice);
    if (found !== undefined) return found;
    const driver = options.driver ?? 'sqlite';
    const clock = sharedClock(`gateway:${driver} ${gateway}`, GATEWAY_FIXTURE_NOW);
    const { server, giveBack } = await sharedServer('gateway', {
      storage: driver,
      listen: true,
      clock,
      gateway: gatewaySettings,
      ...(voice === undefined ? {} : { voice }),
    });
    const started = { server, clock, gateway, voice, giveBack };
    servers.push(started);
    return started;
  };

  const start = async (settings: GatewayServerSettings = {}) => {
    if (state !== undefined) throw new Error('the gateway server of this test already started');
    const { server, clock } = await serverFor(settings);
    // Each test starts at the same time; ids stay increasing whatever the clock does.
    clock.set(settings.nowMs ?? options.nowMs ?? GATEWAY_FIXTURE_NOW);
    const guild = await guildFixture(server, { botPermissions: 0n, nowMs: () => clock.now() });
    state = { server, guild, clock };
  };

  beforeEach(async () => {
    if (options.manualStart !== true) await start();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.raw.terminate();
    // The test's sessions end rather than wait for a RESUME (and hold voice calls) on a server
    // the next test shares.
    if (state !== undefined) {
      state.server.app.gateway.revoke({ tokenHashes: [], userIds: state.guild.userIds() });
    }
    state = undefined;
    events = undefined;
  });
  afterAll(async () => {
    for (const { giveBack } of servers.splice(0)) await giveBack();
  });

  const url = () => current().server.app.gatewayUrl();
  const track = <T extends TrackedClient>(client: T) => {
    clients.push(client);
    return client;
  };
  const identify = async (fields: IdentifyFields = {}, clientOptions?: GatewayClientOptions) => {
    const identified = await identifyGateway(
      url(),
      { token: current().guild.bot.token, intents: I.GUILDS, ...fields },
      clientOptions,
    );
    track(identified.client);
    return identified;
  };

  return {
    get server() {
      return current().server;
    },
    get guild() {
      return current().guild;
    },
    get clock() {
      return current().clock;
    },
    get events() {
      const { server, clock } = current();
      events ??= createBusDispatcher<AnyDispatch>({
        bus: server.app.bus,
        clock,
        onError: () => undefined,
      });
      return events;
    },
    start,
    url,
    track,
    async connect(clientOptions) {
      const client = track(await connectGateway(url(), clientOptions));
      await client.next((f) => f.op === 10);
      return client;
    },
    identify,
    async session(fields, clientOptions) {
      const identified = await identify(fields, clientOptions);
      const created = await identified.client.dispatch('GUILD_CREATE');
      return { ...identified, guild: created.d as Record<string, unknown> };
    },
    lastSeq: (client) => client.frames.at(-1)?.s ?? 0,
  };
}
