// The kit with node:test (`node --test`): no dependency beyond the kit.
import { URL, fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { startGuildhall } from '@guildhall/testkit';
import { startBot } from '../discordjs-bot/bot.js';

let gh;
let bot;

before(async () => {
  gh = await startGuildhall({ world: fileURLToPath(new URL('../world.json', import.meta.url)) });
  bot = await startBot({ token: gh.world.applications.greeter.botToken, apiUrl: gh.apiUrl });
});
beforeEach(() => gh.reset({ waitForBots: [gh.world.applications.greeter.id] }));
after(async () => {
  bot?.destroy();
  await gh?.close();
});

test('/ping answers pong', async () => {
  const ping = await gh.people.get('ann').slash(gh.world.guilds.home.channels.general, 'ping');
  assert.equal((await ping.reply()).content, 'pong');
});

test('a friend request is seen by the friend', async () => {
  const ann = gh.people.get('ann');
  const bob = gh.people.get('bob');
  await ann.sendFriendRequest('bob');
  const incoming = await bob.relationships();
  assert.ok(incoming.some((r) => r.id === ann.id && r.type === 3));
});
