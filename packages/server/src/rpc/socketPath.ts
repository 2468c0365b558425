/**
 * @module rpc/socketPath: where the daemon listens (docs/rpc.md, The socket). On Linux and macOS,
 * `discord-ipc-{0..9}` in the first of `$XDG_RUNTIME_DIR`, `$TMPDIR`, `$TMP`, `$TEMP` that is
 * set, else `/tmp`, which is where RPC libraries look; on Windows, the named pipe
 * `\\?\pipe\discord-ipc-{n}`. The daemon takes the first free number: a socket file another live
 * client answers on is skipped, one left behind by a dead process (nobody answers) is removed
 * and reused. The socket file is made mode 0600: other accounts on the machine cannot connect.
 */
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { connect, type Server } from 'node:net';
import { join } from 'node:path';

/** How many sockets clients try: `discord-ipc-0` to `discord-ipc-9`. */
export const IPC_SOCKET_COUNT = 10;

/** The folder of the Unix sockets, from the environment (the first of the variables set). */
export function socketDirectory(env: Record<string, string | undefined>): string {
  for (const name of ['XDG_RUNTIME_DIR', 'TMPDIR', 'TMP', 'TEMP']) {
    const value = env[name];
    if (value !== undefined && value !== '') return value.replace(/(.)\/+$/, '$1');
  }
  return '/tmp';
}

/** The path of socket `n` on this platform. */
export function socketPath(
  n: number,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return `\\\\?\\pipe\\discord-ipc-${n}`;
  return join(socketDirectory(env), `discord-ipc-${n}`);
}

/** How long the probe of an existing socket may take; a socket that does not answer is live. */
const PROBE_TIMEOUT_MS = 2000;

/** Whether something accepts connections on a socket path (refused: a stale file). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    const timer = setTimeout(() => {
      probe.destroy();
      resolve(true);
    }, PROBE_TIMEOUT_MS);
    probe.once('connect', () => {
      clearTimeout(timer);
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

function listenOn(server: Server, path: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      resolve(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(null);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(path);
  });
}

/** A path that exists and is a socket (a stale one may be removed; anything else never is). */
function isSocketFile(path: string): boolean {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return false;
  }
}

/**
 * Listens on the first free `discord-ipc-{n}` and returns its path. Throws an Error that says
 * what to do when all ten are taken or the folder cannot hold a socket.
 */
export async function listenOnFreeSocket(
  server: Server,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): Promise<string> {
  let lastError: NodeJS.ErrnoException | null = null;
  for (let n = 0; n < IPC_SOCKET_COUNT; n++) {
    const path = socketPath(n, env, platform);
    let err = await listenOn(server, path);
    if (err?.code === 'EADDRINUSE' && platform !== 'win32' && isSocketFile(path)) {
      if (await answers(path)) continue;
      // Left behind by a process that died without removing it.
      unlinkSync(path);
      err = await listenOn(server, path);
    }
    if (err === null) {
      // Only the person may connect (Linux checks write permission on the socket file).
      if (platform !== 'win32') chmodSync(path, 0o600);
      return path;
    }
    if (err.code !== 'EADDRINUSE') throw socketError(path, err);
    lastError = err;
  }
  const where = platform === 'win32' ? 'named pipes' : `sockets in ${socketDirectory(env)}`;
  throw new Error(
    `all ${IPC_SOCKET_COUNT} discord-ipc ${where} are in use (${lastError?.code ?? 'EADDRINUSE'}): stop another RPC daemon or platform client, or set XDG_RUNTIME_DIR to another folder.`,
  );
}

function socketError(path: string, err: NodeJS.ErrnoException): Error {
  return new Error(
    `cannot listen on ${path} (${err.code ?? err.message}): check that the folder exists and is yours, or set XDG_RUNTIME_DIR to a folder that is.`,
  );
}
