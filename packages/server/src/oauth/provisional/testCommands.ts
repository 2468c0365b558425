import type { AdminCommand } from '../../adminCommand.js';
import { requireFlag, UsageError } from '../../cliFlags.js';
import { IDENTITY_PROVIDERS, type IdentityProvider } from '../../storage/index.js';
import { MAX_EXTERNAL_ID_LENGTH } from './schemas.js';
import type { ProvisionalService } from './service.js';
import { DEFAULT_TEST_TTL_SECONDS, PROVIDER_AUTH_TYPES } from './testIdentity.js';

/** The longest a test credential may last: a day, far under the 7-day age limit. */
const MAX_TTL_SECONDS = 86_400;

function providerFlag(flags: Map<string, string>, usage: string): IdentityProvider {
  const raw = requireFlag(flags, 'provider', usage).toLowerCase();
  const provider = IDENTITY_PROVIDERS.find((p) => p === raw);
  if (provider === undefined) {
    throw new UsageError(`--provider takes ${IDENTITY_PROVIDERS.join(', ')}, not "${raw}".`);
  }
  return provider;
}

/** A PEM piped in, with its `--NAME-stdin` switch required. */
async function pemFromStdin(
  name: string,
  run: { flags: Map<string, string>; io: { readStdin(): Promise<string> }; usage: string },
): Promise<string> {
  if (!run.flags.has(`${name}-stdin`)) {
    throw new UsageError(`missing --${name}-stdin.\nUsage: ${run.usage}`);
  }
  const pem = (await run.io.readStdin()).trim();
  if (pem === '') throw new UsageError(`--${name}-stdin read nothing: pipe a PEM file in.`);
  return pem;
}

function ttlFlag(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TEST_TTL_SECONDS;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_TTL_SECONDS) {
    throw new UsageError(`--ttl must be a number of seconds from 1 to ${MAX_TTL_SECONDS}.`);
  }
  return Number(raw);
}

/**
 * Operator commands of test identity providers (docs/provisional-accounts.md, Test identity
 * providers): registering a developer's key, and issuing credentials a game exchanges in CI.
 */
export const TEST_IDENTITY_COMMANDS: AdminCommand<{ provisional: ProvisionalService }>[] = [
  {
    name: 'identity test-mode',
    usage:
      'guildhall identity test-mode --public-key-stdin --app APPLICATION_ID --provider steam|epic|unity|apple|playstation < public.pem',
    summary:
      "Put an app's Steam, Epic, Unity, Apple or PlayStation sign-in in test mode: credentials signed with this public key's private key are accepted.",
    async run(app, flags, io) {
      const key = await app.services.provisional.saveTestKey({
        applicationId: requireFlag(flags, 'app', this.usage),
        ownerId: null,
        provider: providerFlag(flags, this.usage),
        publicKey: await pemFromStdin('public-key', { flags, io, usage: this.usage }),
      });
      return {
        application_id: key.applicationId,
        provider: key.provider,
        mode: 'test',
        external_auth_types: PROVIDER_AUTH_TYPES[key.provider],
      };
    },
  },
  {
    name: 'identity issue',
    usage:
      'guildhall identity issue --app APPLICATION_ID --provider steam|epic|unity|apple|playstation --user EXTERNAL_ID --key-stdin [--name DISPLAY_NAME] [--ttl SECONDS] < private.pem',
    summary:
      'Issue a test credential for an external user of a provider in test mode, signed with the private key piped in; exchange it at POST /partner-sdk/token.',
    async run(app, flags, io) {
      const subject = requireFlag(flags, 'user', this.usage);
      if (subject.length > MAX_EXTERNAL_ID_LENGTH) {
        throw new UsageError(`--user is at most ${MAX_EXTERNAL_ID_LENGTH} characters.`);
      }
      const name = flags.get('name') ?? null;
      if (name !== null && (name.length < 1 || name.length > 32)) {
        throw new UsageError('--name is 1 to 32 characters.');
      }
      const provider = providerFlag(flags, this.usage);
      const issued = await app.services.provisional.issueTestCredential({
        applicationId: requireFlag(flags, 'app', this.usage),
        provider,
        subject,
        preferredName: name,
        ttlSeconds: ttlFlag(flags.get('ttl')),
        privateKeyPem: await pemFromStdin('key', { flags, io, usage: this.usage }),
      });
      return {
        external_auth_type: PROVIDER_AUTH_TYPES[provider][0],
        external_auth_token: issued.token,
        external_user_id: issued.identity.subject,
        expires_at: new Date(issued.expiresAt).toISOString(),
      };
    },
  },
];
