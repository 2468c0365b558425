/**
 * discord.js (over @discordjs/rest and @discordjs/ws), unchanged, against a Guildhall serving
 * HTTPS and WSS, in a process of its own: Node trusts a development certificate only through
 * NODE_EXTRA_CA_CERTS, read at process start. The bot reads GET /gateway/bot, logs in over the
 * gateway that names, is ready with its guild, and posts a message over REST, then reports.
 *
 * Arguments: baseUrl botToken channelId
 * Output: one JSON line on stdout.
 *
 * @module
 */
import { Client, Events, GatewayIntentBits, Routes, type TextChannel } from 'discord.js';

const [baseUrl, token, channelId] = process.argv.slice(2);
if (baseUrl === undefined || token === undefined || channelId === undefined) {
  throw new Error('usage: tlsClient baseUrl botToken channelId');
}
const client = new Client({
  intents: [GatewayIntentBits.Guilds],
  rest: { api: `${baseUrl}/api`, cdn: baseUrl },
});
const ready = new Promise<string>((resolve) =>
  client.once(Events.ClientReady, (c) => {
    resolve(c.guilds.cache.first()?.name ?? '');
  }),
);
client.rest.setToken(token);
const gateway = (await client.rest.get(Routes.gatewayBot())) as { url: string };
await client.login(token);
const guild = await ready;
const channel = (await client.channels.fetch(channelId)) as TextChannel;
const message = await channel.send('over TLS');
process.stdout.write(
  `${JSON.stringify({ gateway: gateway.url, guild, message: message.content })}\n`,
);
await client.destroy();
