// The discord.js bot's suite (docs/testing.md): one platform for the file, reset between tests,
// people acting through the platform's routes, the bot as it runs in production.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startGuildhall } from '@guildhall/testkit';
import { startBot } from './bot.js';

const WORLD = new URL('../world.json', import.meta.url).pathname;

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

// Back to the world before each test: messages, faults and the clock's moves gone. The bot's
// session is closed by the reset; discord.js reconnects on its own, as it would in production.
beforeEach(() => gh.reset());

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
  gh.faults.add({ kind: 'gateway', type: 'reconnect', botId: greeter.id, times: 1 });
  await ann.send(general, '!echo still there?');
  await ann.waitForMessage(
    (m) => m.content === 'still there?' && m.author.id === greeter.botUserId,
  );
  const resume = await gh.waitForLog((e) => e.kind === 'gatewayCommand' && e.op === 6, {
    filter: { botId: greeter.id },
  });
  expect(resume).toMatchObject({ op: 6 });
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
