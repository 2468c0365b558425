/**
 * The message steps of the real-client tests: each library sends a message, receives its
 * MESSAGE_CREATE, edits it and receives MESSAGE_UPDATE.
 *
 * The bot reads its own messages' content without the MESSAGE_CONTENT intent (the platform's
 * rule), so only GUILDS and GUILD_MESSAGES are asked for.
 *
 * @module
 */
import { Client as CoreClient, GatewayDispatchEvents, GatewayIntentBits } from '@discordjs/core';
import { REST } from '@discordjs/rest';
import { CompressionMethod, WebSocketManager } from '@discordjs/ws';
import {
  Client as DiscordJsClient,
  Events as DiscordJsEvents,
  type Message as DiscordJsMessage,
  type PartialMessage as DiscordJsPartialMessage,
  type SendableChannels,
} from 'discord.js';
import { Client as OceanicClient } from 'oceanic.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { useFileServer } from './support/fileServer.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { once } from './support/realClients.js';
import { type TestServer } from './support/testServer.js';

let server: TestServer;
let fx: GuildFixture;
let channelId: string;

const api = () => `${server.baseUrl}/api`;
const botToken = () => fx.bot.token.replace(/^Bot /, '');

const shared = useFileServer({ listen: true, gateway: { identifiesPerBucket: 1000 } });
beforeEach(async () => {
  server = shared.server;
  fx = await guildFixture(server, { botPermissions: 0n });
  const [channel] = await server.app.storage.channels.listByGuild(fx.guildId);
  channelId = channel?.id ?? '';
});

/** Runs `use` with a discord.js client logged in as the bot and the fixture's text channel. */
async function withDiscordJs(
  use: (client: DiscordJsClient, channel: SendableChannels) => Promise<void>,
): Promise<void> {
  const client = new DiscordJsClient({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
    rest: { api: api() },
    waitGuildTimeout: 10 * 60_000,
  });
  try {
    const ready = once(client, DiscordJsEvents.ClientReady);
    await client.login(botToken());
    await ready;
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new TypeError('not a text channel');
    await use(client, channel);
  } finally {
    await client.destroy();
  }
}

describe('discord.js 14', () => {
  it('sends a message, receives MESSAGE_CREATE, edits it and receives MESSAGE_UPDATE', async () => {
    await withDiscordJs(async (client, channel) => {
      const created = once<[DiscordJsMessage]>(
        client,
        DiscordJsEvents.MessageCreate,
        (message) => message.content === 'hello from discord.js',
      );
      const sent = await channel.send('hello from discord.js');
      const [received] = await created;
      expect(received.id).toBe(sent.id);
      expect(received.author.id).toBe(fx.bot.userId);

      const updated = once<[DiscordJsMessage | DiscordJsPartialMessage, DiscordJsMessage]>(
        client,
        DiscordJsEvents.MessageUpdate,
        (_old, message) => message.id === sent.id,
      );
      await sent.edit('edited by discord.js');
      const [, after] = await updated;
      expect(after.content).toBe('edited by discord.js');
      expect(after.editedTimestamp).not.toBeNull();
    });
  });

  it('uploads a file whose signed URL, from REST and from the gateway, fetches it', async () => {
    await withDiscordJs(async (client, channel) => {
      const created = once<[DiscordJsMessage]>(
        client,
        DiscordJsEvents.MessageCreate,
        (message) => message.content === 'a file',
      );
      const sent = await channel.send({
        content: 'a file',
        files: [{ attachment: Buffer.from('file body'), name: 'note.txt' }],
      });
      const [received] = await created;
      for (const url of [sent.attachments.first()?.url, received.attachments.first()?.url]) {
        expect(url).toMatch(/\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]{64}&$/);
        const res = await fetch(url ?? '');
        expect(res.status).toBe(200);
        expect(await res.text()).toBe('file body');
      }
      const unsigned = new URL(sent.attachments.first()?.url ?? '');
      expect((await fetch(`${unsigned.origin}${unsigned.pathname}`)).status).toBe(404);
    });
  });
});

describe.each([
  { name: 'plain', compression: null, useIdentifyCompression: false },
  { name: 'zlib-stream', compression: CompressionMethod.ZlibNative, useIdentifyCompression: false },
  { name: 'identify compression', compression: null, useIdentifyCompression: true },
])('@discordjs/core with @discordjs/ws 2 ($name)', ({ compression, useIdentifyCompression }) => {
  it('sends a message, receives MESSAGE_CREATE, edits it and receives MESSAGE_UPDATE', async () => {
    const rest = new REST({ version: '10', api: api() }).setToken(botToken());
    const gateway = new WebSocketManager({
      token: botToken(),
      intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages,
      rest,
      compression,
      useIdentifyCompression,
    });
    const client = new CoreClient({ rest, gateway });
    try {
      const guildCreate = once(client, GatewayDispatchEvents.GuildCreate);
      await gateway.connect();
      await guildCreate;
      type Event = [{ data: { id: string; content?: string; author?: { id: string } } }];
      const created = once<Event>(
        client,
        GatewayDispatchEvents.MessageCreate,
        ({ data }) => data.content === 'hello from core',
      );
      const sent = await client.api.channels.createMessage(channelId, {
        content: 'hello from core',
      });
      const [{ data: received }] = await created;
      expect(received.id).toBe(sent.id);
      expect(received.author?.id).toBe(fx.bot.userId);

      const updated = once<Event>(
        client,
        GatewayDispatchEvents.MessageUpdate,
        ({ data }) => data.id === sent.id,
      );
      await client.api.channels.editMessage(channelId, sent.id, { content: 'edited by core' });
      const [{ data: after }] = await updated;
      expect(after.content).toBe('edited by core');
    } finally {
      await gateway.destroy();
    }
  });
});

describe.each<{ name: string; compress: 'zlib-stream' | false }>([
  { name: 'plain', compress: false },
  { name: 'zlib-stream', compress: 'zlib-stream' },
])('oceanic.js ($name)', ({ compress }) => {
  it('sends a message, receives MESSAGE_CREATE, edits it and receives MESSAGE_UPDATE', async () => {
    const client = new OceanicClient({
      auth: fx.bot.token,
      rest: { baseURL: `${api()}/v10` },
      gateway: {
        intents: ['GUILDS', 'GUILD_MESSAGES'],
        compress,
        guildCreateTimeout: 10 * 60_000,
      },
    });
    try {
      const ready = once(client, 'ready');
      await client.connect();
      await ready;
      type Packet = [{ t?: string; d?: { id?: string; content?: string } }];
      const created = once<Packet>(
        client,
        'packet',
        (packet) => packet.t === 'MESSAGE_CREATE' && packet.d?.content === 'hello from oceanic',
      );
      const sent = await client.rest.channels.createMessage(channelId, {
        content: 'hello from oceanic',
      });
      const [{ d: received }] = await created;
      expect(received?.id).toBe(sent.id);

      const updated = once<Packet>(
        client,
        'packet',
        (packet) => packet.t === 'MESSAGE_UPDATE' && packet.d?.id === sent.id,
      );
      await client.rest.channels.editMessage(channelId, sent.id, {
        content: 'edited by oceanic',
      });
      const [{ d: after }] = await updated;
      expect(after?.content).toBe('edited by oceanic');
    } finally {
      client.disconnect(false);
    }
  });
});
