/**
 * Interactions end to end with the libraries apps use: commands registered with @discordjs/core,
 * a discord.js bot whose `interactionCreate` handler replies, defers and edits, follows up,
 * fetches its reply, shows a modal and reads the submitted values, and updates a message on a
 * button click; and a discord-interactions endpoint answering signed deliveries. People invoke
 * through POST /interactions with their session tokens, as the platform's own client does.
 *
 * The fixture's clock does not move, so no interaction fails for time while a step runs.
 *
 * @module
 */
import { API } from '@discordjs/core';
import { REST } from '@discordjs/rest';
import {
  ActionRowBuilder,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
  type Message,
} from 'discord.js';
import { InteractionResponseType } from 'discord-interactions';
import { expect, it, onTestFinished, vi } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import type { Person } from './support/guildMembers.js';
import { startInteractionEndpoint } from './support/interactionEndpoint.js';
import { useInteractionFixture } from './support/interactionFixture.js';
import { recordDispatches, type RecordedDispatch } from './support/dispatchRecorder.js';
import { once } from './support/realClients.js';

/** Long enough for a slow CI machine; reaching it means the step never happened. */
const STEP_MS = 15_000;

interface WireMessage {
  id: string;
  content: string;
  flags: number;
  type: number;
  components?: unknown[];
  interaction_metadata?: { id: string; original_response_message_id?: string };
}

describeDrivers('real clients answer interactions ($driver)', (driver) => {
  const f = useInteractionFixture(driver);

  /** The first recorded dispatch of `type` that `accept` takes, waiting for it. */
  async function dispatched(
    events: RecordedDispatch[],
    type: string,
    accept: (data: Record<string, unknown>) => boolean = () => true,
  ): Promise<RecordedDispatch> {
    return vi.waitFor(
      () => {
        const found = events.find(
          (event) => event.type === type && accept(event.data as Record<string, unknown>),
        );
        if (found === undefined) throw new Error(`no matching ${type} yet`);
        return found;
      },
      { timeout: STEP_MS, interval: 20 },
    );
  }

  /** POST /interactions as `person`: a command, a click or a modal submit. */
  async function invoke(person: Person, body: Record<string, unknown>): Promise<void> {
    const channelId = await f.channelId();
    const res = await f.call('POST', '/interactions', person.token, {
      application_id: f.guild.bot.applicationId,
      guild_id: f.guild.guildId,
      channel_id: channelId,
      session_id: 'a-session',
      nonce: String(Math.floor(Math.random() * 1e9)),
      ...body,
    });
    expect(res.statusCode, res.body).toBe(204);
  }

  it('discord.js replies, defers, follows up, shows a modal and updates on a click', async () => {
    const { server, guild } = f;
    const botToken = guild.bot.token.replace(/^Bot /, '');
    const apiUrl = `${server.baseUrl}/api`;
    const core = new API(new REST({ version: '10', api: apiUrl }).setToken(botToken));
    const commands = new Map<string, string>();
    for (const name of ['ping', 'slow', 'form', 'buttons']) {
      const created = await core.applicationCommands.createGuildCommand(
        guild.bot.applicationId,
        guild.guildId,
        { name, description: `The ${name} command` },
      );
      commands.set(name, created.id);
    }
    const command = (name: string) => ({
      type: 2,
      data: { id: commands.get(name), name, type: 1, options: [] },
    });

    const failures: unknown[] = [];
    let fetched: Message | null = null;
    const handle = async (interaction: Interaction) => {
      if (interaction.isChatInputCommand()) {
        switch (interaction.commandName) {
          case 'ping':
            await interaction.reply('pong');
            return;
          case 'slow':
            await interaction.deferReply();
            await interaction.editReply('done thinking');
            await interaction.followUp({
              content: 'one more thing',
              flags: MessageFlags.Ephemeral,
            });
            fetched = await interaction.fetchReply();
            return;
          case 'form':
            await interaction.showModal(
              new ModalBuilder()
                .setCustomId('about-you')
                .setTitle('About you')
                .addLabelComponents(
                  new LabelBuilder()
                    .setLabel('Your name')
                    .setTextInputComponent(
                      new TextInputBuilder().setCustomId('name').setStyle(TextInputStyle.Short),
                    ),
                ),
            );
            return;
          case 'buttons':
            await interaction.reply({
              content: 'press it',
              components: [
                new ActionRowBuilder<ButtonBuilder>().addComponents(
                  new ButtonBuilder()
                    .setCustomId('press')
                    .setLabel('Press')
                    .setStyle(ButtonStyle.Primary),
                ),
              ],
            });
            return;
        }
      } else if (interaction.isModalSubmit()) {
        await interaction.reply(`hello ${interaction.fields.getTextInputValue('name')}`);
      } else if (interaction.isButton()) {
        await interaction.update({
          content: `pressed by ${interaction.user.username}`,
          components: [],
        });
      }
    };

    const client = new Client({
      intents: [GatewayIntentBits.Guilds],
      rest: { api: apiUrl },
      waitGuildTimeout: 10 * 60_000,
    });
    client.on(Events.InteractionCreate, (interaction) => {
      handle(interaction).catch((err: unknown) => failures.push(err));
    });
    try {
      const ready = once(client, Events.ClientReady);
      await client.login(botToken);
      await ready;
      const ann = await guild.join('ann');
      const { events, stop } = await recordDispatches(server.app);
      onTestFinished(stop);

      // reply
      await invoke(ann, command('ping'));
      const pong = await dispatched(events, 'MESSAGE_CREATE', (d) => d['content'] === 'pong');
      expect(pong.data).toMatchObject({ type: 20, author: { id: guild.bot.userId } });
      await dispatched(events, 'INTERACTION_SUCCESS');

      // deferReply, editReply, followUp (ephemeral), fetchReply
      await invoke(ann, command('slow'));
      const filled = await dispatched(
        events,
        'MESSAGE_UPDATE',
        (d) => d['content'] === 'done thinking',
      );
      const loading = await dispatched(
        events,
        'MESSAGE_CREATE',
        (d) => d['id'] === (filled.data as WireMessage).id,
      );
      expect((loading.data as WireMessage).flags).toBe(MessageFlags.Loading);
      expect((filled.data as WireMessage).flags).toBe(0);
      const extra = await dispatched(
        events,
        'MESSAGE_CREATE',
        (d) => d['content'] === 'one more thing',
      );
      expect(extra).toMatchObject({ guildId: null, userIds: [ann.userId] });
      expect((extra.data as WireMessage).interaction_metadata).toMatchObject({
        original_response_message_id: (filled.data as WireMessage).id,
      });
      await vi.waitFor(
        () => {
          expect(fetched?.content).toBe('done thinking');
        },
        { timeout: STEP_MS },
      );

      // showModal, then the person submits it and the app reads the values
      await invoke(ann, command('form'));
      const modal = await dispatched(events, 'INTERACTION_MODAL_CREATE');
      expect(modal).toMatchObject({ userIds: [ann.userId], data: { custom_id: 'about-you' } });
      await invoke(ann, {
        type: 5,
        data: {
          id: (modal.data as { id: string }).id,
          custom_id: 'about-you',
          components: [{ type: 18, component: { type: 4, custom_id: 'name', value: 'Ann' } }],
        },
      });
      const hello = await dispatched(events, 'MESSAGE_CREATE', (d) => d['content'] === 'hello Ann');
      expect((hello.data as WireMessage).interaction_metadata).toMatchObject({
        type: 5,
        // The slash command whose reply was the modal.
        triggering_interaction_metadata: { type: 2, user: { id: ann.userId } },
      });

      // a button on the app's message, updated by interaction.update
      await invoke(ann, command('buttons'));
      const buttons = await dispatched(
        events,
        'MESSAGE_CREATE',
        (d) => d['content'] === 'press it',
      );
      await invoke(ann, {
        type: 3,
        message_id: (buttons.data as WireMessage).id,
        data: { component_type: 2, custom_id: 'press' },
      });
      const pressed = await dispatched(
        events,
        'MESSAGE_UPDATE',
        (d) => d['content'] === `pressed by ${ann.username}`,
      );
      expect(pressed.data).toMatchObject({ id: (buttons.data as WireMessage).id, components: [] });
      expect(failures).toEqual([]);
    } finally {
      await client.destroy();
    }
  });

  it('discord.js answers autocomplete, and reads with_response and a user command target', async () => {
    const { server, guild } = f;
    const botToken = guild.bot.token.replace(/^Bot /, '');
    const apiUrl = `${server.baseUrl}/api`;
    const core = new API(new REST({ version: '10', api: apiUrl }).setToken(botToken));
    const pick = await core.applicationCommands.createGuildCommand(
      guild.bot.applicationId,
      guild.guildId,
      {
        name: 'pick',
        description: 'Pick a fruit',
        options: [
          {
            type: ApplicationCommandOptionType.String,
            name: 'fruit',
            description: 'Which',
            required: true,
            autocomplete: true,
          },
        ],
      },
    );
    const profile = await core.applicationCommands.createGuildCommand(
      guild.bot.applicationId,
      guild.guildId,
      { name: 'Profile', type: ApplicationCommandType.User },
    );
    const failures: unknown[] = [];
    const answered: { responseMessageId: string | null; ephemeral: boolean | null }[] = [];
    const handle = async (interaction: Interaction) => {
      if (interaction.isAutocomplete()) {
        const typed = interaction.options.getFocused();
        await interaction.respond(
          ['apple', 'apricot', 'banana']
            .filter((fruit) => fruit.startsWith(typed))
            .map((fruit) => ({ name: fruit, value: fruit })),
        );
      } else if (interaction.isUserContextMenuCommand()) {
        const response = await interaction.reply({
          content: `that is ${interaction.targetUser.username}`,
          flags: MessageFlags.Ephemeral,
          withResponse: true,
        });
        answered.push({
          responseMessageId: response.interaction.responseMessageId,
          ephemeral: response.interaction.responseMessageEphemeral,
        });
      }
    };
    const client = new Client({
      intents: [GatewayIntentBits.Guilds],
      rest: { api: apiUrl },
      waitGuildTimeout: 10 * 60_000,
    });
    client.on(Events.InteractionCreate, (interaction) => {
      handle(interaction).catch((err: unknown) => failures.push(err));
    });
    try {
      const ready = once(client, Events.ClientReady);
      await client.login(botToken);
      await ready;
      const ann = await guild.join('ann');
      const { events, stop } = await recordDispatches(server.app);
      onTestFinished(stop);

      await invoke(ann, {
        type: 4,
        data: {
          id: pick.id,
          name: 'pick',
          type: 1,
          options: [{ name: 'fruit', type: 3, value: 'ap', focused: true }],
        },
      });
      const choices = await dispatched(events, 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE');
      expect(choices).toMatchObject({
        userIds: [ann.userId],
        data: {
          choices: [
            { name: 'apple', value: 'apple' },
            { name: 'apricot', value: 'apricot' },
          ],
        },
      });

      await invoke(ann, {
        type: 2,
        data: { id: profile.id, name: 'Profile', type: 2, target_id: guild.owner.userId },
      });
      const reply = await dispatched(events, 'MESSAGE_CREATE', (d) =>
        String(d['content']).startsWith('that is'),
      );
      expect(reply).toMatchObject({ userIds: [ann.userId] });
      expect(reply.data).toMatchObject({
        type: 23,
        flags: MessageFlags.Ephemeral,
        interaction_metadata: { target_user: { id: guild.owner.userId } },
      });
      await vi.waitFor(
        () => {
          expect(answered).toEqual([
            { responseMessageId: (reply.data as WireMessage).id, ephemeral: true },
          ]);
        },
        { timeout: STEP_MS },
      );
      expect(failures).toEqual([]);
    } finally {
      await client.destroy();
    }
  });

  it('a discord-interactions endpoint answers PING with PONG and a command with its message', async () => {
    const { guild } = f;
    const app = await f.call('GET', '/applications/@me', guild.bot.token);
    const endpoint = await startInteractionEndpoint(
      app.json<{ verify_key: string }>().verify_key,
      (interaction) => ({
        json: {
          type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
          data: { content: `hello from ${(interaction['data'] as { name: string }).name}` },
        },
      }),
    );
    try {
      // Setting the URL sends the signed PING the middleware answers with PONG.
      const set = await f.call('PATCH', '/applications/@me', guild.bot.token, {
        interactions_endpoint_url: endpoint.url,
      });
      expect(set.statusCode, set.body).toBe(200);
      const ping = await f.command({ name: 'hi', description: 'Say hi' });
      const ann = await guild.join('ann');
      const { events, stop } = await recordDispatches(f.server.app);
      onTestFinished(stop);
      await invoke(ann, { type: 2, data: { id: ping['id'], name: 'hi', type: 1, options: [] } });
      const message = await dispatched(
        events,
        'MESSAGE_CREATE',
        (d) => d['content'] === 'hello from hi',
      );
      expect(message.data).toMatchObject({ type: 20, author: { id: guild.bot.userId } });
      expect(endpoint.received).toHaveLength(1);
      await dispatched(events, 'INTERACTION_SUCCESS');
    } finally {
      await endpoint.close();
    }
  });
});
