/**
 * Components through a real client: discord.js builds action rows, buttons and selects, and a
 * components v2 layout (Container, Text Display, Section with a Thumbnail, Separator, File),
 * sends them as a bot, and reads them back from REST and the gateway.
 *
 * @module
 */
import {
  ActionRowBuilder,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  ComponentType,
  ContainerBuilder,
  Events,
  FileBuilder,
  GatewayIntentBits,
  MessageFlags,
  SectionBuilder,
  SeparatorBuilder,
  StringSelectMenuBuilder,
  TextDisplayBuilder,
  ThumbnailBuilder,
  type ContainerComponent,
  type FileComponent,
  type Message,
  type SendableChannels,
} from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { useFileServer } from './support/fileServer.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { once } from './support/realClients.js';
import { type TestServer } from './support/testServer.js';

let server: TestServer;
let fx: GuildFixture;
let channelId: string;

const shared = useFileServer({ listen: true, gateway: { identifiesPerBucket: 1000 } });
beforeEach(async () => {
  server = shared.server;
  fx = await guildFixture(server, { botPermissions: 0n });
  const [channel] = await server.app.storage.channels.listByGuild(fx.guildId);
  channelId = channel?.id ?? '';
});

/** Runs `use` with a discord.js client logged in as the bot and the fixture's text channel. */
async function withBot(
  use: (client: Client, channel: SendableChannels) => Promise<void>,
): Promise<void> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
    rest: { api: `${server.baseUrl}/api` },
    waitGuildTimeout: 10 * 60_000,
  });
  try {
    const ready = once(client, Events.ClientReady);
    await client.login(fx.bot.token.replace(/^Bot /, ''));
    await ready;
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new TypeError('not a text channel');
    await use(client, channel);
  } finally {
    await client.destroy();
  }
}

describe('discord.js 14 components', () => {
  it('sends buttons and a select, reads them from REST and the gateway, and edits them', async () => {
    await withBot(async (client, channel) => {
      const created = once<[Message]>(client, Events.MessageCreate, (m) => m.content === 'Vote');
      const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
        new ButtonBuilder().setCustomId('yes').setLabel('Yes').setStyle(ButtonStyle.Success),
        new ButtonBuilder()
          .setURL('https://example.com')
          .setLabel('Docs')
          .setStyle(ButtonStyle.Link),
      );
      const select = new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
        new StringSelectMenuBuilder()
          .setCustomId('colour')
          .setPlaceholder('Colour')
          .setMaxValues(2)
          .addOptions(
            { label: 'Red', value: 'red' },
            { label: 'Blue', value: 'blue', default: true },
          ),
      );
      const sent = await channel.send({ content: 'Vote', components: [buttons, select] });
      const [received] = await created;
      for (const message of [sent, received]) {
        const [first, second] = message.components;
        expect(first?.type).toBe(ComponentType.ActionRow);
        expect(first?.toJSON()).toMatchObject({
          type: 1,
          id: 1,
          components: [
            { type: 2, id: 2, custom_id: 'yes', style: ButtonStyle.Success, label: 'Yes' },
            { type: 2, id: 3, url: 'https://example.com', style: ButtonStyle.Link },
          ],
        });
        expect(second?.toJSON()).toMatchObject({
          components: [
            {
              type: 3,
              custom_id: 'colour',
              placeholder: 'Colour',
              min_values: 1,
              max_values: 2,
              options: [{ value: 'red' }, { value: 'blue', default: true }],
            },
          ],
        });
      }

      const updated = once<[unknown, Message]>(
        client,
        Events.MessageUpdate,
        (_old, m) => m.id === sent.id,
      );
      const edited = await sent.edit({ components: [buttons] });
      expect(edited.components).toHaveLength(1);
      const [, after] = await updated;
      expect(after.components.map((row) => row.toJSON())).toEqual(
        edited.components.map((row) => row.toJSON()),
      );
    });
  });

  it('sends a components v2 layout with a file and reads it back', async () => {
    await withBot(async (client, channel) => {
      const created = once<[Message]>(client, Events.MessageCreate, (m) =>
        m.flags.has(MessageFlags.IsComponentsV2),
      );
      const container = new ContainerBuilder()
        .setAccentColor(0x5865f2)
        .addTextDisplayComponents(new TextDisplayBuilder().setContent('# Release'))
        .addSectionComponents(
          new SectionBuilder()
            .addTextDisplayComponents(new TextDisplayBuilder().setContent('Version 2 is out'))
            .setThumbnailAccessory(new ThumbnailBuilder().setURL('https://example.com/icon.png')),
        )
        .addSeparatorComponents(new SeparatorBuilder().setDivider(true))
        .addFileComponents(new FileBuilder().setURL('attachment://notes.txt'));
      const sent = await channel.send({
        flags: MessageFlags.IsComponentsV2,
        components: [container],
        files: [new AttachmentBuilder(Buffer.from('the notes'), { name: 'notes.txt' })],
      });
      const [received] = await created;
      expect(received.id).toBe(sent.id);
      for (const message of [sent, received]) {
        expect(message.content).toBe('');
        const [top] = message.components;
        expect(top?.type).toBe(ComponentType.Container);
        const layout = top as ContainerComponent;
        expect(layout.accentColor).toBe(0x5865f2);
        expect(layout.components.map((c) => c.type)).toEqual([
          ComponentType.TextDisplay,
          ComponentType.Section,
          ComponentType.Separator,
          ComponentType.File,
        ]);
        const file = layout.components[3] as FileComponent;
        expect(file.data).toMatchObject({ name: 'notes.txt', size: 9 });
        const res = await fetch(file.file.url);
        expect(await res.text()).toBe('the notes');
      }
    });
  });
});
