/**
 * @module rpc/run: a running daemon for one person's session token, as `guildhall rpc` and
 * `guildhall start --rpc` start it: the person checked with the token (GET /users/@me), the
 * gateway session that carries the presence, and the socket.
 */
import { createConsent, type Ask, type ConsentMode } from './consent.js';
import { startRpcDaemon, type RpcDaemon, type RpcDaemonOptions } from './daemon.js';
import { PlatformApi, PlatformRequestError } from './platformApi.js';
import { PresenceLink, type PresenceLinkOptions } from './presenceLink.js';
import type { RpcUser } from './types.js';

export interface RunRpcOptions {
  /** The API base with its version. */
  apiBase: string;
  /** The person's session token. */
  token: string;
  /** Where the token came from, for the messages (`the token file /home/ada/token`). */
  tokenSource: string;
  consent: ConsentMode;
  ask: Ask | null;
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  limits?: RpcDaemonOptions['limits'];
  /** The local WebSocket's ports (default 6463–6472; [] serves IPC only). */
  wsPorts?: readonly number[];
  /** The gateway's WebSocket constructor (tests). */
  WebSocket?: PresenceLinkOptions['WebSocket'];
}

export interface RunningRpc {
  daemon: RpcDaemon;
  user: RpcUser;
  /** Resolves with a reason when the session ends for good (token revoked). */
  fatal: Promise<string>;
  /**
   * Resolves once the person's gateway session is READY the first time. The daemon listens
   * before that (the session opens in the background and retries while the gateway is away);
   * the person's events that happen before it are not seen.
   */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** A failure to start, with what to do next in its message. */
export class RpcStartError extends Error {
  override readonly name = 'RpcStartError';
}

async function whoAmI(api: PlatformApi, options: RunRpcOptions): Promise<RpcUser> {
  try {
    return await api.get<RpcUser>('/users/@me');
  } catch (err) {
    if (err instanceof PlatformRequestError && err.status === 401) {
      throw new RpcStartError(
        `the platform refused ${options.tokenSource} (401): log in again (the web client, or \`guildhall user login-link\`) and write the new session token there.`,
      );
    }
    if (err instanceof PlatformRequestError) {
      throw new RpcStartError(
        `GET ${options.apiBase}/users/@me answered ${err.status} (${err.detail}): check --api-url.`,
      );
    }
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new RpcStartError(
      `cannot reach the platform at ${options.apiBase} (${cause}): start it (\`guildhall start\`) or fix --api-url.`,
    );
  }
}

/** Starts the daemon for the person whose session token is given. */
export async function runRpc(options: RunRpcOptions): Promise<RunningRpc> {
  const api = new PlatformApi({ apiBase: options.apiBase, sessionToken: options.token });
  const user = await whoAmI(api, options);
  if (user.bot === true) {
    throw new RpcStartError(`${options.tokenSource} holds a bot's token: RPC runs for a person.`);
  }
  let endFatal: (reason: string) => void = () => undefined;
  const fatal = new Promise<string>((resolve) => {
    endFatal = resolve;
  });
  const link = new PresenceLink({
    apiBase: options.apiBase,
    token: options.token,
    log: options.log,
    onFatal: endFatal,
    WebSocket: options.WebSocket,
  });
  await link.start();
  let daemon: RpcDaemon;
  try {
    daemon = await startRpcDaemon({
      api,
      publisher: link,
      user,
      consent: createConsent(options.consent, options.ask, options.log),
      env: options.env,
      log: options.log,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.wsPorts === undefined ? {} : { wsPorts: options.wsPorts }),
    });
  } catch (err) {
    link.stop();
    throw new RpcStartError((err as Error).message);
  }
  return {
    daemon,
    user,
    fatal,
    ready: link.ready,
    close: async () => {
      await daemon.close();
      link.stop();
    },
  };
}
