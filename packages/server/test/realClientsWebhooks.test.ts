/**
 * Webhooks through discord.js: a bot with MANAGE_WEBHOOKS creates and lists a channel's webhooks
 * (`channel.createWebhook`, `fetchWebhooks`), and a `WebhookClient` sends, edits, fetches and
 * deletes a message by the webhook's token, which the bot's session hears of.
 *
 * @module
 */
import { PermissionFlags as P } from '@guildhall/protocol';
import {
  Client,
  Events,
  GatewayIntentBits,
  WebhookClient,
  type Message,
  type TextChannel,
} from 'discord.js';
import { beforeEach, expect, it } from 'vitest';
import { useFileServer } from './support/fileServer.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { once } from './support/realClients.js';
import { type TestServer } from './support/testServer.js';

let server: TestServer;
let fx: GuildFixture;
let channelId: string;

const api = () => `${server.baseUrl}/api`;

const shared = useFileServer({ listen: true, gateway: { identifiesPerBucket: 1000 } });
beforeEach(async () => {
  server = shared.server;
  fx = await guildFixture(server, { botPermissions: P.MANAGE_WEBHOOKS });
  const [channel] = await server.app.storage.channels.listByGuild(fx.guildId);
  channelId = channel?.id ?? '';
});

it('discord.js creates and lists webhooks; a WebhookClient sends, edits and deletes', async () => {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
    rest: { api: api() },
    waitGuildTimeout: 10 * 60_000,
  });
  try {
    const ready = once(client, Events.ClientReady);
    await client.login(fx.bot.token.replace(/^Bot /, ''));
    await ready;
    const channel = (await client.channels.fetch(channelId)) as TextChannel;

    const webhook = await channel.createWebhook({ name: 'Builds', reason: 'ci' });
    expect(webhook.name).toBe('Builds');
    expect(webhook.channelId).toBe(channelId);
    expect(webhook.applicationId).toBe(fx.bot.applicationId);
    expect(webhook.owner?.id).toBe(fx.bot.userId);
    expect(webhook.token).toMatch(/^[A-Za-z0-9_-]{68}$/);
    const listed = await channel.fetchWebhooks();
    expect([...listed.keys()]).toEqual([webhook.id]);

    const hook = new WebhookClient(
      { id: webhook.id, token: webhook.token },
      { rest: { api: api() } },
    );
    try {
      const heard = once<[Message]>(
        client,
        Events.MessageCreate,
        (m) => m.webhookId === webhook.id,
      );
      const sent = await hook.send({
        content: 'deployed v2',
        username: 'Deployer',
        embeds: [{ title: 'Release', description: 'notes' }],
      });
      expect(sent).toMatchObject({
        content: 'deployed v2',
        webhook_id: webhook.id,
        author: { id: webhook.id, username: 'Deployer' },
      });
      const [message] = await heard;
      expect(message.id).toBe(sent.id);
      expect(message.author.username).toBe('Deployer');

      const edited = await hook.editMessage(sent.id, { content: 'deployed v2.1' });
      expect(edited.content).toBe('deployed v2.1');
      const fetched = await hook.fetchMessage(sent.id);
      expect(fetched.content).toBe('deployed v2.1');

      const deleted = once<[Message]>(client, Events.MessageDelete, (m) => m.id === sent.id);
      await hook.deleteMessage(sent.id);
      await deleted;
      await expect(hook.fetchMessage(sent.id)).rejects.toMatchObject({ code: 10008 });
    } finally {
      hook.destroy();
    }

    await webhook.delete('done');
    expect((await channel.fetchWebhooks()).size).toBe(0);
  } finally {
    await client.destroy();
  }
});
