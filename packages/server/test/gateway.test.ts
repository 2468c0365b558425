import { GatewayIntentBits as I } from '@guildhall/protocol';
import type {
  GatewayGuildCreateDispatchData,
  GatewayReadyDispatchData,
} from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { connectGateway, type GatewayClient } from './support/gatewayClient.js';
import { useGatewayFixture } from './support/gatewayFixture.js';

/** Before channel obfuscation became mandatory (2026-11-16). */
const BEFORE_OBFUSCATION = Date.UTC(2026, 5, 1);

describe('gateway: connection, identify, READY and GUILD_CREATE', () => {
  const gw = useGatewayFixture({
    nowMs: BEFORE_OBFUSCATION,
    gateway: { heartbeatIntervalMs: 1000 },
  });

  it('says HELLO with the heartbeat interval and ACKs heartbeats', async () => {
    const client = gw.track(await connectGateway(gw.url()));
    const hello = await client.next((f) => f.op === 10);
    expect(hello).toEqual({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    client.send(1, null);
    await client.next((f) => f.op === 11);
  });

  it('accepts /gateway/ with a trailing slash, and closes 4012 for an unknown version', async () => {
    const slash = gw.track(await connectGateway(gw.url(), { path: '/gateway/' }));
    await slash.next((f) => f.op === 10);
    const old = gw.track(await connectGateway(gw.url(), { v: '6' }));
    expect((await old.closed).code).toBe(4012);
  });

  it('identifies a bot (with or without "Bot ") and sends READY then GUILD_CREATE', async () => {
    const sessions: GatewayClient[] = [];
    for (const token of [gw.guild.bot.token, gw.guild.bot.token.slice(4)]) {
      const { client, ready } = await gw.identify({ token, intents: I.GUILDS });
      sessions.push(client);
      const typed: GatewayReadyDispatchData = ready as unknown as GatewayReadyDispatchData;
      expect(typed.v).toBe(10);
      expect(typed.user.id).toBe(gw.guild.bot.userId);
      expect(typed.guilds).toEqual([{ id: gw.guild.guildId, unavailable: true }]);
      expect(typed.resume_gateway_url).toBe(gw.url());
      expect(typed.shard).toEqual([0, 1]);
      expect(typed.application.id).toBe(gw.guild.bot.applicationId);
      const created = await client.dispatch('GUILD_CREATE');
      const guild = created.d as GatewayGuildCreateDispatchData;
      expect(guild.id).toBe(gw.guild.guildId);
      expect(guild.unavailable).toBe(false);
      expect(guild.member_count).toBe(2);
      expect(guild.large).toBe(false);
      expect(guild.members.map((m) => m.user.id).sort()).toEqual(
        [gw.guild.owner.userId, gw.guild.bot.userId].sort(),
      );
      expect(guild.channels.map((c) => c.name)).toContain('general');
      expect(guild.roles.length).toBeGreaterThan(0);
      expect(guild).toMatchObject({ threads: [], voice_states: [], presences: [] });
      expect(typeof guild.joined_at).toBe('string');
      expect(created.s).toBe(2);
    }
    const ids = new Set(sessions.map((c) => c.frames.find((f) => f.t === 'READY')?.d));
    expect(ids.size).toBe(2);
  });

  it('delivers a guild dispatch to a session with the intent, not to one without', async () => {
    const withIntent = await gw.identify({ token: gw.guild.bot.token, intents: I.GUILDS });
    const without = await gw.identify({ token: gw.guild.bot.token, intents: I.GUILD_MESSAGES });
    await withIntent.client.dispatch('GUILD_CREATE');
    await without.client.dispatch('GUILD_CREATE');
    gw.events.dispatch({
      type: 'GUILD_ROLE_CREATE',
      guildId: gw.guild.guildId,
      data: {
        guild_id: gw.guild.guildId,
        role: { id: '99', name: 'r', permissions: '0', position: 1 },
      },
    });
    gw.events.dispatch({ type: 'TYPING_START', guildId: gw.guild.guildId, data: { x: 1 } });
    const role = await withIntent.client.dispatch('GUILD_ROLE_CREATE');
    expect(role.s).toBe(3);
    // Both sessions saw the later event only if subscribed; GUILD_MESSAGES has neither.
    gw.events.dispatch({
      type: 'GUILD_UPDATE',
      guildId: gw.guild.guildId,
      data: { id: gw.guild.guildId, owner_id: gw.guild.owner.userId },
    });
    await withIntent.client.dispatch('GUILD_UPDATE');
    expect(without.client.frames.some((f) => f.t === 'GUILD_ROLE_CREATE')).toBe(false);
    expect(without.client.frames.some((f) => f.t === 'GUILD_UPDATE')).toBe(false);
  });

  it('asks for a heartbeat with op 1; a session token identifies a person', async () => {
    const { client, ready } = await gw.identify({ token: gw.guild.owner.token, intents: I.GUILDS });
    expect((ready['user'] as { id: string }).id).toBe(gw.guild.owner.userId);
    gw.server.app.gateway.requestHeartbeats();
    await client.next((f) => f.op === 1);
  });

  it('stops a guild with GUILD_DELETE when the bot is removed', async () => {
    const { client } = await gw.identify({ token: gw.guild.bot.token, intents: I.GUILDS });
    await client.dispatch('GUILD_CREATE');
    const kicked = await gw.guild.call(
      'DELETE',
      `/guilds/${gw.guild.guildId}/members/${gw.guild.bot.userId}`,
      gw.guild.owner.token,
    );
    expect(kicked.statusCode).toBe(204);
    const deleted = await client.dispatch('GUILD_DELETE');
    expect(deleted.d).toEqual({ id: gw.guild.guildId, unavailable: false });
    gw.events.dispatch({
      type: 'GUILD_UPDATE',
      guildId: gw.guild.guildId,
      data: { id: gw.guild.guildId, owner_id: gw.guild.owner.userId },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.frames.some((f) => f.t === 'GUILD_UPDATE')).toBe(false);
  });

  it('compresses with zlib-stream (one context) and with Identify compress: true', async () => {
    const stream = await gw.identify(
      { token: gw.guild.bot.token, intents: I.GUILDS },
      { compress: 'zlib-stream' },
    );
    const raw: Buffer[] = [];
    stream.client.raw.on('message', (data: Buffer) => raw.push(data));
    const guild = await stream.client.dispatch('GUILD_CREATE');
    expect((guild.d as { id: string }).id).toBe(gw.guild.guildId);
    stream.client.send(1, 2);
    await stream.client.next((f) => f.op === 11);
    expect(raw.length).toBeGreaterThan(0);
    for (const message of raw) expect(message.subarray(-4)).toEqual(Buffer.from([0, 0, 255, 255]));
    const perPayload = await gw.identify(
      { token: gw.guild.bot.token, intents: I.GUILDS, compress: true },
      { payloadCompression: true },
    );
    const created = await perPayload.client.dispatch('GUILD_CREATE');
    expect((created.d as { id: string }).id).toBe(gw.guild.guildId);
  });

  it('spends the session start budget; an exhausted one gets INVALID_SESSION', async () => {
    const before = await gw.server.app.http.inject({
      method: 'GET',
      url: '/api/v10/gateway/bot',
      headers: { authorization: gw.guild.bot.token },
    });
    const remaining = before.json<{ session_start_limit: { remaining: number } }>()
      .session_start_limit.remaining;
    await gw.identify({ token: gw.guild.bot.token, intents: 0 });
    const after = await gw.server.app.http.inject({
      method: 'GET',
      url: '/api/v10/gateway/bot',
      headers: { authorization: gw.guild.bot.token },
    });
    expect(
      after.json<{ session_start_limit: { remaining: number } }>().session_start_limit.remaining,
    ).toBe(remaining - 1);
  });
});

describe('gateway: exhausted session start limit', () => {
  const gw = useGatewayFixture({ gateway: { identifyPerDay: 1, identifiesPerBucket: 10 } });

  it('answers IDENTIFY with INVALID_SESSION false', async () => {
    const { client } = await gw.identify({ token: gw.guild.bot.token, intents: 0 });
    client.raw.terminate();
    const second = await gw.connect();
    second.send(2, {
      token: gw.guild.bot.token,
      intents: 0,
      properties: { os: 'x', browser: 'x', device: 'x' },
    });
    expect((await second.next((f) => f.op === 9)).d).toBe(false);
    second.raw.terminate();
  });
});
