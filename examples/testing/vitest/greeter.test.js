// The kit with Vitest: one platform per file, a reset before each test.
import { URL, fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startGuildhall } from '@guildhall/testkit';
import { startBot } from '../discordjs-bot/bot.js';

let gh;
let bot;

beforeAll(async () => {
  gh = await startGuildhall({ world: fileURLToPath(new URL('../world.json', import.meta.url)) });
  bot = await startBot({ token: gh.world.applications.greeter.botToken, apiUrl: gh.apiUrl });
});
beforeEach(() => gh.reset({ waitForBots: [gh.world.applications.greeter.id] }));
afterAll(async () => {
  bot?.destroy();
  await gh?.close();
});

test('/ping answers pong', async () => {
  const ping = await gh.people.get('ann').slash(gh.world.guilds.home.channels.general, 'ping');
  expect((await ping.reply()).content).toBe('pong');
});

test('!echo replies with the words', async () => {
  const bob = gh.people.get('bob');
  const said = await bob.send(gh.world.guilds.home.channels.general, '!echo hi there');
  const reply = await bob.waitForMessage((m) => m.message_reference?.message_id === said.id);
  expect(reply.content).toBe('hi there');
});
