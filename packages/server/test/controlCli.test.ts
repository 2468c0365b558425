/**
 * `guildhall` commands against a running server (control/runFile.ts, control/adminCommands.ts):
 * the server writes its run file in its data folder, a command finds it and runs inside the
 * server, so the sessions it holds see the change (a bot added to a guild gets its GUILD_CREATE);
 * mistakes come back as the command's own; a run file left by a dead process is ignored.
 *
 * @module
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { ADMIN_COMMANDS } from '../src/cli/commands.js';
import { runInRunningServer } from '../src/control/adminCommands.js';
import { RUN_FILE_NAME } from '../src/control/runFile.js';
import { capture } from './support/cliFixture.js';
import { describeDrivers } from './support/drivers.js';
import { identifyGateway } from './support/gatewayClient.js';
import { seedDeveloper, startTestServer, type TestServer } from './support/testServer.js';

const GUILDS = 1;

describeDrivers('commands reach the server running on their data folder ($driver)', (driver) => {
  let dataDir = '';
  let server: TestServer;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-cli-running-'));
    server = await startTestServer({
      storage: driver,
      listen: true,
      dataDir,
      // SQLite in the data folder, where a command run on its own would write behind its back.
      ...(driver === 'sqlite' ? { database: join(dataDir, 'guildhall.db') } : {}),
      adminCommands: ADMIN_COMMANDS,
      gateway: { identifiesPerBucket: 1000 },
    });
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Runs `guildhall <argv> --data-dir <the server's folder>`. */
  const run = async (argv: string[], stdin = '') => {
    const c = capture(stdin);
    const code = await runCli([...argv, '--data-dir', dataDir], {}, c.io);
    return { code, out: c.out(), err: c.err() };
  };

  it('writes its run file, readable only by its owner', async () => {
    const path = join(dataDir, RUN_FILE_NAME);
    const file = JSON.parse(await readFile(path, 'utf8')) as { url: string; pid: number };
    expect(file).toMatchObject({ url: server.baseUrl, pid: process.pid });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('adds a bot to a guild through the server: its live session gets the guild', async () => {
    const dev = await seedDeveloper(server.app, `cli-${driver}`);
    const { guild } = await server.app.services.guilds.create({
      ownerId: dev.userId,
      name: 'Added by the CLI',
      channels: [{ name: 'general', type: 'text' }],
    });
    const { client } = await identifyGateway(server.app.gatewayUrl(), {
      token: `Bot ${dev.botToken}`,
      intents: GUILDS,
    });
    try {
      const added = await run([
        'guild',
        'add-bot',
        '--guild',
        guild.id,
        '--app',
        dev.applicationId,
      ]);
      expect(added.code, added.err).toBe(0);
      const created = await client.dispatch('GUILD_CREATE');
      expect((created.d as { id: string }).id).toBe(guild.id);
    } finally {
      client.raw.terminate();
    }
  });

  it('reads a password from standard input and answers mistakes as the command does', async () => {
    const made = await run(
      [
        'user',
        'create',
        '--username',
        `stdin_${driver}`,
        '--email',
        `stdin_${driver}@example.test`,
        '--password-stdin',
      ],
      'a long enough password\n',
    );
    expect(made.code, made.err).toBe(0);
    const { user_id: userId } = JSON.parse(made.out) as { user_id: string };
    expect(await server.app.storage.users.findById(userId)).toMatchObject({
      username: `stdin_${driver}`,
    });
    const unknown = await run(['guild', 'add-bot', '--guild', '1', '--app', '2']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^guildhall: .*\(code \d+\)/);
  });
});

describe('a run file without its server', () => {
  it('is ignored: the command runs on the database', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-cli-stale-'));
    try {
      // A process id no process has (the kernel's maximum is below it).
      await writeFile(
        join(dataDir, RUN_FILE_NAME),
        JSON.stringify({ url: 'http://127.0.0.1:9', pid: 2 ** 30, database: null, token: 'x' }),
      );
      const remote = await runInRunningServer(
        { dataDir, databaseUrl: null },
        { command: 'sku list', flags: new Map() },
      );
      expect(remote).toBeNull();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
