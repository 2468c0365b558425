import { ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../src/domain/clock.js';
import { encodeEtf } from '../src/gateway/etf.js';
import { connectGateway, identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { startTestServer, type TestServer } from './support/testServer.js';

const NOW = Date.UTC(2026, 5, 1);
const properties = { os: 'linux', browser: 'test', device: 'test' };

describe('gateway close codes', () => {
  let server: TestServer;
  let fixture: GuildFixture;
  let clock: ReturnType<typeof manualClock>;
  const clients: GatewayClient[] = [];
  const connect = async (options?: Parameters<typeof connectGateway>[1]) => {
    const client = await connectGateway(server.app.gatewayUrl(), options);
    clients.push(client);
    await client.next((f) => f.op === 10);
    return client;
  };
  const closeCode = async (client: GatewayClient) => (await client.closed).code;
  const identify = (client: GatewayClient, extra: Record<string, unknown> = {}) => {
    client.send(2, { token: fixture.bot.token, intents: I.GUILDS, properties, ...extra });
  };

  beforeEach(async () => {
    clock = manualClock(NOW);
    server = await startTestServer({
      listen: true,
      clock,
      gateway: {
        heartbeatIntervalMs: 100,
        heartbeatGraceMs: 100,
        identifiesPerBucket: 1000,
        shardingRequiredGuilds: 1,
        clientEventsPerMinute: 5,
      },
    });
    fixture = await guildFixture(server, { botPermissions: 0n, nowMs: () => clock.now() });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.raw.terminate();
    await server.close();
  });

  it('4001 for an unknown opcode, 4002 for undecodable bytes', async () => {
    const unknown = await connect();
    unknown.send(99, null);
    expect(await closeCode(unknown)).toBe(4001);
    const garbage = await connect();
    garbage.sendRaw('{not json');
    expect(await closeCode(garbage)).toBe(4002);
    const badEtf = await connect({ encoding: 'etf' });
    badEtf.sendRaw(Buffer.from([131, 250]));
    expect(await closeCode(badEtf)).toBe(4002);
  });

  it('4003 for a command before identify, 4005 for a second identify', async () => {
    const early = await connect();
    early.send(3, { status: 'online', activities: [], since: null, afk: false });
    expect(await closeCode(early)).toBe(4003);
    const { client } = await identifyGateway(server.app.gatewayUrl(), {
      token: fixture.bot.token,
      intents: I.GUILDS,
    });
    clients.push(client);
    identify(client);
    expect(await closeCode(client)).toBe(4005);
  });

  it('4004 for a bad token', async () => {
    const client = await connect();
    client.send(2, { token: 'Bot nope', intents: 0, properties });
    expect(await closeCode(client)).toBe(4004);
  });

  it('4008 past the client event budget', async () => {
    const client = await connect();
    for (let i = 0; i < 6; i++) client.send(1, null);
    expect(await closeCode(client)).toBe(4008);
  });

  it('4009 for a session that stops heartbeating', async () => {
    const client = await connect();
    clock.advance(1000);
    expect(await closeCode(client)).toBe(4009);
  });

  it('4010 for a bad shard, 4011 when sharding is required', async () => {
    const bad = await connect();
    identify(bad, { shard: [1, 1] });
    expect(await closeCode(bad)).toBe(4010);
    const { guild } = await server.app.services.guilds.create({
      ownerId: fixture.owner.userId,
      name: 'second',
      channels: [],
    });
    await server.app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: fixture.bot.applicationId,
      permissions: 0n,
    });
    const unsharded = await connect();
    identify(unsharded);
    expect(await closeCode(unsharded)).toBe(4011);
  });

  it('4012 for an unsupported version, 9 accepted', async () => {
    const nine = await connect({ v: '9' });
    identify(nine);
    await nine.dispatch('READY');
    const eight = await connectGateway(server.app.gatewayUrl(), { v: '8' });
    clients.push(eight);
    expect(await closeCode(eight)).toBe(4012);
  });

  it('4013 for unknown intent bits', async () => {
    const client = await connect();
    identify(client, { intents: 1 << 30 });
    expect(await closeCode(client)).toBe(4013);
  });

  it('4013 for intents past 32 bits, negative or not an integer (bit operators truncate)', async () => {
    // 2^32 and 2^40 are 0 to a 32-bit `&`: a bitwise test alone let them through.
    for (const intents of [2 ** 31, 2 ** 32, 2 ** 32 + I.GUILDS, 2 ** 40, -1, -(2 ** 32), 1.5]) {
      const client = await connect();
      identify(client, { intents });
      expect({ intents, code: await closeCode(client) }).toEqual({ intents, code: 4013 });
    }
  });

  it('4014 for a privileged intent the app has not enabled; allowed once enabled', async () => {
    const client = await connect();
    identify(client, { intents: I.GUILDS | I.MESSAGE_CONTENT });
    expect(await closeCode(client)).toBe(4014);
    await server.app.storage.applications.update(fixture.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
    });
    const enabled = await connect();
    identify(enabled, { intents: I.GUILDS | I.MESSAGE_CONTENT });
    await enabled.dispatch('READY');
  });

  it('ETF round trip: identify and READY in etf', async () => {
    const client = await connect({ encoding: 'etf' });
    client.sendRaw(
      encodeEtf({ op: 2, d: { token: fixture.bot.token, intents: I.GUILDS, properties } }),
    );
    const ready = await client.dispatch('READY');
    expect((ready.d as { user: { id: string } }).user.id).toBe(fixture.bot.userId);
    const guild = await client.dispatch('GUILD_CREATE');
    expect((guild.d as { id: string }).id).toBe(fixture.guildId);
  });
});

describe('privileged intents at and above the review threshold', () => {
  let server: TestServer;
  let fixture: GuildFixture;
  const clock = manualClock(NOW);
  const clients: GatewayClient[] = [];

  beforeEach(async () => {
    server = await startTestServer({
      listen: true,
      clock,
      gateway: { identifiesPerBucket: 1000, privilegedIntentReviewThreshold: 1 },
    });
    fixture = await guildFixture(server, { botPermissions: 0n, nowMs: () => clock.now() });
    await server.app.storage.applications.update(fixture.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_GUILD_MEMBERS,
    });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.raw.terminate();
    await server.close();
  });

  const attempt = async () => {
    const client = await connectGateway(server.app.gatewayUrl());
    clients.push(client);
    await client.next((f) => f.op === 10);
    client.send(2, { token: fixture.bot.token, intents: I.GUILD_MEMBERS, properties });
    return Promise.race([
      client.dispatch('READY').then(() => 'ready'),
      client.closed.then((c) => c.code),
    ]);
  };

  it('needs an unexpired approval or a pending review', async () => {
    expect(await attempt()).toBe(4014);
    const approval = {
      applicationId: fixture.bot.applicationId,
      intent: 'GUILD_MEMBERS' as const,
    };
    await server.app.storage.gateway.putIntentApproval({
      ...approval,
      status: 'pending',
      approvedAt: null,
      expiresAt: null,
    });
    expect(await attempt()).toBe('ready');
    const year = 365 * 24 * 3600 * 1000;
    await server.app.storage.gateway.putIntentApproval({
      ...approval,
      status: 'approved',
      approvedAt: NOW - year - 1,
      expiresAt: NOW - 1,
    });
    expect(await attempt()).toBe(4014);
    await server.app.storage.gateway.putIntentApproval({
      ...approval,
      status: 'approved',
      approvedAt: NOW,
      expiresAt: NOW + year,
    });
    expect(await attempt()).toBe('ready');
  });
});
