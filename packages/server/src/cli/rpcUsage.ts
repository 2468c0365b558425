/**
 * @module cli/rpcUsage: the usage, help and consent flag of `guildhall rpc` (docs/rpc.md), apart
 * from the command itself (cli/rpcCommand.ts) so that `guildhall --help` does not load it.
 */
import { UsageError } from '../cliFlags.js';
import { CONSENT_MODES, isConsentMode, type Ask, type ConsentMode } from '../rpc/consent.js';

export const RPC_USAGE =
  'guildhall rpc --api-url URL --token-file FILE [--consent prompt|allow|deny]';

export const RPC_SUMMARY =
  'Serve RPC clients (discord-ipc-N sockets) for the person whose session token is in FILE.';

export function rpcHelp(): string {
  return [
    `Usage: ${RPC_USAGE}`,
    '',
    'Runs the local client side of RPC for one person: native apps (@xhayper/discord-rpc,',
    'discord-rpc…) connect to the socket discord-ipc-N (the first free N of 0..9) in the first of',
    '$XDG_RUNTIME_DIR, $TMPDIR, $TMP, $TEMP that is set, else /tmp. Their SET_ACTIVITY becomes',
    "the person's rich presence; their AUTHORIZE asks the person (see --consent). See docs/rpc.md.",
    '',
    'Options:',
    '  --api-url URL      The platform: its address (http://127.0.0.1:8080) or API URL (…/api/v10).',
    "  --token-file FILE  A file holding the person's session token (keep it mode 0600).",
    '  --consent MODE     prompt: ask on this terminal (the default when there is one);',
    '                     allow / deny: answer every AUTHORIZE without asking (CI, headless; the',
    '                     default without a terminal is deny). An authorization the person already',
    '                     gave that covers the scopes is never asked again.',
  ].join('\n');
}

/** The consent mode from the flag, or the default for this terminal. */
export function consentMode(value: string | undefined, ask: Ask | null, flag: string): ConsentMode {
  if (value === undefined) return ask === null ? 'deny' : 'prompt';
  if (!isConsentMode(value)) {
    throw new UsageError(`${flag} must be one of ${CONSENT_MODES.join(', ')}, not "${value}".`);
  }
  if (value === 'prompt' && ask === null) {
    throw new UsageError(
      `${flag} prompt needs a terminal to ask on: run it in one, or pass ${flag} allow or deny.`,
    );
  }
  return value;
}
