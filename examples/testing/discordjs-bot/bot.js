// A discord.js bot, as a developer writes it: nothing here knows about Guildhall except the two
// URLs it is given (in production, leave them out and discord.js talks to the platform).
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';

/**
 * Logs the bot in; resolves once it is ready.
 * @param {{ token: string, apiUrl?: string, cdnUrl?: string }} options
 */
export async function startBot({ token, apiUrl, cdnUrl }) {
  const client = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.MessageContent,
    ],
    rest: { ...(apiUrl ? { api: apiUrl } : {}), ...(cdnUrl ? { cdn: cdnUrl } : {}) },
  });
  /** Deferred /later interactions, finished by a "!finish" message. */
  const waiting = [];

  client.on(Events.InteractionCreate, async (interaction) => {
    if (interaction.isChatInputCommand()) {
      switch (interaction.commandName) {
        case 'ping':
          await interaction.reply('pong');
          return;
        case 'menu':
          await interaction.reply({
            content: 'Tell us what you think',
            components: [
              new ActionRowBuilder().addComponents(
                new ButtonBuilder()
                  .setCustomId('feedback')
                  .setLabel('Feedback')
                  .setStyle(ButtonStyle.Primary),
              ),
            ],
          });
          return;
        case 'slow':
          await interaction.deferReply();
          await interaction.editReply('done thinking');
          return;
        case 'later':
          await interaction.deferReply();
          waiting.push(interaction);
          return;
        case 'announce': {
          const count = interaction.options.getInteger('count', true);
          await interaction.reply(`announcing ${count}`);
          // Each send may meet a 429: discord.js waits `retry_after` and sends again.
          for (let i = 1; i <= count; i += 1)
            await interaction.channel.send(`announcement ${i} of ${count}`);
          return;
        }
      }
    } else if (interaction.isButton() && interaction.customId === 'feedback') {
      await interaction.showModal(
        new ModalBuilder()
          .setCustomId('feedback-form')
          .setTitle('Feedback')
          .addComponents(
            new ActionRowBuilder().addComponents(
              new TextInputBuilder()
                .setCustomId('opinion')
                .setLabel('Your opinion')
                .setStyle(TextInputStyle.Short),
            ),
          ),
      );
    } else if (interaction.isModalSubmit() && interaction.customId === 'feedback-form') {
      await interaction.reply(`thanks: ${interaction.fields.getTextInputValue('opinion')}`);
    }
  });

  client.on(Events.MessageCreate, async (message) => {
    if (message.author.bot) return;
    if (message.content.startsWith('!echo ')) {
      await message.reply(message.content.slice('!echo '.length));
    } else if (message.content === '!finish') {
      for (const interaction of waiting.splice(0)) {
        try {
          await interaction.editReply('finished');
        } catch (err) {
          // An interaction token lives 15 minutes: after that the platform refuses the edit.
          await message.channel.send(`too late: ${err.code ?? err.message}`);
        }
      }
    }
  });

  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(token);
  await ready;
  return client;
}
