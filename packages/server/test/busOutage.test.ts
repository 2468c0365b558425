/**
 * The gateway while NATS goes away (a private nats-server, killed with SIGKILL and started again,
 * or one node's link to it cut): an API node posts messages throughout, a gateway node serves a
 * bot. With the bus history, every message reaches the session, in order, without a word to it;
 * a revocation made meanwhile still ends what it must. Without a history, the session is told
 * (INVALID_SESSION) instead of going on without what it missed.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayIntentBits as I, GatewayOpcodes as Op } from '@guildhall/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import { identifyGateway, type Frame, type GatewayClient } from './support/gatewayClient.js';
import { uniqueSubjectPrefix } from './support/nats.js';
import { acquireSchema, releaseSchema } from './support/postgres.js';
import {
  privateServersAvailable,
  startPrivateNats,
  type PrivateServer,
} from './support/privateServers.js';
import { startTcpProxy, type TcpProxy } from './support/tcpProxy.js';
import { seedDeveloper, startTestServer, type TestServer } from './support/testServer.js';
import { apiRequest } from './support/inject.js';

const WAIT = { timeout: 15_000, interval: 20 };
/** Two nodes, a restart and a catch-up: generous on a shared, loaded machine. */
const TEST_TIMEOUT_MS = 60_000;

const messageIds = (client: GatewayClient) =>
  client.frames
    .filter((f) => f.op === 0 && f.t === 'MESSAGE_CREATE')
    .map((f) => (f.d as { id: string }).id);
const dispatchSeqs = (frames: Frame[]) => frames.filter((f) => f.op === 0).map((f) => f.s ?? 0);

describeDrivers('the gateway across a NATS outage on $driver', (driver) => {
  let nats: PrivateServer | null = null;
  let proxy: TcpProxy | null = null;
  const servers: TestServer[] = [];
  const clients: GatewayClient[] = [];
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    if (privateServersAvailable) nats = await startPrivateNats();
  }, 30_000);
  beforeEach((ctx) => {
    if (!privateServersAvailable) ctx.skip();
  });
  /** The private NATS server (beforeAll started it). */
  const server = () => {
    if (nats === null) throw new Error('no private NATS');
    return nats;
  };
  afterEach(async () => {
    for (const client of clients.splice(0)) client.raw.terminate();
    await nats?.start();
    proxy?.restore();
    for (const server of servers.splice(0).reverse()) await server.close();
    for (const step of cleanup.splice(0)) await step();
    await proxy?.close();
    proxy = null;
  }, 30_000);
  afterAll(async () => {
    await nats?.remove();
  });

  /**
   * An API node (requests injected) and a gateway node (listening) on one database and one NATS
   * prefix; the gateway node reaches NATS at `gatewayNats` when given (a proxy). A guild with a
   * channel, its owner, and a bot in it with a session on the gateway node.
   */
  const twoNodes = async (options: { historySeconds: number; gatewayNats?: string }) => {
    const natsUrl = server().url;
    let database: string;
    if (driver === 'postgres') {
      // A migrated schema of the worker's pool (emptied again after), or a new one.
      const schema = acquireSchema();
      database = schema;
      cleanup.push(() => releaseSchema(schema));
    } else {
      const dir = await mkdtemp(join(tmpdir(), 'guildhall-outage-'));
      database = join(dir, 'guildhall.db');
      cleanup.push(() => rm(dir, { recursive: true, force: true }));
    }
    const config = {
      natsUrl,
      natsSubjectPrefix: uniqueSubjectPrefix('outage'),
      natsHistorySeconds: options.historySeconds,
    };
    const api = await startTestServer({ storage: driver, database, config });
    servers.push(api);
    const gateway = await startTestServer({
      storage: driver,
      database,
      listen: true,
      config: { ...config, natsUrl: options.gatewayNats ?? natsUrl },
    });
    servers.push(gateway);
    const seed = await seedDeveloper(api.app, 'outage');
    const { guild, channels } = await api.app.services.guilds.create({
      ownerId: seed.userId,
      name: 'Outage',
      channels: [{ name: 'general', type: 'text' }],
    });
    await api.app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: seed.applicationId,
      permissions: 0n,
    });
    const { client: bot } = await identifyGateway(gateway.app.gatewayUrl(), {
      token: `Bot ${seed.botToken}`,
      intents: I.GUILDS | I.GUILD_MESSAGES,
    });
    clients.push(bot);
    await bot.dispatch('GUILD_CREATE');
    const posted: string[] = [];
    /** The owner posts `count` messages through the API node; each answers 200. */
    const post = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const res = await apiRequest(api.app, `POST /channels/${channels[0]?.id ?? ''}/messages`, {
          auth: seed.userToken,
          payload: { content: `m${String(posted.length)}` },
        });
        expect(res.statusCode).toBe(200);
        posted.push(res.json<{ id: string }>().id);
      }
    };
    return { api, gateway, seed, bot, post, posted };
  };

  it(
    'a restart loses no message: the session gets every one, in order, without a word',
    async () => {
      const { bot, post, posted } = await twoNodes({ historySeconds: 60 });
      await post(5);
      await expect.poll(() => messageIds(bot), WAIT).toEqual(posted);

      await server().stop('kill');
      // Committed and answered while NATS is away.
      await post(5);
      await server().start();
      await post(5);

      await expect.poll(() => messageIds(bot).length, WAIT).toBeGreaterThanOrEqual(15);
      expect(messageIds(bot)).toEqual(posted);
      // Nothing told the session to do anything: no RECONNECT, no INVALID_SESSION, no close.
      expect(
        bot.frames.filter((f) => f.op === Op.RECONNECT || f.op === Op.INVALID_SESSION),
      ).toEqual([]);
      expect(bot.raw.readyState).toBe(bot.raw.OPEN);
      const seqs = dispatchSeqs(bot.frames);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a gateway node cut off alone gets what it missed, revocations included',
    async () => {
      proxy = await startTcpProxy(server().port);
      const { api, gateway, seed, bot, post, posted } = await twoNodes({
        historySeconds: 60,
        gatewayNats: `nats://127.0.0.1:${String(proxy.port)}`,
      });
      // The person logs in a second time: that token is revoked meanwhile, the first stays.
      const login = await api.app.http.inject({
        method: 'POST',
        url: '/api/v10/auth/login',
        payload: { login: 'outage', password: 'correct horse battery' },
      });
      const revoked = login.json<{ token: string }>().token;
      const { client: person } = await identifyGateway(gateway.app.gatewayUrl(), {
        token: revoked,
        intents: 0,
      });
      clients.push(person);
      const { client: stays } = await identifyGateway(gateway.app.gatewayUrl(), {
        token: seed.userToken,
        intents: 0,
      });
      clients.push(stays);
      await post(3);
      await expect.poll(() => messageIds(bot), WAIT).toEqual(posted);

      proxy.cut();
      await post(3);
      const logout = await api.app.http.inject({
        method: 'POST',
        url: '/api/v10/auth/logout',
        headers: { authorization: revoked },
      });
      expect(logout.statusCode).toBe(204);
      proxy.restore();
      await post(3);

      await expect.poll(() => messageIds(bot).length, WAIT).toBeGreaterThanOrEqual(9);
      expect(messageIds(bot)).toEqual(posted);
      // The logged-out token's session ends as if the node had heard it at once.
      expect((await person.closed).code).toBe(4004);
      expect(stays.raw.readyState).toBe(stays.raw.OPEN);
      expect(bot.frames.some((f) => f.op === Op.INVALID_SESSION)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'without a history, a restart invalidates the session instead of leaving it silent',
    async () => {
      const { seed, bot, post, posted } = await twoNodes({ historySeconds: 0 });
      await post(2);
      await expect.poll(() => messageIds(bot), WAIT).toEqual(posted);

      await server().stop('kill');
      await post(2);
      await server().start();
      const invalid = await bot.next((f) => f.op === Op.INVALID_SESSION, WAIT.timeout);
      expect(invalid.d).toBe(false);

      // The client identifies again on the same connection and hears what comes next.
      bot.send(Op.IDENTIFY, {
        token: `Bot ${seed.botToken}`,
        intents: I.GUILDS | I.GUILD_MESSAGES,
        properties: { os: 'linux', browser: 'test', device: 'test' },
      });
      await bot.next(
        (f) => f.t === 'READY' && bot.frames.indexOf(f) > bot.frames.indexOf(invalid),
        WAIT.timeout,
      );
      await post(1);
      await expect.poll(() => messageIds(bot).includes(posted.at(-1) ?? ''), WAIT).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
