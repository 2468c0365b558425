/**
 * `guildhall user nsfw-allowed`: an operator sets whether a person may see age-restricted
 * content, which age-gated activities check (docs/activities.md#config). Through the CLI on a
 * data folder of its own; the answer is read back from storage.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { capture } from './support/cliFixture.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'guildhall-nsfw-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const run = async (...argv: string[]) => {
  const c = capture('');
  const code = await runCli([...argv, '--data-dir', dataDir], {}, c.io);
  return { code, out: c.out(), err: c.err() };
};

it('sets, clears and refuses a bad value for nsfw_allowed', async () => {
  const created = await run(
    'user',
    'create',
    '--username',
    'grown',
    '--email',
    'grown@example.test',
    '--password',
    'long enough password',
  );
  expect(created.err).toBe('');
  const { user_id } = JSON.parse(created.out) as { user_id: string };
  const set = async (value: string) =>
    run('user', 'nsfw-allowed', '--user', 'grown', '--value', value);
  const first = await set('true');
  expect(first.err).toBe('');
  expect(JSON.parse(first.out)).toEqual({
    user_id,
    username: 'grown',
    nsfw_allowed: true,
  });
  expect(JSON.parse((await set('false')).out)).toMatchObject({ nsfw_allowed: false });
  expect(JSON.parse((await set('unknown')).out)).toMatchObject({ nsfw_allowed: null });
  const bad = await set('maybe');
  expect(bad.code).toBe(2);
  expect(bad.err).toContain('--value is true, false or unknown.');
});
