import { ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../src/domain/clock.js';
import { visibleActivities } from '../src/gateway/commands.js';
import { identifyGateway, type Frame, type GatewayClient } from './support/gatewayClient.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { DRIVERS } from './support/drivers.js';
import { startTestServer, type TestServer } from './support/testServer.js';

const NOW = Date.UTC(2026, 5, 1);
const INTENTS = I.GUILDS | I.GUILD_MEMBERS | I.GUILD_PRESENCES | I.GUILD_VOICE_STATES;

describe.each(DRIVERS)('gateway commands on $driver', ({ driver, skip }) => {
  let server: TestServer;
  let fixture: GuildFixture;
  let clock: ReturnType<typeof manualClock>;
  const clients: GatewayClient[] = [];
  const session = async (intents = INTENTS) => {
    const { client, ready } = await identifyGateway(server.app.gatewayUrl(), {
      token: fixture.bot.token,
      intents,
    });
    clients.push(client);
    await client.dispatch('GUILD_CREATE');
    return { client, ready };
  };
  const after = (client: GatewayClient, type: string, seen: number) =>
    client.next((f: Frame) => f.t === type && (f.s ?? 0) > seen);
  const lastSeq = (client: GatewayClient) => client.frames.at(-1)?.s ?? 0;

  beforeEach(async (ctx) => {
    if (skip) {
      ctx.skip();
      return;
    }
    clock = manualClock(NOW);
    server = await startTestServer({
      storage: driver,
      listen: true,
      clock,
      gateway: { identifiesPerBucket: 1000 },
    });
    fixture = await guildFixture(server, { botPermissions: 0n, nowMs: () => clock.now() });
    await server.app.storage.applications.update(fixture.bot.applicationId, {
      flags:
        ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED | ApplicationFlags.GATEWAY_PRESENCE_LIMITED,
    });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.raw.terminate();
    await server.close();
  });

  it('op 8: members by id with not_found, all members once per 30 s per guild', async () => {
    const { client } = await session();
    client.send(8, {
      guild_id: fixture.guildId,
      user_ids: [fixture.owner.userId, '123456789012345678'],
      limit: 0,
      nonce: 'a',
    });
    const byId = (await client.dispatch('GUILD_MEMBERS_CHUNK')).d as Record<string, unknown>;
    expect(byId).toMatchObject({
      guild_id: fixture.guildId,
      chunk_index: 0,
      chunk_count: 1,
      not_found: ['123456789012345678'],
      nonce: 'a',
    });
    expect((byId['members'] as { user: { id: string } }[]).map((m) => m.user.id)).toEqual([
      fixture.owner.userId,
    ]);
    let seen = lastSeq(client);
    client.send(8, { guild_id: fixture.guildId, query: '', limit: 0, nonce: 'all' });
    const all = (await after(client, 'GUILD_MEMBERS_CHUNK', seen)).d as { members: unknown[] };
    expect(all.members).toHaveLength(2);
    seen = lastSeq(client);
    clock.advance(10_000);
    client.send(8, { guild_id: fixture.guildId, query: '', limit: 0, nonce: 'again' });
    const limited = await after(client, 'RATE_LIMITED', seen);
    expect(limited.d).toEqual({
      opcode: 8,
      retry_after: 20,
      meta: { guild_id: fixture.guildId, nonce: 'again' },
    });
    // Another guild is not limited; the bot joining it sends its GUILD_CREATE.
    const { guild } = await server.app.services.guilds.create({
      ownerId: fixture.owner.userId,
      name: 'other',
      channels: [],
    });
    seen = lastSeq(client);
    await server.app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: fixture.bot.applicationId,
      permissions: 0n,
    });
    const joined = await after(client, 'GUILD_CREATE', seen);
    expect((joined.d as { id: string }).id).toBe(guild.id);
    seen = lastSeq(client);
    client.send(8, { guild_id: guild.id, query: '', limit: 0 });
    const other = (await after(client, 'GUILD_MEMBERS_CHUNK', seen)).d as { guild_id: string };
    expect(other.guild_id).toBe(guild.id);
    seen = lastSeq(client);
    clock.advance(20_000);
    client.send(8, { guild_id: fixture.guildId, query: '', limit: 0 });
    await after(client, 'GUILD_MEMBERS_CHUNK', seen);
  });

  it('op 8: all members needs GUILD_MEMBERS (4001 otherwise)', async () => {
    const { client } = await session(I.GUILDS);
    client.send(8, { guild_id: fixture.guildId, query: '', limit: 0 });
    expect((await client.closed).code).toBe(4001);
  });

  it('op 4 joins and leaves a voice channel; op 43 tells its start time', async () => {
    const created = await fixture.call('POST', `/guilds/${fixture.guildId}/channels`, {
      auth: fixture.owner.token,
      payload: { name: 'voice', type: 2 },
    });
    expect(created.statusCode).toBe(201);
    const voiceId = created.json<{ id: string }>().id;
    const { client, ready } = await session();
    let seen = lastSeq(client);
    client.send(4, {
      guild_id: fixture.guildId,
      channel_id: voiceId,
      self_mute: true,
      self_deaf: false,
    });
    const state = (await after(client, 'VOICE_STATE_UPDATE', seen)).d;
    expect(state).toMatchObject({
      guild_id: fixture.guildId,
      channel_id: voiceId,
      user_id: fixture.bot.userId,
      session_id: ready.session_id,
      self_mute: true,
    });
    const start = (await after(client, 'VOICE_CHANNEL_START_TIME_UPDATE', seen)).d;
    expect(start).toEqual({
      id: voiceId,
      guild_id: fixture.guildId,
      voice_start_time: Math.floor(NOW / 1000),
    });
    seen = lastSeq(client);
    client.send(43, { guild_id: fixture.guildId, fields: ['status', 'voice_start_time'] });
    const info = (await after(client, 'CHANNEL_INFO', seen)).d;
    expect(info).toEqual({
      guild_id: fixture.guildId,
      channels: [{ id: voiceId, status: null, voice_start_time: Math.floor(NOW / 1000) }],
    });
    // A new session sees the voice state in GUILD_CREATE.
    const second = await session();
    const guild = second.client.frames.find((f) => f.t === 'GUILD_CREATE')?.d as {
      voice_states: { user_id: string; channel_id: string }[];
    };
    expect(guild.voice_states).toEqual([
      expect.objectContaining({ user_id: fixture.bot.userId, channel_id: voiceId }),
    ]);
    seen = lastSeq(client);
    client.send(4, {
      guild_id: fixture.guildId,
      channel_id: null,
      self_mute: false,
      self_deaf: false,
    });
    expect((await after(client, 'VOICE_STATE_UPDATE', seen)).d).toMatchObject({
      channel_id: null,
    });
    expect((await after(client, 'VOICE_CHANNEL_START_TIME_UPDATE', seen)).d).toEqual({
      id: voiceId,
      guild_id: fixture.guildId,
      voice_start_time: null,
    });
  });

  it('op 43 refuses unknown fields with 4001', async () => {
    const { client } = await session();
    client.send(43, { guild_id: fixture.guildId, fields: ['topic'] });
    expect((await client.closed).code).toBe(4001);
  });

  it('op 3 updates presence; custom status hidden under Friends Only', async () => {
    const watcher = await session();
    const sender = await session(I.GUILDS);
    const activities = [
      { type: 4, name: 'Custom Status', state: 'hi' },
      { type: 0, name: 'a game' },
    ];
    let seen = lastSeq(watcher.client);
    sender.client.send(3, { status: 'idle', activities, since: null, afk: false });
    const open = (await after(watcher.client, 'PRESENCE_UPDATE', seen)).d;
    const early = await session();
    const first = early.client.frames.find((f) => f.t === 'GUILD_CREATE')?.d as {
      presences: { user: { id: string }; activities: unknown[] }[];
    };
    expect(first.presences.find((p) => p.user.id === fixture.bot.userId)?.activities).toEqual(
      activities,
    );
    expect(open).toMatchObject({
      user: { id: fixture.bot.userId },
      guild_id: fixture.guildId,
      status: 'idle',
      activities,
    });
    await server.app.storage.gateway.setProfilePrivacy(fixture.bot.userId, 'friends');
    seen = lastSeq(watcher.client);
    sender.client.send(3, { status: 'online', activities, since: null, afk: false });
    const hidden = (await after(watcher.client, 'PRESENCE_UPDATE', seen)).d as {
      activities: unknown[];
    };
    expect(hidden.activities).toEqual([{ type: 0, name: 'a game' }]);
    // The presences of a later GUILD_CREATE follow the same rule.
    const late = await session();
    const created = late.client.frames.find((f) => f.t === 'GUILD_CREATE')?.d as {
      presences: { user: { id: string }; activities: unknown[] }[];
    };
    expect(created.presences.find((p) => p.user.id === fixture.bot.userId)?.activities).toEqual([
      { type: 0, name: 'a game' },
    ]);
    // The sender has no GUILD_PRESENCES intent: it gets no PRESENCE_UPDATE.
    expect(sender.client.frames.some((f) => f.t === 'PRESENCE_UPDATE')).toBe(false);
  });
});

describe('presence privacy', () => {
  const activities = [
    { type: 4, state: 'hi' },
    { type: 0, name: 'game' },
  ];
  it('hides custom status for Friends Only, and for Friends & Small Servers above 200 members', () => {
    expect(visibleActivities(activities, { privacy: 'everyone', memberCount: 5000 })).toEqual(
      activities,
    );
    expect(visibleActivities(activities, { privacy: 'friends', memberCount: 2 })).toEqual([
      { type: 0, name: 'game' },
    ]);
    const small = { privacy: 'friends_and_small_servers' as const };
    expect(visibleActivities(activities, { ...small, memberCount: 200 })).toEqual(activities);
    expect(visibleActivities(activities, { ...small, memberCount: 201 })).toEqual([
      { type: 0, name: 'game' },
    ]);
  });
});
