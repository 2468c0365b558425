import { describe, expect, it } from 'vitest';
import { useCliDataDir } from '../../../test/support/cliFixture.js';

describe('guildhall user connection add', () => {
  const { run } = useCliDataDir('guildhall-connections-');

  it('adds a connection to a person and prints it', async () => {
    const user = await run(
      'user',
      'create',
      '--username',
      'ann',
      '--email',
      'ann@example.test',
      '--password',
      'correct horse battery',
    );
    const { user_id } = JSON.parse(user.out) as { user_id: string };
    const added = await run(
      'user',
      'connection',
      'add',
      '--user',
      user_id,
      '--type',
      'riotgames',
      '--id',
      'ann#EUW',
      '--name',
      'Ann',
      '--verified',
    );
    expect(added.code, added.err).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({
      id: 'ann#EUW',
      type: 'riotgames',
      name: 'Ann',
      verified: true,
      show_activity: true,
      visibility: 0,
    });
  });

  it('has --help and explains bad input with exit code 2', async () => {
    const help = await run('user', 'connection', 'add', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: guildhall user connection add');
    expect((await run('user', 'connection', 'add', '--type', 'github')).err).toContain(
      'missing --user',
    );
    const badType = await run(
      'user',
      'connection',
      'add',
      '--user',
      '1',
      '--type',
      'x',
      '--id',
      'a',
    );
    expect(badType.code).toBe(2);
    expect(badType.err).toMatch(/^guildhall: --type: .+\.\n$/);
    const unknownUser = await run(
      'user',
      'connection',
      'add',
      '--user',
      '1',
      '--type',
      'github',
      '--id',
      'a',
    );
    expect(unknownUser.code).toBe(2);
    expect(unknownUser.err).toContain('Unknown User (code 10013)');
  });
});
