/**
 * Each gateway node watches only the bus subjects of the guilds and users its sessions need
 * (docs/gateway.md, Subjects): two nodes on one PostgreSQL database and one NATS server, node A
 * serving guild 1's bot and node B guild 2's. A spy under each node's bus shows every subject the
 * node received: node A never gets guild 2's dispatches (nor bot 2's), node B never guild 1's;
 * a bot added to a guild its node did not watch joins it there; and a node stops watching a
 * guild once its last session there has gone.
 *
 * @module
 */
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventBus } from '../src/bus/index.js';
import { createNatsBus } from '../src/bus/nats/index.js';
import { guildSubject, userSubject } from '../src/events/dispatcher.js';
import { identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { natsAvailable, TEST_NATS_URL, uniqueSubjectPrefix } from './support/nats.js';
import { dropSchema, postgresAvailable, uniqueSchema } from './support/postgres.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
  type TestServerOptions,
} from './support/testServer.js';
import { apiRequest } from './support/inject.js';

/** A bus that records the subject of every event it hands to a subscriber of this node. */
function spied(bus: EventBus): { bus: EventBus; received: string[] } {
  const received: string[] = [];
  return {
    received,
    bus: {
      driver: bus.driver,
      history: bus.history,
      publish: (subject, event) => bus.publish(subject, event),
      subscribe: (subject, handler) =>
        bus.subscribe(subject, (event, delivered) => {
          received.push(delivered);
          return handler(event, delivered);
        }),
      ping: () => bus.ping(),
      close: () => bus.close(),
    },
  };
}

const servers: TestServer[] = [];
const clients: GatewayClient[] = [];
const schemas: string[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.raw.terminate();
  for (const server of servers.splice(0).reverse()) await server.close();
  for (const schema of schemas.splice(0)) await dropSchema(schema);
});

async function node(options: TestServerOptions & { subjectPrefix: string }) {
  const { bus, received } = spied(
    await createNatsBus({ servers: TEST_NATS_URL, subjectPrefix: options.subjectPrefix }),
  );
  const server = await startTestServer({ ...options, bus, listen: true });
  servers.push(server);
  return { server, received };
}

/** A developer's guild with one text channel, and the developer's bot in it. */
async function guildWithBot(server: TestServer, name: string) {
  const dev = await seedDeveloper(server.app, name);
  const { guild, channels } = await server.app.services.guilds.create({
    ownerId: dev.userId,
    name,
    channels: [{ name: 'general', type: 'text' }],
  });
  await server.app.services.guilds.addBot({
    guildId: guild.id,
    applicationId: dev.applicationId,
    permissions: 0n,
  });
  return { dev, guildId: guild.id, channelId: channels[0]?.id ?? '' };
}

describe.skipIf(!postgresAvailable || !natsAvailable)('gateway nodes on NATS', () => {
  it('receive only the subjects of their own guilds and users', async () => {
    const schema = uniqueSchema('subjects');
    schemas.push(schema);
    const shared = { storage: 'postgres' as const, database: schema };
    const subjectPrefix = uniqueSubjectPrefix('subjects');
    const a = await node({ ...shared, subjectPrefix });
    const b = await node({ ...shared, subjectPrefix });
    const one = await guildWithBot(a.server, 'first');
    const two = await guildWithBot(a.server, 'second');

    const intents = I.GUILDS | I.GUILD_MESSAGES;
    const bot1 = await identifyGateway(a.server.app.gatewayUrl(), {
      token: `Bot ${one.dev.botToken}`,
      intents,
    });
    clients.push(bot1.client);
    await bot1.client.dispatch('GUILD_CREATE');
    const bot2 = await identifyGateway(b.server.app.gatewayUrl(), {
      token: `Bot ${two.dev.botToken}`,
      intents,
    });
    clients.push(bot2.client);
    await bot2.client.dispatch('GUILD_CREATE');

    // Both messages go through node A's API: where a dispatch is published does not matter.
    const post = async (guild: typeof one, content: string) => {
      const res = await apiRequest(a.server.app, `POST /channels/${guild.channelId}/messages`, {
        auth: guild.dev.userToken,
        payload: { content },
      });
      expect(res.statusCode).toBe(200);
    };
    await post(two, 'for the second guild');
    await post(one, 'for the first guild');
    const created = (client: GatewayClient, channelId: string) =>
      client.next(
        (f) => f.t === 'MESSAGE_CREATE' && (f.d as { channel_id: string }).channel_id === channelId,
        10_000,
      );
    await created(bot2.client, two.channelId);
    await created(bot1.client, one.channelId);

    expect(a.received).toContain(guildSubject(one.guildId));
    expect(a.received).not.toContain(guildSubject(two.guildId));
    expect(a.received).not.toContain(userSubject(two.dev.botUserId));
    expect(b.received).toContain(guildSubject(two.guildId));
    expect(b.received).not.toContain(guildSubject(one.guildId));
    expect(b.received).not.toContain(userSubject(one.dev.botUserId));
    // Every dispatch subject a node received is its guild's or its bot's.
    for (const [received, guild] of [
      [a.received, one],
      [b.received, two],
    ] as const) {
      const own = [guildSubject(guild.guildId), userSubject(guild.dev.botUserId)];
      for (const subject of received.filter((s) => s.startsWith('dispatch.'))) {
        expect(own).toContain(subject);
      }
    }

    // Bot 1 joins guild 2 (through node B): its GUILD_MEMBER_ADD, on bot 1's subject, brings
    // node A guild 2's GUILD_CREATE and its dispatches from then on.
    await b.server.app.services.guilds.addBot({
      guildId: two.guildId,
      applicationId: one.dev.applicationId,
      permissions: 0n,
    });
    await bot1.client.next(
      (f) => f.t === 'GUILD_CREATE' && (f.d as { id: string }).id === two.guildId,
      10_000,
    );
    expect(a.server.app.gateway.watches(guildSubject(two.guildId))).toBe(true);
    await post(two, 'for both bots');
    await created(bot1.client, two.channelId);

    // Bot 1's session ends (close 1000): node A stops watching its guilds and its user.
    await bot1.client.close(1000);
    await expect
      .poll(() => a.server.app.gateway.watches(guildSubject(one.guildId)), { timeout: 5000 })
      .toBe(false);
    expect(a.server.app.gateway.watches(guildSubject(two.guildId))).toBe(false);
    expect(a.server.app.gateway.watches(userSubject(one.dev.botUserId))).toBe(false);
    expect(b.server.app.gateway.watches(guildSubject(two.guildId))).toBe(true);
  }, 60_000);
});
