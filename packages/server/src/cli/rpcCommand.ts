/**
 * @module cli/rpcCommand: `guildhall rpc`, the local client's IPC side for a person
 * (docs/rpc.md), and the `--rpc` option of `guildhall start`, which runs it for the demo
 * developer beside the platform. Loaded only when one of them runs (it brings the Social SDK's
 * gateway client); its usage and help are in cli/rpcUsage.ts.
 */
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../cliFlags.js';
import { apiBaseOf, runRpc, type Ask, type ConsentMode, type RunningRpc } from '../rpc/index.js';
import { RPC_USAGE, consentMode } from './rpcUsage.js';

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
  const ws = daemon.wsPort === null ? '' : ` and ws://127.0.0.1:${daemon.wsPort}`;
  return `RPC: listening on ${daemon.path}${ws} for ${user.username} (${user.id}); consent: ${consent}. Clients find it through $XDG_RUNTIME_DIR/$TMPDIR (docs/rpc.md).\n`;
}

export interface RpcCommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stopSignal: Promise<string>;
  ask?: Ask | undefined;
}

/** `start --rpc`: the daemon for the demo developer, beside the platform. */
export async function startDemoRpc(
  run: { apiBase: string; userToken: string; consent: string | undefined },
  env: Record<string, string | undefined>,
  io: RpcCommandIo,
): Promise<RunningRpc> {
  const ask = io.ask ?? null;
  const consent = consentMode(run.consent, ask, '--rpc-consent');
  const running = await runRpc({
    apiBase: run.apiBase,
    token: run.userToken,
    tokenSource: "the demo developer's token (demo.json)",
    consent,
    ask,
    env,
    log: (line) => {
      io.stderr(`${line}\n`);
    },
  });
  io.stdout(rpcBanner(running, consent));
  return running;
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
