import { describe, expect, it } from 'vitest';
import { useCliDataDir } from '../../test/support/cliFixture.js';

describe('guildhall app identify-premium', () => {
  const { run, userAndApp } = useCliDataDir('guildhall-oauth-cli-');

  it('approves and withdraws the scope; refuses bad input', async () => {
    const { applicationId: application_id } = await userAndApp('op', 'Premium');
    const set = (approved: string, app = application_id) =>
      run('app', 'identify-premium', '--app', app, '--approved', approved);

    const approve = await set('true');
    expect(approve.code).toBe(0);
    expect(approve.json()).toEqual({ application_id, identify_premium_approved: true });
    const withdraw = await set('no');
    expect(withdraw.json()).toMatchObject({ identify_premium_approved: false });

    const bad = await set('maybe');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('--approved must be true or false');
    const unknown = await set('true', '123');
    expect(unknown.code).not.toBe(0);
    const help = await run('app', 'identify-premium', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage');
  });
});
