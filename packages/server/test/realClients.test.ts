/**
 * Real client libraries against a listening server, with only their REST base URL changed (the
 * gateway URL comes from GET /gateway/bot as on the platform): discord.js 14, @discordjs/core
 * with @discordjs/ws 2 (plain, zlib-stream, identify compression) and oceanic.js (plain,
 * zlib-stream with node:zlib and with pako). Each logs in, reaches ready with no guild timeout to
 * wait out, fetches the guild and a channel, sees a dispatch caused over HTTP, and after the
 * server drops its connection comes back with RESUME (not a new IDENTIFY) and keeps receiving.
 *
 * The message steps (send, MESSAGE_CREATE, edit, MESSAGE_UPDATE) are in realClientsMessages.
 *
 * @module
 */
import { Client as CoreClient, GatewayDispatchEvents, GatewayIntentBits } from '@discordjs/core';
import { REST } from '@discordjs/rest';
import { CompressionMethod, WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import {
  Client as DiscordJsClient,
  Events as DiscordJsEvents,
  type Channel as DiscordJsChannel,
} from 'discord.js';
import { Client as OceanicClient, type CompressionLibrary } from 'oceanic.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { useFileServer } from './support/fileServer.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { once } from './support/realClients.js';
import { type TestServer } from './support/testServer.js';

let server: TestServer;
let fx: GuildFixture;
let channelId: string;
let topics = 0;

/** Changes the channel's topic over HTTP (as the owner): every session gets CHANNEL_UPDATE. */
async function changeTopic(): Promise<string> {
  const topic = `topic ${String((topics += 1))}`;
  const res = await fx.call('PATCH', `/channels/${channelId}`, {
    auth: fx.owner.token,
    payload: { topic },
  });
  expect(res.statusCode).toBe(200);
  return topic;
}

const api = () => `${server.baseUrl}/api`;
const botToken = () => fx.bot.token.replace(/^Bot /, '');

const shared = useFileServer({
  listen: true,
  gateway: { identifiesPerBucket: 1000 },
});
beforeEach(async () => {
  server = shared.server;
  fx = await guildFixture(server, { botPermissions: 0n });
  const [channel] = await server.app.storage.channels.listByGuild(fx.guildId);
  channelId = channel?.id ?? '';
});

describe('discord.js 14', () => {
  it('logs in, reads the guild and a channel, receives events, and resumes', async () => {
    const client = new DiscordJsClient({
      intents: [GatewayIntentBits.Guilds],
      rest: { api: api() },
      // A missing GUILD_CREATE would hold `ready` until the test times out.
      waitGuildTimeout: 10 * 60_000,
    });
    try {
      const ready = once(client, DiscordJsEvents.ClientReady);
      await client.login(botToken());
      await ready;
      expect(client.user?.id).toBe(fx.bot.userId);
      expect(client.guilds.cache.get(fx.guildId)?.name).toBe('Fixture guild');

      const guild = await client.guilds.fetch({ guild: fx.guildId, force: true });
      expect(guild.ownerId).toBe(fx.owner.userId);
      const channel = await client.channels.fetch(channelId, { force: true });
      expect(channel?.id).toBe(channelId);

      const updated = once<[DiscordJsChannel, DiscordJsChannel]>(
        client,
        DiscordJsEvents.ChannelUpdate,
      );
      const topic = await changeTopic();
      const [, after] = await updated;
      expect('topic' in after ? after.topic : null).toBe(topic);

      const resumed = once(client, DiscordJsEvents.ShardResume);
      server.app.gateway.dropAll(4000);
      await resumed;
      const again = once<[DiscordJsChannel, DiscordJsChannel]>(
        client,
        DiscordJsEvents.ChannelUpdate,
      );
      const next = await changeTopic();
      const [, afterResume] = await again;
      expect('topic' in afterResume ? afterResume.topic : null).toBe(next);
    } finally {
      await client.destroy();
    }
  });
});

describe.each([
  { name: 'plain', compression: null, useIdentifyCompression: false },
  { name: 'zlib-stream', compression: CompressionMethod.ZlibNative, useIdentifyCompression: false },
  { name: 'identify compression', compression: null, useIdentifyCompression: true },
])('@discordjs/core with @discordjs/ws 2 ($name)', ({ compression, useIdentifyCompression }) => {
  it('logs in, reads the guild and a channel, receives events, and resumes', async () => {
    const rest = new REST({ version: '10', api: api() }).setToken(botToken());
    const gateway = new WebSocketManager({
      token: botToken(),
      intents: GatewayIntentBits.Guilds,
      rest,
      compression,
      useIdentifyCompression,
    });
    const client = new CoreClient({ rest, gateway });
    const readies: string[] = [];
    client.on(GatewayDispatchEvents.Ready, ({ data }) => readies.push(data.session_id));
    try {
      const ready = once(client, GatewayDispatchEvents.Ready);
      const guildCreate = once(client, GatewayDispatchEvents.GuildCreate);
      await gateway.connect();
      const [{ data: readyData }] = (await ready) as [{ data: { user: { id: string } } }];
      expect(readyData.user.id).toBe(fx.bot.userId);
      const [{ data: created }] = (await guildCreate) as [{ data: { id: string } }];
      expect(created.id).toBe(fx.guildId);

      const guild = await client.api.guilds.get(fx.guildId);
      expect(guild.owner_id).toBe(fx.owner.userId);
      const channel = await client.api.channels.get(channelId);
      expect(channel.id).toBe(channelId);

      const isTopicUpdate = (topic: string) => (event: { data: { topic?: string | null } }) =>
        event.data.topic === topic;
      let topic = `topic ${String(topics + 1)}`;
      let updated = once(client, GatewayDispatchEvents.ChannelUpdate, isTopicUpdate(topic));
      await changeTopic();
      await updated;

      const resumed = once(gateway, WebSocketShardEvents.Resumed);
      server.app.gateway.dropAll(4000);
      await resumed;
      topic = `topic ${String(topics + 1)}`;
      updated = once(client, GatewayDispatchEvents.ChannelUpdate, isTopicUpdate(topic));
      await changeTopic();
      await updated;
      // Resumed, not identified again.
      expect(readies).toHaveLength(1);
    } finally {
      await gateway.destroy();
    }
  });
});

describe.each<{
  name: string;
  compress: 'zlib-stream' | false;
  library: CompressionLibrary | null;
}>([
  { name: 'plain', compress: false, library: null },
  { name: 'zlib-stream, node:zlib', compress: 'zlib-stream', library: 'native' },
  { name: 'zlib-stream, pako', compress: 'zlib-stream', library: 'pako' },
])('oceanic.js ($name)', ({ compress, library }) => {
  it('logs in, reads the guild and a channel, receives events, and resumes', async () => {
    const client = new OceanicClient({
      auth: fx.bot.token,
      rest: { baseURL: `${api()}/v10` },
      gateway: {
        intents: ['GUILDS'],
        compress,
        ...(library === null ? {} : { compressLibrary: library }),
        // A missing GUILD_CREATE would hold `ready` until the test times out.
        guildCreateTimeout: 10 * 60_000,
        autoReconnect: true,
        // Its default waits 20 s before reconnecting.
        reconnectDelay: () => 10,
      },
    });
    // The drop is reported as an error event; it must not be an unhandled one.
    const dropped: unknown[] = [];
    client.on('error', (err) => dropped.push(err));
    let identifies = 0;
    client.on('packet', (packet) => {
      if (packet.t === 'READY') identifies += 1;
    });
    try {
      const ready = once(client, 'ready');
      await client.connect();
      await ready;
      expect(client.user.id).toBe(fx.bot.userId);
      expect(client.guilds.get(fx.guildId)?.name).toBe('Fixture guild');

      const guild = await client.rest.guilds.get(fx.guildId);
      expect(guild.ownerID).toBe(fx.owner.userId);
      const channel = await client.rest.channels.get(channelId);
      expect(channel.id).toBe(channelId);

      const isTopic = (topic: string) => (packet: { t?: string; d?: unknown }) =>
        packet.t === 'CHANNEL_UPDATE' && (packet.d as { topic?: string }).topic === topic;
      let updated = once(client, 'packet', isTopic(`topic ${String(topics + 1)}`));
      await changeTopic();
      await updated;

      const resumed = once(client, 'shardResume');
      server.app.gateway.dropAll(4000);
      await resumed;
      updated = once(client, 'packet', isTopic(`topic ${String(topics + 1)}`));
      await changeTopic();
      await updated;
      expect(identifies).toBe(1);
      expect(dropped).toHaveLength(1);
    } finally {
      client.disconnect(false);
    }
  });
});
