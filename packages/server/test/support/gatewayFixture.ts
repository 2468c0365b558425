/**
 * The gateway test fixture: a listening server per test on one driver, on a manual clock, with a
 * guild whose owner added their bot (no permissions), a dispatcher to publish events on the bus,
 * and the gateway clients a test opens, terminated after it.
 *
 * @module
 */
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, beforeEach } from 'vitest';
import { manualClock } from '../../src/domain/clock.js';
import { createBusDispatcher, type Dispatcher } from '../../src/events/dispatcher.js';
import type { GatewayOptions } from '../../src/gateway/index.js';
import type { Driver } from './drivers.js';
import {
  connectGateway,
  identifyGateway,
  type GatewayClient,
  type GatewayClientOptions,
} from './gatewayClient.js';
import { guildFixture, type GuildFixture } from './guildMembers.js';
import { startTestServer, type TestServer, type TestServerOptions } from './testServer.js';

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
   * Each test starts its server itself with `start(settings)` (tests that differ in settings);
   * by default the fixture starts it before each test.
   */
  manualStart?: boolean;
}

/** An IDENTIFY's fields over the fixture's defaults (the bot's token, the GUILDS intent). */
export type IdentifyFields = { token?: string; intents?: number } & Record<string, unknown>;

export interface GatewayFixture {
  readonly server: TestServer;
  /** The guild, its owner and the bot. */
  readonly guild: GuildFixture;
  readonly clock: ManualClock;
  /** Publishes dispatches on the server's bus, as a service's transaction does after commit. */
  readonly events: Dispatcher;
  /** Starts the server of this test (with `manualStart`), merging `settings` over the fixture's. */
  start(settings?: GatewayServerSettings): Promise<void>;
  /** The server's gateway URL. */
  url(): string;
  /** Keeps a client to terminate after the test. */
  track<T extends GatewayClient>(client: T): T;
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

/** Registers the per-test gateway server, its guild and its clients; read its fields in tests. */
export function useGatewayFixture(options: GatewayFixtureOptions = {}): GatewayFixture {
  let state: { server: TestServer; guild: GuildFixture; clock: ManualClock } | undefined;
  let events: Dispatcher | undefined;
  const clients: GatewayClient[] = [];
  const current = () => {
    if (state === undefined) throw new Error('no gateway server: outside a test, or not started');
    return state;
  };

  const start = async (settings: GatewayServerSettings = {}) => {
    if (state !== undefined) throw new Error('the gateway server of this test already started');
    const clock = manualClock(settings.nowMs ?? options.nowMs ?? GATEWAY_FIXTURE_NOW);
    const voice = settings.voice ?? options.voice;
    const server = await startTestServer({
      storage: options.driver ?? 'sqlite',
      listen: true,
      clock,
      gateway: { ...options.gateway, ...settings.gateway },
      ...(voice === undefined ? {} : { voice }),
    });
    const guild = await guildFixture(server, { botPermissions: 0n, nowMs: () => clock.now() });
    state = { server, guild, clock };
  };

  beforeEach(async () => {
    if (options.manualStart !== true) await start();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.raw.terminate();
    const ended = state;
    state = undefined;
    events = undefined;
    await ended?.server.close();
  });

  const url = () => current().server.app.gatewayUrl();
  const track = <T extends GatewayClient>(client: T) => {
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
      events ??= createBusDispatcher({ bus: server.app.bus, clock, onError: () => undefined });
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
