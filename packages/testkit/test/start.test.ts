/**
 * The kit's handle: the world's ids and tokens, the same for the same seed; `reset()` back to the
 * loaded world with faults and clock changes gone; faults and the bots' log seen through the
 * handle; `await using` closing it all.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGuildhall, type Guildhall, type WorldFile } from '../src/index.js';

const WORLD: WorldFile = {
  people: { ann: null },
  applications: { helper: { owner: 'ann' } },
  guilds: {
    home: { owner: 'ann', channels: { general: { type: 'text' } }, bots: { helper: null } },
  },
};

let gh: Guildhall;
let general = '';

beforeAll(async () => {
  gh = await startGuildhall({ world: WORLD, seed: 'start-test' });
  general = gh.world.guilds['home']?.channels['general'] ?? '';
});

afterAll(async () => {
  await gh.close();
});

it('names what it serves and the world it loaded', async () => {
  expect(gh.apiUrl).toBe(`${gh.baseUrl}/api`);
  expect(gh.gatewayUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+/);
  const me = await fetch(`${gh.apiUrl}/v10/users/@me`, {
    headers: { Authorization: gh.world.people['ann']?.token ?? '' },
  });
  expect(((await me.json()) as { username: string }).username).toBe('ann');
});

it('gives the same ids and tokens for the same world and seed, and closes with await using', async () => {
  let port = '';
  {
    await using again = await startGuildhall({ world: WORLD, seed: 'start-test' });
    expect(again.world).toEqual(gh.world);
    port = new URL(again.baseUrl).port;
    expect((await fetch(`${again.baseUrl}/readyz`)).status).toBe(200);
  }
  await expect(fetch(`http://127.0.0.1:${port}/readyz`)).rejects.toThrow();
});

it('injects faults, counts them, and logs what the bot did', async () => {
  const ann = gh.people.get('ann');
  const helper = gh.world.applications['helper'];
  const fault = gh.faults.add({
    kind: 'http',
    method: 'POST',
    path: '/channels/*/messages',
    type: 'rateLimit',
    retryAfter: 2,
    botId: ann.id,
    times: 1,
  });
  await expect(ann.send(general, 'first')).rejects.toMatchObject({ status: 429 });
  expect(gh.faults.get(fault.id)).toBeUndefined();
  await expect(ann.send(general, 'second')).resolves.toMatchObject({ content: 'second' });

  const sent = await fetch(`${gh.apiUrl}/v10/channels/${general}/messages`, {
    method: 'POST',
    headers: { Authorization: `Bot ${helper?.botToken ?? ''}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content: 'from the bot' }),
  });
  expect(sent.status).toBe(200);
  const entry = await gh.waitForLog(
    (e) => e.kind === 'http' && e.method === 'POST' && e.status === 200,
    { filter: { botId: helper?.id ?? '' } },
  );
  expect(entry).toMatchObject({ kind: 'http', request: { content: 'from the bot' } });
});

it('resets to the loaded world: messages, faults and the clock', async () => {
  const ann = gh.people.get('ann');
  await ann.send(general, 'before the reset');
  gh.faults.add({ kind: 'http', path: '/**', type: 'serverError' });
  await gh.clock.advance('1d');
  await gh.reset();
  expect(gh.faults.list()).toEqual([]);
  expect(gh.clock.state().offsetMs).toBe(0);
  const after = gh.people.get('ann');
  expect(await after.messages(general)).toEqual([]);
});
