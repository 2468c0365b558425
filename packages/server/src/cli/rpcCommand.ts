/**
 * @module cli/rpcCommand: `guildhall rpc`, the local client's IPC side for a person
 * (docs/rpc.md), and the `--rpc` option of `guildhall start`, which runs it for the demo
 * developer beside the platform.
 */
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../cliFlags.js';
import {
  CONSENT_MODES,
  apiBaseOf,
  isConsentMode,
  runRpc,
  type Ask,
  type ConsentMode,
  type RunningRpc,
} from '../rpc/index.js';

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

/** The token in the file; a warning line when others may read the file. */
function readTokenFile(file: string, warn: (line: string) => void): string {
  let text: string;
  try {
    const mode = statSync(file).mode;
    if ((mode & 0o077) !== 0 && process.platform !== 'win32') {
      warn(
        `guildhall rpc: warning: ${file} can be read by others (mode ${(mode & 0o777).toString(8)}): run chmod 600 ${file}.\n`,
      );
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new UsageError(`cannot read the token file ${file} (${code}).`);
  }
  const token = text.trim();
  if (token === '' || /\s/.test(token)) {
    throw new UsageError(`the token file ${file} must hold one session token and nothing else.`);
  }
  return token;
}

function apiBaseOrUsage(url: string): string {
  try {
    return apiBaseOf(url);
  } catch {
    throw new UsageError(`--api-url must be an http(s) URL such as http://127.0.0.1:8080.`);
  }
}

/** The startup line. */
export function rpcBanner(running: RunningRpc, consent: ConsentMode): string {
  const { user, daemon } = running;
  return `RPC: listening on ${daemon.path} for ${user.username} (${user.id}); consent: ${consent}. Clients find it through $XDG_RUNTIME_DIR/$TMPDIR (docs/rpc.md).\n`;
}

export interface RpcCommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stopSignal: Promise<string>;
  ask?: Ask | undefined;
}

/** Runs `guildhall rpc` until a signal (exit 0) or until the session ends for good (exit 1). */
export async function runRpcCommand(
  flags: Map<string, string>,
  env: Record<string, string | undefined>,
  io: RpcCommandIo,
): Promise<number> {
  const apiUrl = flags.get('api-url');
  const tokenFile = flags.get('token-file');
  if (apiUrl === undefined || tokenFile === undefined) {
    throw new UsageError(
      `missing ${apiUrl === undefined ? '--api-url' : '--token-file'}.\nUsage: ${RPC_USAGE}`,
    );
  }
  const ask = io.ask ?? null;
  const consent = consentMode(flags.get('consent'), ask, '--consent');
  const apiBase = apiBaseOrUsage(apiUrl);
  const token = readTokenFile(tokenFile, io.stderr);
  const running = await runRpc({
    apiBase,
    token,
    tokenSource: `the token in ${tokenFile}`,
    consent,
    ask,
    env,
    log: (line) => {
      io.stderr(`${line}\n`);
    },
  });
  io.stdout(rpcBanner(running, consent));
  const outcome = await Promise.race([
    io.stopSignal.then(() => null),
    running.fatal.then((reason) => reason),
  ]);
  await running.close();
  if (outcome === null) return 0;
  io.stderr(`guildhall rpc: ${outcome}.\n`);
  return 1;
}
