import { ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { visibleActivities } from '../src/gateway/commands.js';
import { describeDrivers } from './support/drivers.js';
import type { Frame, GatewayClient } from './support/gatewayClient.js';
import { GATEWAY_FIXTURE_NOW as NOW, useGatewayFixture } from './support/gatewayFixture.js';

const INTENTS = I.GUILDS | I.GUILD_MEMBERS | I.GUILD_PRESENCES | I.GUILD_VOICE_STATES;

describeDrivers('gateway commands on $driver', (driver) => {
  const gw = useGatewayFixture({ driver });
  const session = (intents = INTENTS) => gw.session({ token: gw.guild.bot.token, intents });
  const after = (client: GatewayClient, type: string, seen: number) =>
    client.next((f: Frame) => f.t === type && (f.s ?? 0) > seen);

  beforeEach(async () => {
    await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, {
      flags:
        ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED | ApplicationFlags.GATEWAY_PRESENCE_LIMITED,
    });
  });

  it('op 8: members by id with not_found, all members once per 30 s per guild', async () => {
    const { client } = await session();
    client.send(8, {
      guild_id: gw.guild.guildId,
      user_ids: [gw.guild.owner.userId, '123456789012345678'],
      limit: 0,
      nonce: 'a',
    });
    const byId = (await client.dispatch('GUILD_MEMBERS_CHUNK')).d as Record<string, unknown>;
    expect(byId).toMatchObject({
      guild_id: gw.guild.guildId,
      chunk_index: 0,
      chunk_count: 1,
      not_found: ['123456789012345678'],
      nonce: 'a',
    });
    expect((byId['members'] as { user: { id: string } }[]).map((m) => m.user.id)).toEqual([
      gw.guild.owner.userId,
    ]);
    let seen = gw.lastSeq(client);
    client.send(8, { guild_id: gw.guild.guildId, query: '', limit: 0, nonce: 'all' });
    const all = (await after(client, 'GUILD_MEMBERS_CHUNK', seen)).d as { members: unknown[] };
    expect(all.members).toHaveLength(2);
    seen = gw.lastSeq(client);
    gw.clock.advance(10_000);
    client.send(8, { guild_id: gw.guild.guildId, query: '', limit: 0, nonce: 'again' });
    const limited = await after(client, 'RATE_LIMITED', seen);
    expect(limited.d).toEqual({
      opcode: 8,
      retry_after: 20,
      meta: { guild_id: gw.guild.guildId, nonce: 'again' },
    });
    // Another guild is not limited; the bot joining it sends its GUILD_CREATE.
    const { guild } = await gw.server.app.services.guilds.create({
      ownerId: gw.guild.owner.userId,
      name: 'other',
      channels: [],
    });
    seen = gw.lastSeq(client);
    await gw.server.app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: gw.guild.bot.applicationId,
      permissions: 0n,
    });
    const joined = await after(client, 'GUILD_CREATE', seen);
    expect((joined.d as { id: string }).id).toBe(guild.id);
    seen = gw.lastSeq(client);
    client.send(8, { guild_id: guild.id, query: '', limit: 0 });
    const other = (await after(client, 'GUILD_MEMBERS_CHUNK', seen)).d as { guild_id: string };
    expect(other.guild_id).toBe(guild.id);
    seen = gw.lastSeq(client);
    gw.clock.advance(20_000);
    client.send(8, { guild_id: gw.guild.guildId, query: '', limit: 0 });
    await after(client, 'GUILD_MEMBERS_CHUNK', seen);
  });

  it('op 8: all members needs GUILD_MEMBERS (4001 otherwise)', async () => {
    const { client } = await session(I.GUILDS);
    client.send(8, { guild_id: gw.guild.guildId, query: '', limit: 0 });
    expect((await client.closed).code).toBe(4001);
  });

  it('op 4 joins and leaves a voice channel; op 43 tells its start time', async () => {
    const created = await gw.guild.call('POST', `/guilds/${gw.guild.guildId}/channels`, {
      auth: gw.guild.owner.token,
      payload: { name: 'voice', type: 2 },
    });
    expect(created.statusCode).toBe(201);
    const voiceId = created.json<{ id: string }>().id;
    const { client, ready } = await session();
    let seen = gw.lastSeq(client);
    client.send(4, {
      guild_id: gw.guild.guildId,
      channel_id: voiceId,
      self_mute: true,
      self_deaf: false,
    });
    const state = (await after(client, 'VOICE_STATE_UPDATE', seen)).d;
    expect(state).toMatchObject({
      guild_id: gw.guild.guildId,
      channel_id: voiceId,
      user_id: gw.guild.bot.userId,
      session_id: ready.session_id,
      self_mute: true,
    });
    const start = (await after(client, 'VOICE_CHANNEL_START_TIME_UPDATE', seen)).d;
    expect(start).toEqual({
      id: voiceId,
      guild_id: gw.guild.guildId,
      voice_start_time: Math.floor(NOW / 1000),
    });
    seen = gw.lastSeq(client);
    client.send(43, { guild_id: gw.guild.guildId, fields: ['status', 'voice_start_time'] });
    const info = (await after(client, 'CHANNEL_INFO', seen)).d;
    expect(info).toEqual({
      guild_id: gw.guild.guildId,
      channels: [{ id: voiceId, status: null, voice_start_time: Math.floor(NOW / 1000) }],
    });
    // A new session sees the voice state in GUILD_CREATE.
    const second = await session();
    const guild = second.client.frames.find((f) => f.t === 'GUILD_CREATE')?.d as {
      voice_states: { user_id: string; channel_id: string }[];
    };
    expect(guild.voice_states).toEqual([
      expect.objectContaining({ user_id: gw.guild.bot.userId, channel_id: voiceId }),
    ]);
    seen = gw.lastSeq(client);
    client.send(4, {
      guild_id: gw.guild.guildId,
      channel_id: null,
      self_mute: false,
      self_deaf: false,
    });
    expect((await after(client, 'VOICE_STATE_UPDATE', seen)).d).toMatchObject({
      channel_id: null,
    });
    expect((await after(client, 'VOICE_CHANNEL_START_TIME_UPDATE', seen)).d).toEqual({
      id: voiceId,
      guild_id: gw.guild.guildId,
      voice_start_time: null,
    });
  });

  it('op 43 refuses unknown fields with 4001', async () => {
    const { client } = await session();
    client.send(43, { guild_id: gw.guild.guildId, fields: ['topic'] });
    expect((await client.closed).code).toBe(4001);
  });

  it('op 3 updates presence; custom status hidden under Friends Only', async () => {
    const watcher = await session();
    const sender = await session(I.GUILDS);
    const activities = [
      { type: 4, name: 'Custom Status', state: 'hi' },
      { type: 0, name: 'a game' },
    ];
    let seen = gw.lastSeq(watcher.client);
    sender.client.send(3, { status: 'idle', activities, since: null, afk: false });
    const open = (await after(watcher.client, 'PRESENCE_UPDATE', seen)).d;
    const early = await session();
    const first = early.client.frames.find((f) => f.t === 'GUILD_CREATE')?.d as {
      presences: { user: { id: string }; activities: unknown[] }[];
    };
    expect(first.presences.find((p) => p.user.id === gw.guild.bot.userId)?.activities).toEqual(
      activities,
    );
    expect(open).toMatchObject({
      user: { id: gw.guild.bot.userId },
      guild_id: gw.guild.guildId,
      status: 'idle',
      activities,
    });
    await gw.server.app.storage.gateway.setProfilePrivacy(gw.guild.bot.userId, 'friends');
    seen = gw.lastSeq(watcher.client);
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
    expect(created.presences.find((p) => p.user.id === gw.guild.bot.userId)?.activities).toEqual([
      { type: 0, name: 'a game' },
    ]);
    // The sender has no GUILD_PRESENCES intent: it gets no PRESENCE_UPDATE.
    expect(sender.client.frames.some((f) => f.t === 'PRESENCE_UPDATE')).toBe(false);
  });
  it("IDENTIFY's presence is set as op 3 sets it; a bot's last session ending shows it offline", async () => {
    const watcher = (await gw.identify({ token: gw.guild.owner.token, intents: INTENTS })).client;
    let seen = gw.lastSeq(watcher);
    const activities = [{ type: 0, name: 'a game' }];
    const bot = await gw.session({
      token: gw.guild.bot.token,
      intents: I.GUILDS,
      presence: { status: 'dnd', activities, since: null, afk: false },
    });
    expect((await after(watcher, 'PRESENCE_UPDATE', seen)).d).toMatchObject({
      user: { id: gw.guild.bot.userId },
      guild_id: gw.guild.guildId,
      status: 'dnd',
      activities,
    });
    // A later GUILD_CREATE shows it too.
    const later = await gw.session({ token: gw.guild.owner.token, intents: INTENTS });
    const presences = later.guild['presences'] as { user: { id: string }; status: string }[];
    expect(presences.find((p) => p.user.id === gw.guild.bot.userId)?.status).toBe('dnd');
    // On SQLite (one process) the bot's only session closing is the bot going offline. On
    // PostgreSQL sessions are shared by the nodes: another may hold a shard, and the entry expires.
    if (driver !== 'sqlite') return;
    await later.client.close(1000);
    seen = gw.lastSeq(watcher);
    await bot.client.close(1000);
    expect((await after(watcher, 'PRESENCE_UPDATE', seen)).d).toMatchObject({
      user: { id: gw.guild.bot.userId },
      status: 'offline',
      activities: [],
    });
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
