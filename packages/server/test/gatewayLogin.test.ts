import { GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../src/domain/clock.js';
import { createBusDispatcher } from '../src/events/dispatcher.js';
import type { GatewayOptions } from '../src/gateway/index.js';
import { connectGateway, identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { startTestServer, type TestServer } from './support/testServer.js';

const NOW = Date.UTC(2026, 5, 1);
const properties = { os: 'linux', browser: 'test', device: 'test' };

describe('gateway before login', () => {
  let server: TestServer;
  let fixture: GuildFixture;
  let clock: ReturnType<typeof manualClock>;
  const clients: GatewayClient[] = [];

  const setup = async (gateway: Partial<GatewayOptions> = {}) => {
    clock = manualClock(NOW);
    server = await startTestServer({
      listen: true,
      clock,
      // A short heartbeat makes the sweep run often; the long grace keeps 4009 out of the way.
      gateway: {
        heartbeatIntervalMs: 100,
        heartbeatGraceMs: 600_000,
        identifiesPerBucket: 1000,
        ...gateway,
      },
    });
    fixture = await guildFixture(server, { botPermissions: 0n, nowMs: () => clock.now() });
  };
  const connect = async () => {
    const client = await connectGateway(server.app.gatewayUrl());
    clients.push(client);
    await client.next((f) => f.op === 10);
    return client;
  };
  const identified = async (options: Parameters<typeof identifyGateway>[2] = {}) => {
    const { client } = await identifyGateway(
      server.app.gatewayUrl(),
      { token: fixture.bot.token, intents: I.GUILDS },
      options,
    );
    clients.push(client);
    await client.dispatch('GUILD_CREATE');
    return client;
  };

  afterEach(async () => {
    for (const c of clients.splice(0)) c.raw.terminate();
    await server.close();
  });

  it('closes a connection that has not identified within 20 s with 4003', async () => {
    await setup();
    const session = await identified();
    const early = await connect();
    const late = await connect();
    clock.advance(19_000);
    // Identifying in time keeps the connection whatever comes after.
    late.send(2, { token: fixture.bot.token, intents: I.GUILDS, properties });
    await late.dispatch('READY');
    clock.advance(2000);
    const closed = await early.closed;
    expect(closed.code).toBe(4003);
    // The same sweep left the identified connections open: each still answers a heartbeat.
    for (const client of [session, late]) {
      client.send(1, null);
      await client.next((f) => f.op === 11);
    }
  });

  it('caps unidentified connections per address; identifying or leaving frees a place', async () => {
    await setup({ maxUnidentifiedPerAddress: 2 });
    const first = await connect();
    const second = await connect();
    await expect(connectGateway(server.app.gatewayUrl())).rejects.toThrow(/429/);
    first.send(2, { token: fixture.bot.token, intents: I.GUILDS, properties });
    await first.dispatch('READY');
    const third = await connect();
    await expect(connectGateway(server.app.gatewayUrl())).rejects.toThrow(/429/);
    await second.close();
    await third.close();
    await expect.poll(() => server.app.gateway.connectionCount()).toBe(1);
    await connect();
    // Identified sessions do not count: more may log in from the same address.
    await identified();
  });

  it('closes a slow reader whose unread bytes pass the limit with 4008', async () => {
    await setup({ maxBufferedBytes: 256 * 1024 });
    const reader = await identified();
    const events = createBusDispatcher({
      bus: server.app.bus,
      clock,
      onError: () => undefined,
    });
    // The client stops reading; the server queues what the socket will not take.
    reader.raw.pause();
    const count = 60;
    const pad = 'x'.repeat(512 * 1024);
    for (let i = 0; i < count; i++) {
      events.dispatch({
        type: 'GUILD_ROLE_UPDATE',
        guildId: fixture.guildId,
        data: {
          guild_id: fixture.guildId,
          role: { id: `${900 + i}`, name: 'r', permissions: '0', position: 1, description: pad },
        },
      });
    }
    // What was queued before the close still arrives, then the close.
    reader.raw.resume();
    expect((await reader.closed).code).toBe(4008);
    const received = reader.frames.filter((f) => f.t === 'GUILD_ROLE_UPDATE').length;
    expect(received).toBeLessThan(count);
  });

  it('zlib-stream: one stream from HELLO through READY, the context made at login', async () => {
    await setup();
    const client = await connectGateway(server.app.gatewayUrl(), { compress: 'zlib-stream' });
    clients.push(client);
    await client.next((f) => f.op === 10);
    // Frames before login (heartbeat ACK, INVALID_SESSION) and after are read as one stream.
    client.send(1, null);
    await client.next((f) => f.op === 11);
    client.send(6, { token: fixture.bot.token, session_id: 'unknown', seq: 1 });
    await client.next((f) => f.op === 9);
    client.send(2, { token: fixture.bot.token, intents: I.GUILDS, properties });
    await client.dispatch('READY');
    const guild = await client.dispatch('GUILD_CREATE');
    expect((guild.d as { id: string }).id).toBe(fixture.guildId);
  });
});
