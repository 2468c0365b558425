// The discord.js bot's suite (docs/testing.md): one platform for the file, reset between tests,
// people acting through the platform's routes, the bot as it runs in production.
import { URL, fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startGuildhall } from '@guildhall/testkit';
import { startBot } from './bot.js';

const WORLD = fileURLToPath(new URL('../world.json', import.meta.url));

let gh;
let bot;
let general;
let greeter;

beforeAll(async () => {
  gh = await startGuildhall({ world: WORLD });
  general = gh.world.guilds.home.channels.general;
  greeter = gh.world.applications.greeter;
  bot = await startBot({ token: greeter.botToken, apiUrl: gh.apiUrl, cdnUrl: gh.cdnUrl });
});

// Back to the world before each test: messages, faults and the clock's moves gone. The reset ends
// the bot's session; discord.js identifies again on its own, as in production, and the reset
// waits until it has.
beforeEach(() => gh.reset({ waitForBots: [greeter.id] }));

afterAll(async () => {
  bot?.destroy();
  await gh?.close();
});

it('answers a slash command', async () => {
  const ping = await gh.people.get('ann').slash(general, 'ping');
  expect((await ping.reply()).content).toBe('pong');
});

it('shows a modal from a button and thanks for the answer', async () => {
  const ann = gh.people.get('ann');
  const menu = await (await ann.slash(general, 'menu')).reply();
  const modal = await (await ann.click(menu, 'feedback')).modal();
  expect(modal.title).toBe('Feedback');
  const submitted = await ann.submitModal(modal, { opinion: 'lovely' });
  expect((await submitted.reply()).content).toBe('thanks: lovely');
});

it('defers a reply, then edits it', async () => {
  const slow = await gh.people.get('ann').slash(general, 'slow');
  expect((await slow.reply({ deferred: true })).flags).toBe(128);
  expect((await slow.reply()).content).toBe('done thinking');
});

it('rides out a storm of 429s', async () => {
  const ann = gh.people.get('ann');
  await ann.connect();
  const storm = gh.faults.add({
    kind: 'http',
    method: 'POST',
    path: '/channels/*/messages',
    type: 'rateLimit',
    retryAfter: 0.5,
    botId: greeter.id,
    times: 3,
  });
  await (await ann.slash(general, 'announce', { count: 3 })).reply();
  for (const n of [1, 2, 3])
    await ann.waitForMessage((m) => m.content === `announcement ${n} of 3`, { timeoutMs: 10_000 });
  // Spent: each 429 was answered once, then the sends went through.
  expect(gh.faults.get(storm.id)).toBeUndefined();
  const refused = gh.log
    .entries({ botId: greeter.id, kind: 'http' })
    .filter((e) => e.status === 429);
  expect(refused).toHaveLength(3);
});

it('resumes after the gateway asks it to reconnect, missing nothing', async () => {
  const ann = gh.people.get('ann');
  const byBot = (text) => (m) => m.content === text && m.author.id === greeter.botUserId;
  // The bot is up and answering before its connection is cut.
  await ann.send(general, '!echo ready?');
  await ann.waitForMessage(byBot('ready?'));
  gh.faults.add({ kind: 'gateway', type: 'reconnect', botId: greeter.id, times: 1 });
  // Sent while the bot reconnects: RESUME replays it.
  await ann.send(general, '!echo still there?');
  const resumed = await gh.waitForLog((e) => e.kind === 'dispatch' && e.t === 'RESUMED', {
    filter: { botId: greeter.id },
    timeoutMs: 20_000,
  });
  expect(resumed).toMatchObject({ t: 'RESUMED' });
  const echo = await ann.waitForMessage(byBot('still there?'));
  expect(echo.message_reference).toBeDefined();
});

it('cannot edit a reply once the clock has passed the token’s 15 minutes', async () => {
  const ann = gh.people.get('ann');
  const later = await ann.slash(general, 'later');
  await later.reply({ deferred: true });
  await gh.clock.advance('16m');
  await ann.send(general, '!finish');
  const late = await ann.waitForMessage((m) => m.content.startsWith('too late'));
  expect(late.content).toMatch(/^too late: (10015|50027)$/);
});
