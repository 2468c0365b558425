// The kit with Jest, as an ES module: run with `node --experimental-vm-modules` (docs/testing.md).
import { URL, fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, expect, test } from '@jest/globals';
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

test('a refusal is the platform error', async () => {
  const bob = gh.people.get('bob');
  // Bob does not own the guild: deleting its channel is 50013 Missing Permissions.
  await expect(
    bob.rest.request(`DELETE /channels/${gh.world.guilds.home.channels.general}`),
  ).rejects.toMatchObject({ code: 50013, status: 403 });
});
