/**
 * @module rpc/connectionAuth: the token one RPC connection AUTHENTICATEd with (rpc/connection.ts),
 * checked again with the platform (GET /oauth2/@me) every `authCheckMs` while the connection
 * lives and before the commands that act for the person: a token revoked since (the person
 * removed the app, or it expired) ends the connection with 4003.
 */
import { RpcCloseCodes, RpcErrorCodes } from '@guildhall/protocol';
import type { RpcAuth } from './commands.js';
import { PlatformRequestError, type PlatformApi } from './platformApi.js';
import { RpcError } from './types.js';

export interface ConnectionAuthDeps {
  api: PlatformApi;
  /** How often the token is checked again while the connection lives. */
  authCheckMs: number;
  /** Closes the connection with `{code, message}` (the token was revoked). */
  close(code: number, message: string): void;
}

/** One connection's AUTHENTICATE token and its periodic check. */
export class ConnectionAuth {
  #auth: RpcAuth | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;
  readonly #deps: ConnectionAuthDeps;

  constructor(deps: ConnectionAuthDeps) {
    this.#deps = deps;
  }

  /** The token AUTHENTICATE granted, or null before it. */
  get auth(): RpcAuth | null {
    return this.#auth;
  }

  /** Holds the token AUTHENTICATE granted and starts checking it (once per connection). */
  set(auth: RpcAuth): void {
    this.#auth = auth;
    if (this.#timer !== null) return;
    this.#timer = setInterval(() => {
      this.verify().catch(() => undefined);
    }, this.#deps.authCheckMs);
    this.#timer.unref();
  }

  /**
   * Asks the platform whether the token still holds: a revoked one closes the connection with
   * 4003 and fails the command that asked with INVALID_TOKEN.
   */
  async verify(): Promise<void> {
    const auth = this.#auth;
    if (auth === null) return;
    try {
      await this.#deps.api.getAsBearer('/oauth2/@me', auth.accessToken);
    } catch (err) {
      if (err instanceof PlatformRequestError && err.status === 401) {
        this.#deps.close(RpcCloseCodes.TOKEN_REVOKED, 'The access token was revoked.');
        throw new RpcError(RpcErrorCodes.INVALID_TOKEN, 'The access token was revoked.');
      }
      throw err;
    }
  }

  /** The connection closed: no more checks. */
  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }
}
