import { ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { encodeEtf } from '../src/gateway/etf.js';
import { DEFAULT_GATEWAY_OPTIONS } from '../src/gateway/index.js';
import { connectGateway, type GatewayClient } from './support/gatewayClient.js';
import { GATEWAY_FIXTURE_NOW as NOW, useGatewayFixture } from './support/gatewayFixture.js';

const properties = { os: 'linux', browser: 'test', device: 'test' };

describe('gateway close codes', () => {
  const gw = useGatewayFixture({
    gateway: {
      heartbeatIntervalMs: 100,
      heartbeatGraceMs: 100,
      identifiesPerBucket: 1000,
      shardingRequiredGuilds: 1,
      clientEventsPerMinute: 5,
    },
  });
  const closeCode = async (client: GatewayClient) => (await client.closed).code;
  const identify = (client: GatewayClient, extra: Record<string, unknown> = {}) => {
    client.send(2, { token: gw.guild.bot.token, intents: I.GUILDS, properties, ...extra });
  };

  it('4001 for an unknown opcode, 4002 for undecodable bytes', async () => {
    const unknown = await gw.connect();
    unknown.send(99, null);
    expect(await closeCode(unknown)).toBe(4001);
    const garbage = await gw.connect();
    garbage.sendRaw('{not json');
    expect(await closeCode(garbage)).toBe(4002);
    const badEtf = await gw.connect({ encoding: 'etf' });
    badEtf.sendRaw(Buffer.from([131, 250]));
    expect(await closeCode(badEtf)).toBe(4002);
  });

  it('4003 for a command before identify, 4005 for a second identify', async () => {
    const early = await gw.connect();
    early.send(3, { status: 'online', activities: [], since: null, afk: false });
    expect(await closeCode(early)).toBe(4003);
    const { client } = await gw.identify({ token: gw.guild.bot.token, intents: I.GUILDS });
    identify(client);
    expect(await closeCode(client)).toBe(4005);
  });

  it('4003 for a connection that has not identified in time', async () => {
    const late = await gw.connect();
    gw.clock.advance(DEFAULT_GATEWAY_OPTIONS.identifyTimeoutMs + 1);
    expect(await closeCode(late)).toBe(4003);
  });

  it('4004 for a bad token', async () => {
    const client = await gw.connect();
    client.send(2, { token: 'Bot nope', intents: 0, properties });
    expect(await closeCode(client)).toBe(4004);
  });

  it('4008 past the client event budget', async () => {
    const client = await gw.connect();
    for (let i = 0; i < 6; i++) client.send(1, null);
    expect(await closeCode(client)).toBe(4008);
  });

  it('4009 for a session that stops heartbeating', async () => {
    const client = await gw.connect();
    gw.clock.advance(1000);
    expect(await closeCode(client)).toBe(4009);
  });

  it('4010 for a bad shard, 4011 when sharding is required', async () => {
    const bad = await gw.connect();
    identify(bad, { shard: [1, 1] });
    expect(await closeCode(bad)).toBe(4010);
    const { guild } = await gw.server.app.services.guilds.create({
      ownerId: gw.guild.owner.userId,
      name: 'second',
      channels: [],
    });
    await gw.server.app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: gw.guild.bot.applicationId,
      permissions: 0n,
    });
    const unsharded = await gw.connect();
    identify(unsharded);
    expect(await closeCode(unsharded)).toBe(4011);
  });

  it('4012 for an unsupported version, 9 accepted', async () => {
    const nine = await gw.connect({ v: '9' });
    identify(nine);
    await nine.dispatch('READY');
    const eight = gw.track(await connectGateway(gw.url(), { v: '8' }));
    expect(await closeCode(eight)).toBe(4012);
  });

  it('4013 for unknown intent bits', async () => {
    const client = await gw.connect();
    identify(client, { intents: 1 << 30 });
    expect(await closeCode(client)).toBe(4013);
  });

  it('4013 for intents past 32 bits, negative or not an integer (bit operators truncate)', async () => {
    // 2^32 and 2^40 are 0 to a 32-bit `&`: a bitwise test alone let them through.
    for (const intents of [2 ** 31, 2 ** 32, 2 ** 32 + I.GUILDS, 2 ** 40, -1, -(2 ** 32), 1.5]) {
      const client = await gw.connect();
      identify(client, { intents });
      expect({ intents, code: await closeCode(client) }).toEqual({ intents, code: 4013 });
    }
  });

  it('4014 for a privileged intent the app has not enabled; allowed once enabled', async () => {
    const client = await gw.connect();
    identify(client, { intents: I.GUILDS | I.MESSAGE_CONTENT });
    expect(await closeCode(client)).toBe(4014);
    await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
    });
    const enabled = await gw.connect();
    identify(enabled, { intents: I.GUILDS | I.MESSAGE_CONTENT });
    await enabled.dispatch('READY');
  });

  it('ETF round trip: identify and READY in etf', async () => {
    const client = await gw.connect({ encoding: 'etf' });
    client.sendRaw(
      encodeEtf({ op: 2, d: { token: gw.guild.bot.token, intents: I.GUILDS, properties } }),
    );
    const ready = await client.dispatch('READY');
    expect((ready.d as { user: { id: string } }).user.id).toBe(gw.guild.bot.userId);
    const guild = await client.dispatch('GUILD_CREATE');
    expect((guild.d as { id: string }).id).toBe(gw.guild.guildId);
  });
});

describe('privileged intents at and above the review threshold', () => {
  const gw = useGatewayFixture({
    gateway: { identifiesPerBucket: 1000, privilegedIntentReviewThreshold: 1 },
  });

  beforeEach(async () => {
    await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_GUILD_MEMBERS,
    });
  });

  const attempt = async () => {
    const client = await gw.connect();
    client.send(2, { token: gw.guild.bot.token, intents: I.GUILD_MEMBERS, properties });
    return Promise.race([
      client.dispatch('READY').then(() => 'ready'),
      client.closed.then((c) => c.code),
    ]);
  };

  it('needs an unexpired approval or a pending review', async () => {
    expect(await attempt()).toBe(4014);
    const approval = {
      applicationId: gw.guild.bot.applicationId,
      intent: 'GUILD_MEMBERS' as const,
    };
    await gw.server.app.storage.gateway.putIntentApproval({
      ...approval,
      status: 'pending',
      approvedAt: null,
      expiresAt: null,
    });
    expect(await attempt()).toBe('ready');
    const year = 365 * 24 * 3600 * 1000;
    await gw.server.app.storage.gateway.putIntentApproval({
      ...approval,
      status: 'approved',
      approvedAt: NOW - year - 1,
      expiresAt: NOW - 1,
    });
    expect(await attempt()).toBe(4014);
    await gw.server.app.storage.gateway.putIntentApproval({
      ...approval,
      status: 'approved',
      approvedAt: NOW,
      expiresAt: NOW + year,
    });
    expect(await attempt()).toBe('ready');
  });
});
