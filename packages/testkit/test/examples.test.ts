/**
 * Runs each example of examples/testing/ as its README says, each with its own runner in its own
 * process: the discord.js bot's and the HTTP bot's Vitest suites, the Vitest, Jest and node:test
 * suites, and the curl-only script. A failing example fails here with its output.
 *
 * The examples run side by side: each has a platform and a data folder of its own, and most of
 * their time is waiting, not work (discord.js spaces a bot's identifies 5 s apart, and every
 * test's reset makes the bot identify again), so one after another they took minutes.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';

const run = promisify(execFile);
const REPO = new URL('../../../', import.meta.url).pathname;
const EXAMPLES = join(REPO, 'examples/testing');
/** An example starts a platform and a bot or two: well under this. */
const EXAMPLE_TIMEOUT_MS = 180_000;

/** Runs `command` in the example's folder; its output, or a failure that shows it. */
async function example(folder: string, command: string, args: string[]) {
  try {
    return await run(command, args, {
      cwd: join(EXAMPLES, folder),
      env: {
        ...process.env,
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        // The server as `npx guildhall` runs it, built from this repository.
        GUILDHALL: `${process.execPath} ${join(REPO, 'packages/server/bundle/guildhall.js')}`,
      },
      timeout: EXAMPLE_TIMEOUT_MS,
      maxBuffer: 16 << 20,
    });
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${folder}: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
  }
}

const vitest = join(REPO, 'node_modules/vitest/vitest.mjs');
const jest = join(REPO, 'node_modules/jest/bin/jest.js');

describe.concurrent('examples/testing', () => {
  for (const folder of ['discordjs-bot', 'http-bot', 'vitest']) {
    it(
      `${folder}: its Vitest suite passes`,
      async ({ expect }) => {
        const { stdout } = await example(folder, process.execPath, [vitest, 'run']);
        expect(stdout).toMatch(/Tests\s+\d+ passed/);
        expect(stdout).not.toMatch(/failed/);
      },
      EXAMPLE_TIMEOUT_MS,
    );
  }

  it(
    'jest: its Jest suite passes',
    async ({ expect }) => {
      const { stderr } = await example('jest', process.execPath, [
        '--experimental-vm-modules',
        jest,
        '--ci',
      ]);
      expect(stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it(
    'node-test: its node:test suite passes',
    async ({ expect }) => {
      // TAP on every Node (from 23 the default reporter off a terminal is `spec`).
      const { stdout } = await example('node-test', process.execPath, [
        '--test',
        '--test-reporter=tap',
      ]);
      expect(stdout).toMatch(/# fail 0/);
      expect(stdout).toMatch(/# pass [1-9]/);
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it(
    'curl: the HTTP controls with curl alone',
    async ({ expect }) => {
      const { stdout } = await example('curl', 'bash', ['run.sh']);
      expect(stdout).toContain('GET /gateway/bot: 503, then 200');
      expect(stdout).toContain('curl example: ok');
    },
    EXAMPLE_TIMEOUT_MS,
  );
});
