// The HTTP-interactions bot's suite: the app's endpoint is set as a developer sets it (the
// platform PINGs it, checking the signature), then people's commands reach it signed.
import { URL, fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { InteractionFailedError, startGuildhall } from '@guildhall/testkit';
import { startHttpBot } from './bot.js';

let gh;
let bot;
let general;

beforeAll(async () => {
  gh = await startGuildhall({ world: fileURLToPath(new URL('../world.json', import.meta.url)) });
  general = gh.world.guilds.home.channels.general;
  const hooks = gh.world.applications.hooks;
  bot = await startHttpBot({ publicKey: hooks.publicKey });
  // As in the portal: the platform PINGs the URL and keeps it only if the bot answers PONG.
  const set = await globalThis.fetch(`${gh.apiUrl}/v10/applications/@me`, {
    method: 'PATCH',
    headers: { Authorization: `Bot ${hooks.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ interactions_endpoint_url: bot.url }),
  });
  expect(set.status).toBe(200);
});

afterAll(async () => {
  await bot?.close();
  await gh?.close();
});

it('answers a command posted to its endpoint', async () => {
  const hello = await gh.people.get('bob').slash(general, 'hello');
  expect((await hello.reply()).content).toBe('hello, bob');
});

it('fails the interaction when its endpoint times out', async () => {
  gh.faults.add({ kind: 'delivery', target: 'interactions', failure: 'timeout', times: 1 });
  const hello = await gh.people.get('ann').slash(general, 'hello');
  await expect(hello.outcome()).rejects.toBeInstanceOf(InteractionFailedError);
});

it('refuses an endpoint that does not check signatures', async () => {
  const careless = await startHttpBot({ publicKey: '00'.repeat(32) });
  try {
    const set = await globalThis.fetch(`${gh.apiUrl}/v10/applications/@me`, {
      method: 'PATCH',
      headers: {
        Authorization: `Bot ${gh.world.applications.greeter.botToken}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ interactions_endpoint_url: careless.url }),
    });
    expect(set.status).toBe(400);
    expect((await set.json()).code).toBe(50035);
  } finally {
    await careless.close();
  }
});
