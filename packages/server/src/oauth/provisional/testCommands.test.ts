import { generateKeyPairSync } from 'node:crypto';
import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { useCliDataDir } from '../../../test/support/cliFixture.js';

function pems() {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicKey: pair.publicKey,
    publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

describe('guildhall identity commands', () => {
  const { run, runWithStdin, userAndApp } = useCliDataDir('guildhall-cli-identity-');

  it('puts a provider in test mode and issues a credential signed with the piped key', async () => {
    const { applicationId } = await userAndApp('studio', 'racing game');
    const key = pems();
    const enabled = await runWithStdin(
      key.publicPem,
      ...['identity', 'test-mode', '--app', applicationId, '--provider', 'steam'],
      '--public-key-stdin',
    );
    expect(enabled.code).toBe(0);
    expect(enabled.json()).toEqual({
      application_id: applicationId,
      provider: 'steam',
      mode: 'test',
      external_auth_types: ['STEAM_SESSION_TICKET'],
    });

    const issued = await runWithStdin(
      key.privatePem,
      ...['identity', 'issue', '--app', applicationId, '--provider', 'steam'],
      ...['--user', '76561197960287930', '--name', 'Gordon', '--ttl', '120', '--key-stdin'],
    );
    expect(issued.code).toBe(0);
    const out = issued.json();
    expect(out).toMatchObject({
      external_auth_type: 'STEAM_SESSION_TICKET',
      external_user_id: '76561197960287930',
    });
    const { payload } = await jwtVerify(out['external_auth_token'] as string, key.publicKey, {
      issuer: 'guildhall-test-identity',
      audience: applicationId,
    });
    expect(payload).toMatchObject({
      sub: '76561197960287930',
      provider: 'steam',
      preferred_username: 'Gordon',
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(120);
  });

  it('refuses a key that is not the registered one, a provider off, and bad flags', async () => {
    const { applicationId } = await userAndApp('studio2', 'puzzle game');
    const key = pems();
    const issue = (stdin: string, ...extra: string[]) =>
      runWithStdin(
        stdin,
        ...['identity', 'issue', '--app', applicationId, '--user', 'p1', '--key-stdin'],
        ...extra,
      );
    const off = await issue(key.privatePem, '--provider', 'apple');
    expect(off.code).toBe(2);
    expect(off.err).toContain('530000');
    await runWithStdin(
      key.publicPem,
      ...['identity', 'test-mode', '--app', applicationId, '--provider', 'apple'],
      '--public-key-stdin',
    );
    const wrong = await issue(pems().privatePem, '--provider', 'apple');
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('Not the private key of the public key registered for apple');
    const garbage = await issue('garbage', '--provider', 'apple');
    expect(garbage.code).toBe(2);
    expect(garbage.err).toContain('Not a readable private key');
    const provider = await issue(key.privatePem, '--provider', 'xbox');
    expect(provider.code).toBe(2);
    expect(provider.err).toContain('--provider takes steam, epic, unity, apple, playstation');
    const ttl = await issue(key.privatePem, '--provider', 'apple', '--ttl', '999999');
    expect(ttl.err).toContain('--ttl');
    const noKey = await run(
      ...['identity', 'issue', '--app', applicationId, '--user', 'p1', '--provider', 'apple'],
    );
    expect(noKey.code).toBe(2);
    expect(noKey.err).toContain('missing --key-stdin');
  });

  it('prints its usage with --help', async () => {
    const help = await run('identity', 'issue', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain(
      'Usage: guildhall identity issue --app APPLICATION_ID --provider steam|epic|unity|apple|playstation --user EXTERNAL_ID --key-stdin',
    );
    const group = await run('identity', '--help');
    expect(group.out).toContain('guildhall identity test-mode');
  });
});
