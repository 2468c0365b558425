import { GatewayIntentBits as I } from '@guildhall/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { connectGateway, type GatewayClientOptions } from './support/gatewayClient.js';
import { useGatewayFixture } from './support/gatewayFixture.js';

const properties = { os: 'linux', browser: 'test', device: 'test' };

describe('gateway before login', () => {
  const gw = useGatewayFixture({
    gateway: {
      // A short heartbeat makes the sweep run often; the long grace keeps 4009 out of the way.
      heartbeatIntervalMs: 100,
      heartbeatGraceMs: 600_000,
      identifiesPerBucket: 1000,
      // The limits of two tests, one server for all: no other test holds more than two
      // connections before login at once, or reads so slowly that 256 KiB queue up.
      maxUnidentifiedPerAddress: 2,
      maxBufferedBytes: 256 * 1024,
    },
  });
  // The cap counts this address's connections before login: the last test's are gone first.
  beforeEach(async () => {
    await expect.poll(() => gw.server.app.gateway.connectionCount(), { timeout: 10_000 }).toBe(0);
  });
  const identified = async (options: GatewayClientOptions = {}) => {
    const { client } = await gw.identify({ token: gw.guild.bot.token, intents: I.GUILDS }, options);
    await client.dispatch('GUILD_CREATE');
    return client;
  };

  it('closes a connection that has not identified within 20 s with 4003', async () => {
    const session = await identified();
    const early = await gw.connect();
    const late = await gw.connect();
    gw.clock.advance(19_000);
    // Identifying in time keeps the connection whatever comes after.
    late.send(2, { token: gw.guild.bot.token, intents: I.GUILDS, properties });
    await late.dispatch('READY');
    gw.clock.advance(2000);
    const closed = await early.closed;
    expect(closed.code).toBe(4003);
    // The same sweep left the identified connections open: each still answers a heartbeat.
    for (const client of [session, late]) {
      client.send(1, null);
      await client.next((f) => f.op === 11);
    }
  });

  it('caps unidentified connections per address; identifying or leaving frees a place', async () => {
    const first = await gw.connect();
    const second = await gw.connect();
    await expect(connectGateway(gw.url())).rejects.toThrow(/429/);
    first.send(2, { token: gw.guild.bot.token, intents: I.GUILDS, properties });
    await first.dispatch('READY');
    const third = await gw.connect();
    await expect(connectGateway(gw.url())).rejects.toThrow(/429/);
    await second.close();
    await third.close();
    await expect.poll(() => gw.server.app.gateway.connectionCount()).toBe(1);
    await gw.connect();
    // Identified sessions do not count: more may log in from the same address.
    await identified();
  });

  it('closes a slow reader whose unread bytes pass the limit with 4008', async () => {
    const reader = await identified();
    // The client stops reading; the server queues what the socket will not take.
    reader.raw.pause();
    const count = 60;
    const pad = 'x'.repeat(512 * 1024);
    for (let i = 0; i < count; i++) {
      gw.events.dispatch({
        type: 'GUILD_ROLE_UPDATE',
        guildId: gw.guild.guildId,
        data: {
          guild_id: gw.guild.guildId,
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
    const client = await gw.connect({ compress: 'zlib-stream' });
    // Frames before login (heartbeat ACK, INVALID_SESSION) and after are read as one stream.
    client.send(1, null);
    await client.next((f) => f.op === 11);
    client.send(6, { token: gw.guild.bot.token, session_id: 'unknown', seq: 1 });
    await client.next((f) => f.op === 9);
    client.send(2, { token: gw.guild.bot.token, intents: I.GUILDS, properties });
    await client.dispatch('READY');
    const guild = await client.dispatch('GUILD_CREATE');
    expect((guild.d as { id: string }).id).toBe(gw.guild.guildId);
  });
});
