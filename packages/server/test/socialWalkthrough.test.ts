import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectChild } from './support/children.js';
import { describeDrivers } from './support/drivers.js';
import { seedDeveloper, startTestServer } from './support/testServer.js';

/** docs/social.md's Node walkthrough, run as a user runs it. */
const SCRIPT = fileURLToPath(new URL('../../../examples/social-walkthrough.js', import.meta.url));

function walkthrough(env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { PATH: process.env['PATH'] ?? '', DEMO_JSON: '/nonexistent/demo.json', ...env },
    stdio: 'pipe',
  });
  return collectChild(child);
}

describeDrivers('the social walkthrough (docs/social.md) on $driver', (driver) => {
  it('takes two provisional players through friends, presence, a lobby and a DM', async () => {
    await using server = await startTestServer({ storage: driver, listen: true });
    const dev = await seedDeveloper(server.app);
    const run = await walkthrough({
      API_URL: `${server.baseUrl}/api/v10`,
      BOT_TOKEN: dev.botToken,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Ada and Bob are game friends');
    expect(run.stdout).toContain('Bob sees Ada playing Tiny Tanks (In a party)');
    expect(run.stdout).toMatch(/lobby \d+: Bob joined and said "ready when you are"/);
    expect(run.stdout).toContain("Bob received Ada's DM; their conversation has 1 message(s)");
    expect(run.stdout.trimEnd().endsWith('• done')).toBe(true);
  });
});

describe('the social walkthrough without a platform', () => {
  it('prints its usage on --help, and says what to do when nothing is configured', async () => {
    const help = await walkthrough({}, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('API_URL');
    const bare = await walkthrough({});
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('start one with `npm start`, or set API_URL and BOT_TOKEN');
  });

  it.each([
    ['social-walkthrough.js', {}],
    ['sdk-node-game.js', {}],
    ['rpc-presence.js', { CLIENT_ID: '1', CLIENT_SECRET: 'secret' }],
  ])('%s says where it looked when nothing answers there', async (example, extra) => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const script = fileURLToPath(new URL(`../../../examples/${example}`, import.meta.url));
    const child = spawn(process.execPath, [script], {
      env: {
        PATH: process.env['PATH'] ?? '',
        DEMO_JSON: '/nonexistent/demo.json',
        API_URL: `http://127.0.0.1:${port}/api/v10`,
        BOT_TOKEN: 'x',
        ...extra,
      },
      stdio: 'pipe',
    });
    const run = await collectChild(child);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `No platform answers at http://127.0.0.1:${port} (the API URL from API_URL; ECONNREFUSED): is \`npm start\` running?\n`,
    );
  });
});
