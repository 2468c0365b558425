/**
 * The interactions test fixture: a listening server per driver (the worker's files share it), on a manual clock,
 * with interaction timers the test fires itself (no waiting on the 3-second rule), a guild whose
 * owner added their app's bot, and helpers to register commands, invoke and open gateways.
 *
 * @module
 */
import type { LightMyRequestResponse } from 'fastify';
import { manualClock } from '../../src/domain/clock.js';
import type { Driver } from './drivers.js';
import { firedTimers } from './firedTimers.js';
import { identifyGateway, type GatewayClient } from './gatewayClient.js';
import { guildFixture, type GuildFixture } from './guildMembers.js';
import { perTest, sharedClock, useFileServer, workerValue } from './fileServer.js';
import type { TestServer } from './testServer.js';
import { apiRequest } from './inject.js';

/** The fixture server's attachment limit (bytes per file). */
export const INTERACTION_FIXTURE_FILE_LIMIT = 64 * 1024;

/** Where the fixture's clock starts. */
export const INTERACTION_FIXTURE_NOW = Date.UTC(2026, 10, 24, 9);

export interface InteractionFixture {
  readonly server: TestServer;
  readonly guild: GuildFixture;
  readonly clock: ReturnType<typeof manualClock>;
  readonly timers: ReturnType<typeof firedTimers>;
  /** Sends a request to /api/v10 as `auth`. */
  call(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    path: string,
    auth: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** Registers a global command of the fixture's app (with the bot token); returns its wire. */
  command(body: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A tracked gateway session identified with this token (and these extra IDENTIFY fields). */
  gateway(token: string, intents?: number, extra?: Record<string, unknown>): Promise<GatewayClient>;
  /** The guild's first text channel. */
  channelId(): Promise<string>;
  /**
   * Interactions this test stored and not settled (none must be stored by a refused request).
   */
  unsettled(): Promise<number>;
}

/** Every interaction of the server stored and not settled yet. */
const overdue = (server: TestServer) =>
  server.app.storage.interactions.listOverdue(Number.MAX_SAFE_INTEGER, 10_000);

/**
 * Registers the file's server (one per driver: its clock is set back to the fixture's start
 * before each test, its timers are the file's) and the test's guild and clients.
 */
export function useInteractionFixture(
  driver: Driver,
  /** `own`: a server of the file's own, for tests that stop its parts or sweep all its rows. */
  { own = false }: { own?: boolean } = {},
): InteractionFixture {
  // Shared with the worker's other files of the driver: one clock and one set of timers for it.
  const worker = own
    ? () => ({ clock: manualClock(INTERACTION_FIXTURE_NOW), timers: firedTimers() })
    : () => ({
        clock: sharedClock(`interaction:${driver}`, INTERACTION_FIXTURE_NOW),
        timers: workerValue(`interaction timers:${driver}`, firedTimers),
      });
  const { clock, timers } = worker();
  const interactions = own
    ? { timers: timers.timers }
    : workerValue(`interaction settings:${driver}`, () => ({ timers: timers.timers }));
  const shared = useFileServer(
    {
      storage: driver,
      listen: true,
      clock,
      // A small attachment limit, so a test can go over it.
      config: { allowLocalWebhooks: true, maxAttachmentBytes: INTERACTION_FIXTURE_FILE_LIMIT },
      // Two shards of a bot identify at once (separate buckets).
      gateway: { maxConcurrency: 2 },
      interactions,
    },
    own ? undefined : 'interaction',
  );
  const clients: GatewayClient[] = [];
  const current = perTest(
    async () => {
      clock.set(INTERACTION_FIXTURE_NOW);
      const { server } = shared;
      const guild = await guildFixture(server, { botPermissions: 0n, nowMs: () => clock.now() });
      // Interactions earlier tests left unsettled are theirs, not this test's.
      const earlier = new Set((await overdue(server)).map((i) => i.id));
      return { server, guild, earlier };
    },
    ({ server, guild }) => {
      for (const client of clients.splice(0)) client.raw.terminate();
      server.app.gateway.revoke({ tokenHashes: [], userIds: guild.userIds() });
    },
  );

  // eslint-disable-next-line max-params -- the verb, path, auth and body of one request
  const call: InteractionFixture['call'] = (method, path, auth, payload) =>
    apiRequest(current().server.app, `${method} ${path}`, { auth, payload });

  return {
    get server() {
      return current().server;
    },
    get guild() {
      return current().guild;
    },
    clock,
    timers,
    call,
    async command(body) {
      const { bot } = current().guild;
      const res = await call(
        'POST',
        `/applications/${bot.applicationId}/commands`,
        bot.token,
        body,
      );
      if (res.statusCode !== 201) throw new Error(`command not created: ${res.body}`);
      return res.json();
    },
    async gateway(token, intents = 0, extra = {}) {
      const { client } = await identifyGateway(current().server.app.gatewayUrl(), {
        token,
        intents,
        ...extra,
      });
      clients.push(client);
      return client;
    },
    async channelId() {
      const channels = await current().server.app.storage.channels.listByGuild(
        current().guild.guildId,
      );
      const text = channels.find((c) => c.type === 0);
      if (text === undefined) throw new Error('the fixture guild has no text channel');
      return text.id;
    },
    async unsettled() {
      const { server, earlier } = current();
      return (await overdue(server)).filter((i) => !earlier.has(i.id)).length;
    },
  };
}
