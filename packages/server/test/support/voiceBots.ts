/**
 * Two discord.js bots with @discordjs/voice 0.19 (DAVE through @snazzah/davey), unchanged, in a
 * process of their own: @discordjs/voice always dials `wss://`, and Node trusts the voice node's
 * development certificate only through NODE_EXTRA_CA_CERTS, read at process start. Both join one
 * voice channel; the speaker plays a tone (Opus frames encoded here with opusscript); the listener
 * decodes what it receives and measures its frequency by zero crossings. With `--no-dave` one bot
 * joins without DAVE and reports how the voice node closed it.
 *
 * Arguments: apiBase speakerToken listenerToken guildId channelId frequencyHz [--no-dave]
 * Output: one JSON line on stdout.
 *
 * @module
 */
import {
  VoiceConnectionStatus,
  entersState,
  joinVoiceChannel,
  type VoiceConnection,
} from '@discordjs/voice';
import { Client, Events, GatewayIntentBits, type Guild } from 'discord.js';
import { playAndHear } from './tone.js';

const [apiBase, speakerToken, listenerToken, guildId, channelId, frequencyArg, flag] =
  process.argv.slice(2);
if (
  apiBase === undefined ||
  speakerToken === undefined ||
  listenerToken === undefined ||
  guildId === undefined ||
  channelId === undefined ||
  frequencyArg === undefined
) {
  throw new Error('usage: voiceBots apiBase speakerToken listenerToken guildId channelId hz');
}
const frequency = Number(frequencyArg);

async function login(token: string): Promise<{ client: Client; guild: Guild }> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildVoiceStates],
    rest: { api: `${apiBase}/api` },
  });
  const ready = new Promise<void>((resolve) =>
    client.once(Events.ClientReady, () => {
      resolve();
    }),
  );
  await client.login(token);
  await ready;
  return { client, guild: await client.guilds.fetch(guildId ?? '') };
}

function join(guild: Guild, group: string, dave = true): VoiceConnection {
  return joinVoiceChannel({
    channelId: channelId ?? '',
    guildId: guild.id,
    adapterCreator: guild.voiceAdapterCreator,
    group,
    selfDeaf: false,
    selfMute: false,
    daveEncryption: dave,
  });
}

async function noDave(): Promise<void> {
  const { client, guild } = await login(speakerToken ?? '');
  const connection = join(guild, 'plain', false);
  // The voice node's close code reaches the networking layer; the connection itself then tries
  // to join again, as it does for any code but 4014, 4021 and 4022.
  const closeCode = await new Promise<number>((resolve) => {
    connection.on('stateChange', (_old, state) => {
      if (state.status === VoiceConnectionStatus.Connecting) {
        state.networking.once('close', resolve);
      }
    });
  });
  connection.destroy();
  await client.destroy();
  process.stdout.write(`${JSON.stringify({ closeCode })}\n`);
}

async function tone(): Promise<void> {
  const speaker = await login(speakerToken ?? '');
  const listener = await login(listenerToken ?? '');
  const heard = join(listener.guild, 'listener');
  await entersState(heard, VoiceConnectionStatus.Ready, 20_000);
  const said = join(speaker.guild, 'speaker');
  // DAVE: both are in one MLS group once the speaker's session has moved to the new epoch.
  const transitioned = new Promise<void>((resolve) => {
    said.once('transitioned', () => {
      resolve();
    });
  });
  await entersState(said, VoiceConnectionStatus.Ready, 20_000);
  await transitioned;
  const speakerId = speaker.client.user?.id ?? '';
  const { frames, undecodable, hz, seconds } = await playAndHear(said, heard, {
    userId: speakerId,
    frequency,
  });
  said.destroy();
  heard.destroy();
  await speaker.client.destroy();
  await listener.client.destroy();
  process.stdout.write(`${JSON.stringify({ frames, undecodable, hz, seconds })}\n`);
}

const timeout = setTimeout(() => {
  process.stderr.write('voiceBots: timed out\n');
  process.exit(2);
}, 60_000);
(flag === '--no-dave' ? noDave() : tone()).then(
  () => {
    clearTimeout(timeout);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(
      `voiceBots: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
