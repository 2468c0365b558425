import { describe, expect, it } from 'vitest';
import { useCliDataDir } from '../../../test/support/cliFixture.js';

describe('guildhall provisional-account operator commands', () => {
  const { run } = useCliDataDir('guildhall-cli-provisional-');
  const user = async (name: string) =>
    (
      await run(
        'user',
        'create',
        '--username',
        name,
        '--email',
        `${name}@example.test`,
        '--password',
        'long enough password',
      )
    ).json()['user_id'] as string;
  const app = async (owner: string, name: string) =>
    (await run('app', 'create', '--owner', owner, '--name', name)).json()[
      'application_id'
    ] as string;

  it('bans and unbans an account', async () => {
    const player = await user('player');
    const banned = await run(
      'user',
      'ban',
      '--user',
      player,
      '--reason',
      'cheats',
      '--duration',
      '60',
    );
    expect(banned.code).toBe(0);
    expect(banned.json()).toMatchObject({ user_id: player, provisional_accounts: [] });
    expect(banned.json()['expires_at']).toEqual(expect.any(String));
    expect((await run('user', 'unban', '--user', player)).json()).toEqual({
      user_id: player,
      banned: false,
    });
    const again = await run('user', 'unban', '--user', player);
    expect(again.code).toBe(2);
    expect(again.err).toContain('is not banned');
    const bad = await run('user', 'ban', '--user', player, '--duration', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--duration');
  });

  it('approves and withdraws a publisher link; imports a legacy OIDC provider', async () => {
    const owner = await user('publisher');
    const parent = await app(owner, 'parent game');
    const child = await app(owner, 'child game');
    const linked = await run('app', 'link-child', '--parent', parent, '--child', child);
    expect(linked.json()).toMatchObject({ parent_id: parent, child_id: child });
    expect((await run('app', 'unlink-child', '--parent', parent, '--child', child)).code).toBe(0);
    expect((await run('app', 'unlink-child', '--parent', parent, '--child', child)).code).toBe(2);
    const imported = await run(
      'app',
      'oidc-import',
      '--app',
      parent,
      '--issuer',
      'https://idp',
      '--client-id',
      'game',
    );
    expect(imported.json()).toMatchObject({ issuer: 'https://idp', validation: 'legacy' });
  });

  it('documents each command with --help', async () => {
    for (const command of [
      ['user', 'ban'],
      ['user', 'unban'],
      ['app', 'link-child'],
      ['app', 'unlink-child'],
      ['app', 'oidc-import'],
    ]) {
      const help = await run(...command, '--help');
      expect(help.code).toBe(0);
      expect(help.out).toContain(`Usage: guildhall ${command.join(' ')}`);
    }
    expect((await run('--help')).out).toContain('user ban');
  });
});
