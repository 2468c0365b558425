import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_COMMANDS } from '../src/cli/commands.js';
import { runCli } from '../src/cli/index.js';
import { capture as captureIo } from './support/cliFixture.js';
import { BUILT_MAIN } from './support/cluster.js';

/** Output captured; a password prompt reads this from stdin. */
const capture = () => captureIo('password from stdin\n');
/**
 * The environment of the commands: scrypt's lowest allowed cost for the passwords they hash
 * (2^14, 16 MiB), not the default 2^17 (128 MiB and a few hundred milliseconds a password).
 */
const ENV = { GUILDHALL_PASSWORD_SCRYPT_LOG2N: '14' };

describe('guildhall admin commands', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-cli-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  const run = async (...argv: string[]) => {
    const c = capture();
    const code = await runCli([...argv, '--data-dir', dataDir], ENV, c.io);
    return { code, out: c.out(), err: c.err() };
  };

  it('creates a user, an app, a guild, and adds the bot, printing JSON', async () => {
    const user = await run(
      'user',
      'create',
      '--username',
      'ci',
      '--email',
      'ci@example.test',
      '--password',
      'long enough password',
    );
    expect(user.code).toBe(0);
    const { user_id } = JSON.parse(user.out) as { user_id: string };
    const fromStdin = await run(
      'user',
      'create',
      '--username',
      'ci2',
      '--email',
      'ci2@example.test',
      '--password-stdin',
    );
    expect(fromStdin.code).toBe(0);

    const app = await run('app', 'create', '--owner', user_id, '--name', 'CI Bot');
    const created = JSON.parse(app.out) as {
      application_id: string;
      bot_token: string;
      client_secret: string;
    };
    expect(created.bot_token.split('.')).toHaveLength(3);

    const guild = await run(
      'guild',
      'create',
      '--owner',
      user_id,
      '--name',
      'CI',
      '--text',
      'general,logs',
      '--voice',
      'Lounge',
    );
    const { guild_id, channels } = JSON.parse(guild.out) as {
      guild_id: string;
      channels: { name: string; type: number }[];
    };
    expect(channels).toEqual([
      expect.objectContaining({ name: 'general', type: 0 }),
      expect.objectContaining({ name: 'logs', type: 0 }),
      expect.objectContaining({ name: 'Lounge', type: 2 }),
    ]);

    const added = await run(
      'guild',
      'add-bot',
      '--guild',
      guild_id,
      '--app',
      created.application_id,
      '--permissions',
      '2048',
    );
    expect(added.code).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({ guild_id, roles: [expect.any(String)] });
  });

  it('says what is missing or wrong, with exit code 2', async () => {
    const missing = await run('app', 'create', '--name', 'x');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('missing --owner');
    expect(missing.err).toContain('Usage: guildhall app create');

    const unknownGuild = await run('guild', 'add-bot', '--guild', '1', '--app', '2');
    expect(unknownGuild.code).toBe(2);
    expect(unknownGuild.err).toContain('Unknown Guild (code 10004)');

    const badName = await run('app', 'create', '--owner', '1', '--name', '@everyone');
    expect(badName.code).toBe(2);
    expect(badName.err).toBe('guildhall: --name: Username cannot contain @, #, : or backticks.\n');
    // A name too short says so, not that it is blank.
    const short = await run('app', 'create', '--owner', '1', '--name', 'a');
    expect(short.err).toBe('guildhall: --name: Must be 2 or more in length.\n');

    const unknown = await run('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('guildhall --help');

    const badPort = await run('user', 'create', '--port', 'x');
    expect(badPort.err).toBe(
      'guildhall: --port must be an integer from 0 to 65535 (0 picks a free port); got "x".\n',
    );
  });

  it('refuses unknown flags and misplaced values with one line and exit code 2', async () => {
    const cases: [string[], string][] = [
      [['app', 'create', '--owner', '1', '--name', 'x', '--colour', 'red'], "'--colour'"],
      [['app', 'create', '--owner', '1', 'x'], "'x'"],
      [['app', 'create', '--name', 'x', '--owner'], "'--owner'"],
      [['app', 'create', '--owner', '--name', 'x'], "'--owner' argument is ambiguous"],
      [['user', 'connection', 'add', '--user', '1', '--verified', 'yes'], "'yes'"],
      [['user', 'connection', 'add', '--user', '1', '--verified=yes'], 'does not take'],
      [['user', 'create', '--no-password-stdin'], "'--no-password-stdin'"],
      [['start', '--prot', '8080'], "'--prot'"],
      [['start', 'now'], "'now'"],
      [['start', '--port'], "'--port'"],
    ];
    for (const [argv, named] of cases) {
      const result = await run(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.out).toBe('');
      const name =
        argv[0] === 'start'
          ? 'start'
          : ADMIN_COMMANDS.find((c) => argv.join(' ').startsWith(`${c.name} `))?.name;
      expect(result.err).toMatch(/^guildhall: [^\n]+\n$/);
      expect(result.err).toContain(named);
      expect(result.err).toContain(`Run \`guildhall ${name} --help\``);
    }
    const last = capture();
    expect(await runCli(['guild', 'create', '--name', 'x', '--owner'], {}, last.io)).toBe(2);
    expect(last.err()).toBe(
      "guildhall: Option '--owner <value>' argument missing (guildhall guild create). Run `guildhall guild create --help` for its options.\n",
    );
    // Nothing was made by the refused commands.
    await expect(stat(join(dataDir, 'guildhall.db'))).rejects.toThrow();
  });

  it('still takes every accepted form: --name=value, switches and negated switches', async () => {
    const user = await run(
      'user',
      'create',
      '--username=forms',
      '--email',
      'forms@example.com',
      '--password-stdin',
      '--no-demo',
      '--rate-limits',
      'off',
    );
    expect(user.code, user.err).toBe(0);
    const { user_id } = JSON.parse(user.out) as { user_id: string };
    const added = await run(
      'user',
      'connection',
      'add',
      '--user',
      user_id,
      '--type',
      'github',
      '--id',
      'octo',
      '--verified',
      '--no-show-activity',
    );
    expect(added.code, added.err).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({ verified: true, show_activity: false });
  });

  it('a start with another secret key stops with one line and exit code 2', async () => {
    const withKey = async (key: string, ...argv: string[]) => {
      const c = capture();
      const code = await runCli(
        [...argv, '--data-dir', dataDir],
        { ...ENV, GUILDHALL_SECRET_KEY: key },
        c.io,
      );
      return { code, out: c.out(), err: c.err() };
    };
    const sealedWith = randomBytes(32).toString('base64');
    const user = await withKey(
      sealedWith,
      'user',
      'create',
      '--username',
      'keeper',
      '--email',
      'keeper@example.test',
      '--password',
      'long enough password',
    );
    const { user_id } = JSON.parse(user.out) as { user_id: string };
    expect(
      (await withKey(sealedWith, 'app', 'create', '--owner', user_id, '--name', 'Sealed')).code,
    ).toBe(0);

    const wrong = await withKey(
      randomBytes(32).toString('base64'),
      'start',
      '--port',
      '0',
      '--no-demo',
    );
    expect(wrong.code).toBe(2);
    expect(wrong.out).toBe('');
    expect(wrong.err).toMatch(
      /^guildhall: The stored signing key of application \d+ cannot be decrypted with the secret key from GUILDHALL_SECRET_KEY\. Set GUILDHALL_SECRET_KEY to the key the data was sealed with, or restore the data folder's secret\.key from a backup, then start again\.\n$/,
    );
  });

  it('a start whose REDIS_URL does not answer stops with one line and exit code 2', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const c = capture();
    const code = await runCli(
      ['start', '--port', '0', '--no-demo', '--data-dir', dataDir],
      { REDIS_URL: `redis://app:hunter2@127.0.0.1:${port}` },
      c.io,
    );
    expect(code).toBe(2);
    expect(c.out()).toBe('');
    expect(c.err()).toBe(
      `guildhall: Redis at redis://127.0.0.1:${port} did not answer (connect ECONNREFUSED 127.0.0.1:${port}). Start Redis there or correct REDIS_URL (--redis-url), or unset it to keep rate limits, identify buckets and presences in this process; then start again.\n`,
    );
  });

  it('makes a one-time login link for a person named by username or id', async () => {
    const user = await run(
      'user',
      'create',
      '--username',
      'linked',
      '--email',
      'linked@example.test',
      '--password',
      'long enough password',
    );
    const { user_id } = JSON.parse(user.out) as { user_id: string };
    const byName = await run('user', 'login-link', '--user', 'Linked');
    expect(byName.code).toBe(0);
    const link = JSON.parse(byName.out) as Record<string, string>;
    expect(link).toMatchObject({ user_id, username: 'linked' });
    expect(link['client_url']).toMatch(/^http:\/\/127\.0\.0\.1:8080\/login#code=[\w-]{43}$/);
    const code = link['client_url']?.split('#code=')[1];
    expect(link['portal_url']).toBe(`http://127.0.0.1:8080/developers/login#code=${code}`);
    const hour = Date.parse(link['expires_at'] ?? '') - Date.now();
    expect(hour).toBeGreaterThan(59 * 60_000);
    expect(hour).toBeLessThanOrEqual(60 * 60_000);

    const byId = JSON.parse((await run('user', 'login-link', '--user', user_id)).out) as {
      client_url: string;
    };
    expect(byId.client_url).not.toBe(link['client_url']);
    const unknown = await run('user', 'login-link', '--user', 'nobody');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe(
      'guildhall: no person with id or username nobody. `guildhall user create` makes one.\n',
    );
  });

  it('rotates the secret key: its steps on stderr, one line on stdout, the data still opens', async () => {
    const user = await run(
      ...['user', 'create', '--username', 'rotor', '--email', 'rotor@example.test'],
      ...['--password', 'long enough password'],
    );
    const { user_id } = JSON.parse(user.out) as { user_id: string };
    expect((await run('app', 'create', '--owner', user_id, '--name', 'Before')).code).toBe(0);
    const keyFile = join(dataDir, 'secret.key');
    const before = await readFile(keyFile, 'utf8');

    const rotated = await run('secrets', 'rotate');
    expect(rotated.code, rotated.err).toBe(0);
    const id = '[0-9a-f]{8}';
    expect(rotated.err.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^Keyring from ${keyFile}: key ${id} current\\.$`)),
      "Checked applications' signing keys: 1 open.",
      // Made on first use (no ID token was signed here); secretRotation.test.ts reseals one.
      'Checked ID token signing keys: 0 open.',
      'Checked webhook tokens: 0 open.',
      'Checked server secrets: 1 open.',
      expect.stringMatching(new RegExp(`^Key ${id} made current in ${keyFile}\\.$`)),
      "Sealed applications' signing keys again: 1.",
      'Sealed ID token signing keys again: 0.',
      'Sealed webhook tokens again: 0.',
      'Sealed server secrets again: 1.',
      '',
    ]);
    expect(rotated.out).toMatch(
      new RegExp(
        `^Rotated: key ${id} seals and signs now; 2 stored secrets sealed again; key ${id} opens and verifies until \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\. Restart every node to use ${keyFile}\\.\n$`,
      ),
    );
    const after = await readFile(keyFile, 'utf8');
    expect(after.split('\n')).toEqual([
      expect.stringMatching(/^[\w+/]{43}=$/),
      `${before.trim()} until ${/until (\S+)\./.exec(rotated.out)?.[1] ?? ''}`,
      '',
    ]);
    // The data opens with the new keyring: another command starts and seals with it.
    expect((await run('app', 'create', '--owner', user_id, '--name', 'After')).code).toBe(0);

    const staged = await run('secrets', 'rotate', '--stage');
    expect(staged.code, staged.err).toBe(0);
    expect(staged.out).toMatch(
      new RegExp(
        `^Staged key ${id} in ${keyFile}: restart every node, then run \`guildhall secrets rotate\` to make it current\\.\n$`,
      ),
    );
    const twice = await run('secrets', 'rotate', '--stage');
    expect(twice.code).toBe(2);
    expect(twice.out).toBe('');
    expect(twice.err).toMatch(new RegExp(`^guildhall: Key ${id} is staged already: .*\n$`));
    const bogus = await run('secrets', 'rotate', '--now');
    expect(bogus.code).toBe(2);
    expect(bogus.err).toBe(
      "guildhall: Unknown option '--now' (guildhall secrets rotate). Run `guildhall secrets rotate --help` for its options.\n",
    );

    // With GUILDHALL_SECRET_KEY and nothing staged: what to do, exit code 2, nothing changed.
    const c = capture();
    const key = randomBytes(32).toString('base64');
    const code = await runCli(
      ['secrets', 'rotate', '--data-dir', join(dataDir, 'env')],
      { GUILDHALL_SECRET_KEY: key },
      c.io,
    );
    expect(code).toBe(2);
    expect(c.err()).toMatch(
      /^guildhall: GUILDHALL_SECRET_KEY has no staged key\. Add one on every node/,
    );
    expect(c.err()).not.toContain(key);
  });

  it('has --help on every command', async () => {
    for (const argv of [
      [],
      ['start'],
      ['secrets', 'rotate'],
      ...ADMIN_COMMANDS.map((command) => command.name.split(' ')),
    ]) {
      const c = capture();
      expect(await runCli([...argv, '--help'], {}, c.io)).toBe(0);
      expect(c.out()).toMatch(/Usage|Commands/);
    }
  });
});

describe('guildhall start', () => {
  it('creates the demo on first start, serves the printed token, and reuses it on the next', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-start-'));
    const startOnce = () =>
      new Promise<{ demo: { api_url: string; bot_token: string }; stdout: string }>(
        (resolve, reject) => {
          // The built CLI, as `npx guildhall start` runs it: it starts in a second where tsx
          // compiling the sources takes several.
          const child = spawn(
            process.execPath,
            [BUILT_MAIN, 'start', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
            { stdio: ['ignore', 'pipe', 'pipe'] },
          );
          let stdout = '';
          let stderr = '';
          let seen = false;
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`no banner in time: ${stdout}${stderr}`));
          }, 20_000);
          child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
          child.stdout.on('data', (d: Buffer) => {
            stdout += d.toString();
            // Only once: the banner may arrive in chunks, and a second SIGTERM kills at once.
            if (seen || !stdout.includes('client.login(')) return;
            seen = true;
            clearTimeout(timer);
            void (async () => {
              try {
                const demo = JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8')) as {
                  api_url: string;
                  bot_token: string;
                };
                const res = await fetch(`${demo.api_url}/gateway/bot`, {
                  headers: { authorization: `Bot ${demo.bot_token}` },
                });
                expect(res.status).toBe(200);
                // The banner's one sign-in link logs in as the demo developer, once.
                const base = demo.api_url.replace(/\/api\/v\d+$/, '');
                const code = new RegExp(`Sign in: +${base}/login#code=([\\w-]+)\\n`).exec(
                  stdout,
                )?.[1];
                const redeem = () =>
                  fetch(`${demo.api_url}/auth/login-link`, {
                    method: 'POST',
                    headers: { 'content-type': 'application/json' },
                    body: JSON.stringify({ code }),
                  });
                const session = (await (await redeem()).json()) as { user_id?: string };
                expect(session.user_id).toEqual(expect.any(String));
                expect((await redeem()).status).toBe(400);
                // `guildhall status` says it all again, with a fresh link made by this server.
                const status = capture();
                expect(await runCli(['status', '--data-dir', dataDir], {}, status.io)).toBe(0);
                expect(status.out()).toContain(`  API:              ${base}/api/v10\n`);
                expect(status.out()).toContain(`  Bot token:        ${demo.bot_token}\n`);
                const fresh = new RegExp(`Sign in: +${base}/login#code=([\\w-]+)\\n`).exec(
                  status.out(),
                )?.[1];
                expect(fresh).toEqual(expect.any(String));
                expect(fresh).not.toBe(code);
                child.kill('SIGTERM');
                child.once('exit', (code) => {
                  expect(code).toBe(0);
                  resolve({ demo, stdout });
                });
              } catch (err) {
                child.kill('SIGKILL');
                reject(err instanceof Error ? err : new Error(String(err)));
              }
            })();
          });
        },
      );
    try {
      const first = await startOnce();
      expect(first.stdout).toContain(first.demo.bot_token);
      expect(first.stdout).toContain(
        "import { Client, Events, GatewayIntentBits } from 'discord.js';",
      );
      const base = first.demo.api_url.replace(/\/api\/v\d+$/, '');
      expect(first.stdout).toContain(`rest: { api: '${base}/api', cdn: '${base}' }`);
      expect((await stat(join(dataDir, 'demo.json'))).mode & 0o777).toBe(0o600);
      const demo = JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8')) as Record<
        string,
        string
      >;
      expect(Object.keys(demo).sort()).toEqual(
        [
          'api_url',
          'application_id',
          'bot_token',
          'channel_id',
          'client_secret',
          'gateway_url',
          'guild_id',
          'user_id',
          'user_token',
        ].sort(),
      );
      const second = await startOnce();
      expect(second.stdout).toContain('reusing the demo');
      expect(second.demo.bot_token).toBe(first.demo.bot_token);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
