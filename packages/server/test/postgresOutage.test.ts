/**
 * PostgreSQL going away and coming back under a running node (a private server, stopped with
 * `pg_ctl -m immediate`, as a crash would, and started again): requests answer the platform's
 * 503 meanwhile and write nothing, a transaction cut off mid-way leaves nothing behind and does
 * not end the process, the pools reconnect by themselves, and gateway sessions stay up.
 *
 * @module
 */
import { GatewayIntentBits as I, GatewayOpcodes as Op } from '@guildhall/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStorageUnavailable } from '../src/storage/index.js';
import { identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import {
  privateServersAvailable,
  startPrivatePostgres,
  type PrivateServer,
} from './support/privateServers.js';
import { seedDeveloper, startTestServer, type TestServer } from './support/testServer.js';
import { apiRequest } from './support/inject.js';

const WAIT = { timeout: 15_000, interval: 50 };
const TEST_TIMEOUT_MS = 60_000;
const OVERLOADED = {
  message: 'API resource is currently overloaded. Try again a little later',
  code: 130000,
};

describe.skipIf(!privateServersAvailable)('a node while PostgreSQL restarts', () => {
  let pg: PrivateServer;
  let server: TestServer;
  let bot: GatewayClient;
  let world: { userId: string; userToken: string; channelId: string };

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    server = await startTestServer({ storage: 'postgres', databaseUrl: pg.url, listen: true });
    const seed = await seedDeveloper(server.app, 'pgoutage');
    const { guild, channels } = await server.app.services.guilds.create({
      ownerId: seed.userId,
      name: 'Outage',
      channels: [{ name: 'general', type: 'text' }],
    });
    await server.app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: seed.applicationId,
      permissions: 0n,
    });
    ({ client: bot } = await identifyGateway(server.app.gatewayUrl(), {
      token: `Bot ${seed.botToken}`,
      intents: I.GUILDS | I.GUILD_MESSAGES,
    }));
    await bot.dispatch('GUILD_CREATE');
    world = { userId: seed.userId, userToken: seed.userToken, channelId: channels[0]?.id ?? '' };
  }, TEST_TIMEOUT_MS);
  afterAll(async () => {
    bot.raw.terminate();
    await server.close();
    await pg.remove();
  }, TEST_TIMEOUT_MS);

  const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    apiRequest(server.app, `${method} ${url}`, { auth: world.userToken, payload });
  const contents = async () =>
    (await api('GET', `/channels/${world.channelId}/messages`))
      .json<{ content: string }[]>()
      .map((m) => m.content);
  /** The ids of the messages the bot's session heard of. */
  const created = () =>
    bot.frames.filter((f) => f.t === 'MESSAGE_CREATE').map((f) => (f.d as { id: string }).id);
  /** Posts a message; resolves to the answer's status and the message id. */
  const post = async (content: string) => {
    const answer = await api('POST', `/channels/${world.channelId}/messages`, { content });
    return { status: answer.statusCode, id: answer.json<{ id?: string }>().id };
  };

  it(
    'answers 503 with the platform body while it is away, then serves on reconnected pools',
    async () => {
      const before = await post('before');
      expect(before.status).toBe(200);
      await expect.poll(created, WAIT).toEqual([before.id]);

      await pg.stop('kill');
      const read = await api('GET', `/channels/${world.channelId}/messages`);
      const write = await api('POST', `/channels/${world.channelId}/messages`, {
        content: 'refused',
      });
      const transaction = await api('POST', '/guilds', { name: 'Never made' });
      for (const answer of [read, write, transaction]) {
        expect(answer.statusCode).toBe(503);
        expect(answer.json()).toEqual(OVERLOADED);
      }
      const ready = await fetch(`${server.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ failed: ['database'] });
      // The gateway session is untouched: it still answers heartbeats.
      bot.send(Op.HEARTBEAT, null);
      await bot.next((f) => f.op === Op.HEARTBEAT_ACK);

      await pg.start();
      await expect
        .poll(async () => (await api('GET', '/users/@me/guilds')).statusCode, WAIT)
        .toBe(200);
      // Nothing of what was refused was written.
      expect(await contents()).toEqual(['before']);
      const guilds = (await api('GET', '/users/@me/guilds')).json<{ name: string }[]>();
      expect(guilds.map((g) => g.name)).toEqual(['Outage']);
      // The same session hears what is written next.
      const after = await post('after');
      expect(after.status).toBe(200);
      await expect.poll(created, WAIT).toEqual([before.id, after.id]);
      expect(bot.raw.readyState).toBe(bot.raw.OPEN);
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a transaction cut off mid-way leaves nothing behind, and the node lives on',
    async () => {
      const { storage } = server.app;
      const before = await storage.users.findById(world.userId);
      let paused: () => void = () => undefined;
      const halfway = new Promise<void>((resolve) => {
        paused = resolve;
      });
      const cutOff = storage.transaction(async (tx) => {
        await tx.users.update(world.userId, { globalName: 'first half' });
        paused();
        // The server dies here, between the two statements.
        await new Promise((resolve) => setTimeout(resolve, 500));
        await tx.users.update(world.userId, { globalName: 'second half' });
      });
      const outcome = cutOff.then(
        () => null,
        (err: unknown) => err,
      );
      await halfway;
      await pg.stop('kill');
      expect(isStorageUnavailable(await outcome)).toBe(true);

      await pg.start();
      await expect
        .poll(
          () =>
            storage.users.findById(world.userId).then(
              (u) => u?.globalName,
              () => 'down',
            ),
          WAIT,
        )
        .toBe(before?.globalName);
      // The process is still serving.
      expect((await api('GET', '/users/@me')).statusCode).toBe(200);
    },
    TEST_TIMEOUT_MS,
  );
});
