import { GatewayIntentBits as I } from '@guildhall/protocol';
import type {
  GatewayGuildCreateDispatchData,
  GatewayReadyDispatchData,
} from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../src/domain/clock.js';
import { createBusDispatcher, type Dispatcher } from '../src/events/dispatcher.js';
import { connectGateway, identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { startTestServer, type TestServer } from './support/testServer.js';

/** Before channel obfuscation became mandatory (2026-11-16). */
const BEFORE_OBFUSCATION = Date.UTC(2026, 5, 1);

describe('gateway: connection, identify, READY and GUILD_CREATE', () => {
  let server: TestServer;
  let fixture: GuildFixture;
  let events: Dispatcher;
  const clients: GatewayClient[] = [];
  const track = <T extends { client: GatewayClient }>(x: T) => {
    clients.push(x.client);
    return x;
  };

  beforeEach(async () => {
    const clock = manualClock(BEFORE_OBFUSCATION);
    server = await startTestServer({
      listen: true,
      clock,
      gateway: { heartbeatIntervalMs: 1000, identifiesPerBucket: 100 },
    });
    fixture = await guildFixture(server, { botPermissions: 0n, nowMs: () => clock.now() });
    events = createBusDispatcher({ bus: server.app.bus, clock, onError: () => undefined });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.raw.terminate();
    await server.close();
  });

  it('says HELLO with the heartbeat interval and ACKs heartbeats', async () => {
    const client = await connectGateway(server.app.gatewayUrl());
    clients.push(client);
    const hello = await client.next((f) => f.op === 10);
    expect(hello).toEqual({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    client.send(1, null);
    await client.next((f) => f.op === 11);
  });

  it('accepts /gateway/ with a trailing slash, and closes 4012 for an unknown version', async () => {
    const slash = await connectGateway(server.app.gatewayUrl(), { path: '/gateway/' });
    clients.push(slash);
    await slash.next((f) => f.op === 10);
    const old = await connectGateway(server.app.gatewayUrl(), { v: '6' });
    clients.push(old);
    expect((await old.closed).code).toBe(4012);
  });

  it('identifies a bot (with or without "Bot ") and sends READY then GUILD_CREATE', async () => {
    for (const token of [fixture.bot.token, fixture.bot.token.slice(4)]) {
      const { client, ready } = track(
        await identifyGateway(server.app.gatewayUrl(), { token, intents: I.GUILDS }),
      );
      const typed: GatewayReadyDispatchData = ready as unknown as GatewayReadyDispatchData;
      expect(typed.v).toBe(10);
      expect(typed.user.id).toBe(fixture.bot.userId);
      expect(typed.guilds).toEqual([{ id: fixture.guildId, unavailable: true }]);
      expect(typed.resume_gateway_url).toBe(server.app.gatewayUrl());
      expect(typed.shard).toEqual([0, 1]);
      expect(typed.application.id).toBe(fixture.bot.applicationId);
      const created = await client.dispatch('GUILD_CREATE');
      const guild = created.d as GatewayGuildCreateDispatchData;
      expect(guild.id).toBe(fixture.guildId);
      expect(guild.unavailable).toBe(false);
      expect(guild.member_count).toBe(2);
      expect(guild.large).toBe(false);
      expect(guild.members.map((m) => m.user.id).sort()).toEqual(
        [fixture.owner.userId, fixture.bot.userId].sort(),
      );
      expect(guild.channels.map((c) => c.name)).toContain('general');
      expect(guild.roles.length).toBeGreaterThan(0);
      expect(guild).toMatchObject({ threads: [], voice_states: [], presences: [] });
      expect(typeof guild.joined_at).toBe('string');
      expect(created.s).toBe(2);
    }
    const ids = new Set(clients.map((c) => c.frames.find((f) => f.t === 'READY')?.d));
    expect(ids.size).toBe(2);
  });

  it('delivers a guild dispatch to a session with the intent, not to one without', async () => {
    const withIntent = track(
      await identifyGateway(server.app.gatewayUrl(), {
        token: fixture.bot.token,
        intents: I.GUILDS,
      }),
    );
    const without = track(
      await identifyGateway(server.app.gatewayUrl(), {
        token: fixture.bot.token,
        intents: I.GUILD_MESSAGES,
      }),
    );
    await withIntent.client.dispatch('GUILD_CREATE');
    await without.client.dispatch('GUILD_CREATE');
    events.dispatch({
      type: 'GUILD_ROLE_CREATE',
      guildId: fixture.guildId,
      data: {
        guild_id: fixture.guildId,
        role: { id: '99', name: 'r', permissions: '0', position: 1 },
      },
    });
    events.dispatch({ type: 'TYPING_START', guildId: fixture.guildId, data: { x: 1 } });
    const role = await withIntent.client.dispatch('GUILD_ROLE_CREATE');
    expect(role.s).toBe(3);
    // Both sessions saw the later event only if subscribed; GUILD_MESSAGES has neither.
    events.dispatch({
      type: 'GUILD_UPDATE',
      guildId: fixture.guildId,
      data: { id: fixture.guildId, owner_id: fixture.owner.userId },
    });
    await withIntent.client.dispatch('GUILD_UPDATE');
    expect(without.client.frames.some((f) => f.t === 'GUILD_ROLE_CREATE')).toBe(false);
    expect(without.client.frames.some((f) => f.t === 'GUILD_UPDATE')).toBe(false);
  });

  it('asks for a heartbeat with op 1; a session token identifies a person', async () => {
    const { client, ready } = track(
      await identifyGateway(server.app.gatewayUrl(), {
        token: fixture.owner.token,
        intents: I.GUILDS,
      }),
    );
    expect((ready['user'] as { id: string }).id).toBe(fixture.owner.userId);
    server.app.gateway.requestHeartbeats();
    await client.next((f) => f.op === 1);
  });

  it('stops a guild with GUILD_DELETE when the bot is removed', async () => {
    const { client } = track(
      await identifyGateway(server.app.gatewayUrl(), {
        token: fixture.bot.token,
        intents: I.GUILDS,
      }),
    );
    await client.dispatch('GUILD_CREATE');
    const kicked = await fixture.call(
      'DELETE',
      `/guilds/${fixture.guildId}/members/${fixture.bot.userId}`,
      fixture.owner.token,
    );
    expect(kicked.statusCode).toBe(204);
    const deleted = await client.dispatch('GUILD_DELETE');
    expect(deleted.d).toEqual({ id: fixture.guildId, unavailable: false });
    events.dispatch({
      type: 'GUILD_UPDATE',
      guildId: fixture.guildId,
      data: { id: fixture.guildId, owner_id: fixture.owner.userId },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.frames.some((f) => f.t === 'GUILD_UPDATE')).toBe(false);
  });

  it('compresses with zlib-stream (one context) and with Identify compress: true', async () => {
    const stream = track(
      await identifyGateway(
        server.app.gatewayUrl(),
        { token: fixture.bot.token, intents: I.GUILDS },
        { compress: 'zlib-stream' },
      ),
    );
    const raw: Buffer[] = [];
    stream.client.raw.on('message', (data: Buffer) => raw.push(data));
    const guild = await stream.client.dispatch('GUILD_CREATE');
    expect((guild.d as { id: string }).id).toBe(fixture.guildId);
    stream.client.send(1, 2);
    await stream.client.next((f) => f.op === 11);
    expect(raw.length).toBeGreaterThan(0);
    for (const message of raw) expect(message.subarray(-4)).toEqual(Buffer.from([0, 0, 255, 255]));
    const perPayload = track(
      await identifyGateway(
        server.app.gatewayUrl(),
        { token: fixture.bot.token, intents: I.GUILDS, compress: true },
        { payloadCompression: true },
      ),
    );
    const created = await perPayload.client.dispatch('GUILD_CREATE');
    expect((created.d as { id: string }).id).toBe(fixture.guildId);
  });

  it('spends the session start budget; an exhausted one gets INVALID_SESSION', async () => {
    const before = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/gateway/bot',
      headers: { authorization: fixture.bot.token },
    });
    const remaining = before.json<{ session_start_limit: { remaining: number } }>()
      .session_start_limit.remaining;
    track(await identifyGateway(server.app.gatewayUrl(), { token: fixture.bot.token, intents: 0 }));
    const after = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/gateway/bot',
      headers: { authorization: fixture.bot.token },
    });
    expect(
      after.json<{ session_start_limit: { remaining: number } }>().session_start_limit.remaining,
    ).toBe(remaining - 1);
  });
});

describe('gateway: exhausted session start limit', () => {
  it('answers IDENTIFY with INVALID_SESSION false', async () => {
    await using server = await startTestServer({
      listen: true,
      gateway: { identifyPerDay: 1, identifiesPerBucket: 10 },
    });
    const fixture = await guildFixture(server, { botPermissions: 0n });
    const { client } = await identifyGateway(server.app.gatewayUrl(), {
      token: fixture.bot.token,
      intents: 0,
    });
    client.raw.terminate();
    const second = await connectGateway(server.app.gatewayUrl());
    await second.next((f) => f.op === 10);
    second.send(2, {
      token: fixture.bot.token,
      intents: 0,
      properties: { os: 'x', browser: 'x', device: 'x' },
    });
    expect((await second.next((f) => f.op === 9)).d).toBe(false);
    second.raw.terminate();
  });
});
