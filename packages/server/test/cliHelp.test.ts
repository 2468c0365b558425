/**
 * The CLI a newcomer explores: `--help` on every group and command, listing only the options
 * that apply; an unknown flag names the nearest one; `app create --intents` turns privileged
 * intents on.
 */
import { join } from 'node:path';
import { ApplicationFlags } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { editDistance, nearestName } from '../src/cli/args.js';
import { ADMIN_COMMANDS } from '../src/cli/commands.js';
import { runCli } from '../src/cli/index.js';
import { verifyPassword } from '../src/domain/credentials.js';
import { createSqliteStorage } from '../src/storage/sqlite/index.js';
import { capture, useCliDataDir } from './support/cliFixture.js';

async function cli(...argv: string[]) {
  const c = capture();
  const code = await runCli(argv, {}, c.io);
  return { code, out: c.out(), err: c.err() };
}

describe('guildhall --help', () => {
  it.each(['user', 'app', 'guild', 'blobs', 'secrets'])(
    '`guildhall %s --help` lists the commands of the group',
    async (group) => {
      const { code, out } = await cli(group, '--help');
      expect(code).toBe(0);
      const names = [...ADMIN_COMMANDS.map((c) => c.name), 'secrets rotate'].filter((name) =>
        name.startsWith(`${group} `),
      );
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(out).toContain(`guildhall ${name} `);
      expect(out).toContain(`Run \`guildhall ${group} <command> --help\``);
    },
  );

  it('`guildhall status` with no server running says how to start one, exit code 1', async () => {
    const { code, out, err } = await cli('status', '--data-dir', '/nonexistent/guildhall-data');
    expect({ code, out }).toEqual({ code: 1, out: '' });
    expect(err).toBe(
      'guildhall status: no guildhall is running on /nonexistent/guildhall-data (no live /nonexistent/guildhall-data/control.json). Start one with `npm start` (or `guildhall start --data-dir /nonexistent/guildhall-data`).\n',
    );
  });

  it('a group without --help prints the list to stderr with exit code 2', async () => {
    const { code, out, err } = await cli('user');
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toContain('guildhall user create');
  });

  it("an operator command's --help lists its own options and where the data is, not the server's", async () => {
    const { code, out } = await cli('app', 'create', '--help');
    expect(code).toBe(0);
    expect(out).toContain('--intents members,presences,message-content');
    for (const flag of ['--data-dir', '--database-url', '--secret-key'])
      expect(out).toContain(flag);
    for (const flag of ['--voice-port', '--activity-host', '--rate-limits', '--port ']) {
      expect(out).not.toContain(flag);
    }
  });

  it('an unknown flag names the nearest known one', async () => {
    const { code, err } = await cli('app', 'create', '--ownr', '1', '--name', 'x');
    expect(code).toBe(2);
    expect(err).toBe(
      "guildhall: Unknown option '--ownr' (guildhall app create). Did you mean --owner? Run `guildhall app create --help` for its options.\n",
    );
    const far = await cli('app', 'create', '--frobnicate', '1');
    expect(far.err).not.toContain('Did you mean');
  });

  it('measures edits as a typist makes them', () => {
    expect(editDistance('ownr', 'owner')).toBe(1);
    expect(editDistance('onwer', 'owner')).toBe(1);
    expect(editDistance('guild', 'guild')).toBe(0);
    expect(nearestName('data-dri', ['data-dir', 'database-url'])).toBe('data-dir');
    expect(nearestName('zzz', ['owner', 'name'])).toBeUndefined();
  });
});

describe('guildhall app create --intents', () => {
  const { run, dataDir } = useCliDataDir('guildhall-intents-');

  it('turns on the self-serve flags of the privileged intents named', async () => {
    const user = await run(
      ...['user', 'create', '--username', 'intents', '--email', 'intents@example.test'],
      ...['--password', 'long enough password'],
    );
    const owner = user.json()['user_id'] as string;
    const created = await run(
      ...['app', 'create', '--owner', owner, '--name', 'Intents Bot'],
      ...['--intents', 'members,message-content'],
    );
    expect(created.code).toBe(0);
    expect(created.json()['privileged_intents']).toEqual(['GUILD_MEMBERS', 'MESSAGE_CONTENT']);
    const storage = createSqliteStorage({ filename: join(dataDir(), 'guildhall.db') });
    try {
      const application = await storage.applications.findById(
        created.json()['application_id'] as string,
      );
      expect(application?.flags).toBe(
        ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED |
          ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
      );
    } finally {
      await storage.close();
    }

    const plain = await run('app', 'create', '--owner', owner, '--name', 'Plain Bot');
    expect(plain.json()['privileged_intents']).toEqual([]);

    const bad = await run(
      'app',
      'create',
      '--owner',
      owner,
      '--name',
      'Bad',
      '--intents',
      'guilds',
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      'guildhall: --intents takes members, presences, message-content (comma-separated), not "guilds".\n',
    );
  });
});

describe('guildhall user set-password', () => {
  const { run, dataDir } = useCliDataDir('guildhall-password-');
  const createUser = async () => {
    const user = await run(
      ...['user', 'create', '--username', 'linked', '--email', 'linked@example.test'],
      ...['--password', 'the first password'],
    );
    return user.json()['user_id'] as string;
  };
  const storedHash = async (userId: string) => {
    const storage = createSqliteStorage({ filename: join(dataDir(), 'guildhall.db') });
    try {
      return (await storage.users.findById(userId))?.passwordHash ?? '';
    } finally {
      await storage.close();
    }
  };

  it("sets a person's password from a flag, or from stdin", async () => {
    const userId = await createUser();
    const set = await run('user', 'set-password', '--user', 'linked', '--password', 'a new one!');
    expect({ code: set.code, out: set.json() }).toEqual({
      code: 0,
      out: { user_id: userId, username: 'linked', password_set: true },
    });
    expect(await verifyPassword('a new one!', await storedHash(userId))).toBe(true);

    // From stdin (out of `ps` and shell history), its final newline not part of it.
    const piped = capture('from stdin!\n');
    const argv = ['user', 'set-password', '--user', userId, '--password-stdin'];
    expect(await runCli([...argv, '--data-dir', dataDir()], {}, piped.io)).toBe(0);
    const hash = await storedHash(userId);
    expect(await verifyPassword('from stdin!', hash)).toBe(true);
    expect(await verifyPassword('a new one!', hash)).toBe(false);
  });

  it('refuses a short password and an unknown person in one line each', async () => {
    const userId = await createUser();
    const short = await run('user', 'set-password', '--user', userId, '--password', 'short');
    expect({ code: short.code, err: short.err }).toEqual({
      code: 2,
      err: 'guildhall: --password: Must be 8 or more in length.\n',
    });
    const nobody = await run(
      'user',
      'set-password',
      '--user',
      'nobody',
      '--password',
      'long enough',
    );
    expect({ code: nobody.code, err: nobody.err }).toEqual({
      code: 2,
      err: 'guildhall: no person with id or username nobody. `guildhall user create` makes one.\n',
    });
  });
});
