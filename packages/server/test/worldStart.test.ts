import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import type { WorldRecord } from '../src/cli/worldStart.js';
import { capture } from './support/cliFixture.js';
import { BUILT_MAIN } from './support/cluster.js';

const WORLD_YAML = `# yaml-language-server: $schema=../world.schema.json
seed: cli-test
people:
  alice: { global_name: Alice }
  bob:
applications:
  helper:
    owner: alice
    commands:
      ping: { description: Answers pong }
guilds:
  main:
    owner: alice
    channels:
      general: {}
    members:
      bob:
    bots:
      helper: { permissions: [ADMINISTRATOR] }
`;

/** Runs `guildhall start` until its banner, checks the server with `check`, then stops it. */
function startOnce(
  args: readonly string[],
  check: (stdout: string) => Promise<void>,
): Promise<string> {
  return new Promise((resolve, reject) => {
    // The built CLI, as `npx guildhall start` runs it: it starts in a second where tsx
    // compiling the sources takes several.
    const child = spawn(process.execPath, [BUILT_MAIN, 'start', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let seen = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no banner in time: ${stdout}${stderr}`));
    }, 30_000);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (seen || !stdout.includes("Ids and tokens by the world's names")) return;
      seen = true;
      clearTimeout(timer);
      check(stdout).then(
        () => {
          child.kill('SIGTERM');
          child.once('exit', (code) => {
            if (code === 0) resolve(stdout);
            else reject(new Error(`exit ${String(code)}: ${stderr}`));
          });
        },
        (err: unknown) => {
          child.kill('SIGKILL');
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  });
}

describe('guildhall start --world', () => {
  let folder: string;
  let dataDir: string;
  let worldFile: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'guildhall-world-start-'));
    dataDir = join(folder, 'data');
    worldFile = join(folder, 'world.yaml');
    await writeFile(worldFile, WORLD_YAML);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const args = () => ['--world', worldFile, '--port', '0', '--voice-port', '0'];
  const record = async () =>
    JSON.parse(await readFile(join(dataDir, 'world.json'), 'utf8')) as WorldRecord;

  it('loads a YAML world, writes its ids and tokens, and reuses them on the next start', async () => {
    const startArgs = [...args(), '--data-dir', dataDir, '--log-level', 'warn'];
    const first = await startOnce(startArgs, async () => {
      const { api_url, world } = await record();
      const bot = world.applications['helper'];
      const res = await fetch(`${api_url}/applications/@me`, {
        headers: { authorization: `Bot ${bot?.botToken ?? ''}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { id: string }).id).toBe(bot?.id);
      const members = await fetch(
        `${api_url}/guilds/${world.guilds['main']?.id ?? ''}/members?limit=10`,
        {
          headers: { authorization: world.people['alice']?.token ?? '' },
        },
      );
      expect(((await members.json()) as unknown[]).length).toBe(3);
    });
    expect(first).toContain(`World:    ${worldFile} (seed cli-test: 2 people, 1 application`);
    expect((await stat(join(dataDir, 'world.json'))).mode & 0o777).toBe(0o600);
    const loaded = (await record()).world;
    const second = await startOnce(startArgs, async () => {
      const { api_url, world } = await record();
      const res = await fetch(`${api_url}/users/@me`, {
        headers: { authorization: world.people['bob']?.token ?? '' },
      });
      expect(res.status).toBe(200);
    });
    expect(second).toContain('reused from an earlier start');
    expect((await record()).world).toEqual(loaded);
  }, 90_000);

  it('refuses a world with a mistake in one line naming where, before starting', async () => {
    const bad = join(folder, 'bad.yaml');
    await writeFile(bad, 'people:\n  alice:\n    usernam: al\nguilds:\n  g: { owner: zed }\n');
    const c = capture('');
    const code = await runCli(
      ['start', '--world', bad, '--data-dir', join(folder, 'bad-data'), '--port', '0'],
      {},
      c.io,
    );
    expect(code).toBe(2);
    expect(c.err()).toBe(
      `guildhall: ${bad} is not a valid world: people.alice: Unrecognized key: "usernam"\n`,
    );
  });

  it('documents --world in start --help', async () => {
    const c = capture('');
    expect(await runCli(['start', '--help'], {}, c.io)).toBe(0);
    expect(c.out()).toContain('--world FILE');
  });
});
