import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectChild } from './support/children.js';
import { describeDrivers } from './support/drivers.js';
import { seedDeveloper, startTestServer } from './support/testServer.js';

/** docs/sdk.md's Node example: a game server and two players on the SDK's Node build. */
const SCRIPT = fileURLToPath(new URL('../../../examples/sdk-node-game.js', import.meta.url));
/** What the example imports: the SDK's Node build (`npm run build`; `npm test` builds first). */
const SDK_BUILD = fileURLToPath(new URL('../../sdk/dist/node.js', import.meta.url));

function game(env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { PATH: process.env['PATH'] ?? '', DEMO_JSON: '/nonexistent/demo.json', ...env },
    stdio: 'pipe',
  });
  return collectChild(child);
}

describeDrivers('the SDK Node example (docs/sdk.md) on $driver', (driver) => {
  it('takes two players through friends, presence, a DM and a lobby with the SDK', async () => {
    expect(existsSync(SDK_BUILD), `${SDK_BUILD} is missing: run npm run build`).toBe(true);
    await using server = await startTestServer({ storage: driver, listen: true });
    const dev = await seedDeveloper(server.app);
    const run = await game({ API_URL: `${server.baseUrl}/api/v10`, BOT_TOKEN: dev.botToken });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('backend minted provisional tokens for Ada and Bob');
    expect(run.stdout).toMatch(/both clients Ready: Ada \(\d+\) and Bob \(\d+\)/);
    expect(run.stdout).toContain('Ada sent Bob a game friend request; Bob sees it as pending');
    expect(run.stdout).toContain('Bob accepted: Ada and Bob are game friends');
    expect(run.stdout).toContain('Bob sees Ada playing Tiny Tanks (In a party)');
    expect(run.stdout).toMatch(/Bob received Ada's DM \d+: "gg, same time tomorrow\?"/);
    expect(run.stdout).toMatch(/lobby \d+: Bob joined and said "ready when you are"/);
    expect(run.stdout.trimEnd().endsWith('• done')).toBe(true);
  });
});

describe('the SDK Node example without a platform', () => {
  it('prints its usage on --help, and says what to do when nothing is configured', async () => {
    const help = await game({}, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('API_URL');
    expect(help.stdout).toContain('npm run build');
    const bare = await game({});
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('start one with `npm start`, or set API_URL and BOT_TOKEN');
  });
});
