/**
 * @module cli/secretsCommand: `guildhall secrets rotate`, which prints its steps on stderr and its
 * result on stdout in one line (secretRotation.ts does the work).
 */
import { rotateSecrets, type RotationResult } from '../app.js';
import type { Config } from '../config.js';

export const SECRETS_ROTATE_USAGE = 'guildhall secrets rotate [--stage]';
export const SECRETS_ROTATE_SUMMARY =
  'Make a new secret key current, seal every stored secret with it, keep the old one a while.';

/** `guildhall secrets rotate --help`. */
export function secretsRotateHelp(configHelp: readonly string[]): string {
  return [
    `Usage: ${SECRETS_ROTATE_USAGE}`,
    '',
    SECRETS_ROTATE_SUMMARY,
    '',
    'The new key seals and signs from now on; the old one still opens what it sealed and',
    'verifies what it signed (voice tokens) for --secret-key-retire-hours (default 24), then',
    'retires. Every stored secret (signing keys, webhook tokens, the attachment-signing secret)',
    'is sealed again with the new key. Restart every node afterwards (docs/operations.md).',
    '',
    'With the key file (<data-dir>/secret.key) the new key is written there. With several',
    'nodes, stage it first so that every node knows it before any seals with it:',
    '  --stage               Add a new key as "next" (it opens and verifies, seals nothing);',
    '                        restart every node, then run `guildhall secrets rotate`.',
    'With GUILDHALL_SECRET_KEY, add "<new key> next" to it on every node and restart them;',
    'this command then makes it current and prints the value to set everywhere.',
    '',
    'Options:',
    ...configHelp,
  ].join('\n');
}

/** The one line a rotation ends with. */
export function rotationLine(result: RotationResult): string {
  if (result.outcome === 'staged') {
    return `Staged key ${result.next} in ${result.path}: restart every node, then run \`guildhall secrets rotate\` to make it current.`;
  }
  const { current, previous, resealed } = result;
  const head = `Rotated: key ${current} seals and signs now; ${String(resealed)} stored secrets sealed again; key ${previous.key} opens and verifies until ${previous.until}.`;
  return result.path === null
    ? `${head} Set GUILDHALL_SECRET_KEY="${result.setting}" on every node and restart them.`
    : `${head} Restart every node to use ${result.path}.`;
}

/** Runs `guildhall secrets rotate` against the configured database; the exit code. */
export async function runSecretsRotate(
  config: Config,
  options: { stage: boolean },
  io: { stdout: (text: string) => void; stderr: (text: string) => void },
): Promise<number> {
  const result = await rotateSecrets(config, {
    stage: options.stage,
    progress: (line) => {
      io.stderr(`${line}\n`);
    },
  });
  io.stdout(`${rotationLine(result)}\n`);
  return 0;
}
