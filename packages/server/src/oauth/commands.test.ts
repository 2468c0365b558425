import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/index.js';

describe('guildhall app identify-premium', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-oauth-cli-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  const run = async (...argv: string[]) => {
    let out = '';
    let err = '';
    const code = await runCli(
      [...argv, '--data-dir', dataDir],
      {},
      {
        stdout: (t: string) => (out += t),
        stderr: (t: string) => (err += t),
        stopSignal: new Promise<string>(() => undefined),
        readStdin: () => Promise.resolve(''),
      },
    );
    return { code, out, err };
  };

  it('approves and withdraws the scope; refuses bad input', async () => {
    const user = await run(
      'user',
      'create',
      '--username',
      'op',
      '--email',
      'op@example.test',
      '--password',
      'long enough password',
    );
    const { user_id } = JSON.parse(user.out) as { user_id: string };
    const app = await run('app', 'create', '--owner', user_id, '--name', 'Premium');
    const { application_id } = JSON.parse(app.out) as { application_id: string };

    const approve = await run(
      'app',
      'identify-premium',
      '--app',
      application_id,
      '--approved',
      'true',
    );
    expect(approve.code).toBe(0);
    expect(JSON.parse(approve.out)).toEqual({ application_id, identify_premium_approved: true });
    const withdraw = await run(
      'app',
      'identify-premium',
      '--app',
      application_id,
      '--approved',
      'no',
    );
    expect(JSON.parse(withdraw.out)).toMatchObject({ identify_premium_approved: false });

    const bad = await run(
      'app',
      'identify-premium',
      '--app',
      application_id,
      '--approved',
      'maybe',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('--approved must be true or false');
    const unknown = await run('app', 'identify-premium', '--app', '123', '--approved', 'true');
    expect(unknown.code).not.toBe(0);
    const help = await run('app', 'identify-premium', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage');
  });
});
