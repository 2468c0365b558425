/**
 * @module rpc/connection: one RPC client, over either transport (rpc/ipcTransport.ts: frames on
 * the socket; rpc/wsTransport.ts: the local WebSocket). The first frame must be a HANDSHAKE
 * `{v: 1, client_id}` naming an application (else CLOSE 4004 or 4000); READY follows. Then PING
 * is answered with PONG and the same payload, CLOSE ends the connection, and each FRAME is a
 * command answered with its `nonce`. A frame the daemon cannot read, a frame before the
 * handshake, or too many frames in a window close the connection with a CLOSE `{code, message}`
 * (docs/rpc.md, Close codes); the daemon's other connections go on.
 */
import {
  IpcOpcodes,
  RPC_VERSION,
  RpcCloseCodes,
  RpcErrorCodes,
  isSnowflake,
  type RpcErrorData,
} from '@guildhall/protocol';
import type { PendingJoinRequest } from './commandArgs.js';
import { runCommand, type CommandContext } from './commands.js';
import { ConnectionAuth } from './connectionAuth.js';
import type { IpcFrame, IpcOpcode } from './framing.js';
import type { LocalClient } from './localClient.js';
import { PlatformRequestError, type PlatformApi } from './platformApi.js';
import {
  RpcError,
  type ConsentDecider,
  type RpcApplication,
  type RpcClientConfig,
  type RpcUser,
} from './types.js';

/** How many frames a connection may send in one window before it is closed with 4002. */
export interface RateLimit {
  frames: number;
  windowMs: number;
}

/** How a connection's frames leave: the IPC socket or the WebSocket. */
export interface RpcTransport {
  send(op: IpcOpcode, payload: unknown): void;
  /** Sends the close `{code, message}` and hangs up. */
  close(code: number, message: string): void;
}

/** What every connection shares: the daemon's parts. */
export interface ConnectionDeps {
  /** The person's client: voice states, op 4, voice settings, presences. */
  local: LocalClient;
  /** How often an AUTHENTICATE token is checked again while the connection lives. */
  authCheckMs: number;
  api: PlatformApi;
  user: RpcUser;
  config: RpcClientConfig;
  cdnBase: string;
  consent: ConsentDecider;
  rateLimit: RateLimit;
  maxFrameBytes: number;
  handshakeTimeoutMs: number;
  /** Looks up the application of a client id; null when there is none. */
  findApplication(clientId: string): Promise<RpcApplication | null>;
  /** Sets or clears a connection's activity (the daemon publishes them all). */
  setActivity(connection: RpcConnection, activity: Record<string, unknown> | null): void;
  log(line: string): void;
  now(): number;
}

type State = 'handshake' | 'pending' | 'ready' | 'closed';

export class RpcConnection {
  #state: State = 'handshake';
  #clientId: string | null = null;
  #application: RpcApplication | null = null;
  #activity: Record<string, unknown> | null = null;
  #windowStart = 0;
  #windowFrames = 0;
  /** Frames that arrived while the handshake's application lookup ran, handled after it. */
  readonly #waiting: IpcFrame[] = [];
  #handshakeTimer: ReturnType<typeof setTimeout> | null;
  /** The AUTHENTICATE token, checked again while the connection lives. */
  readonly #auth: ConnectionAuth;

  readonly transport: RpcTransport;
  readonly deps: ConnectionDeps;
  /** The events this client subscribed to (`EVT` or `EVT:id`). */
  readonly subscriptions = new Set<string>();
  /** The join requests this game heard of and has not answered. */
  readonly joinRequests = new Map<string, PendingJoinRequest>();

  constructor(transport: RpcTransport, deps: ConnectionDeps) {
    this.transport = transport;
    this.deps = deps;
    this.#auth = new ConnectionAuth({
      api: deps.api,
      authCheckMs: deps.authCheckMs,
      close: (code, message) => {
        this.close(code, message);
      },
    });
    this.#handshakeTimer = setTimeout(() => {
      this.close(RpcCloseCodes.CLOSE_UNSUPPORTED, 'No HANDSHAKE in time.');
    }, deps.handshakeTimeoutMs);
    this.#handshakeTimer.unref();
  }

  get clientId(): string | null {
    return this.#clientId;
  }

  /** One frame from the transport; false once the connection is closed. */
  receive(frame: IpcFrame): boolean {
    if (this.#isClosed()) return false;
    if (!this.#counted()) return false;
    this.#onFrame(frame);
    return !this.#isClosed();
  }

  /** Sends an event (`cmd: "DISPATCH"`) once the handshake is done. */
  dispatch(evt: string, data: unknown): void {
    if (this.#state !== 'ready') return;
    this.#send(IpcOpcodes.FRAME, { cmd: 'DISPATCH', evt, nonce: null, data });
  }

  /** Counts a frame in the rate window; false (and the connection closed) past the limit. */
  #counted(): boolean {
    const now = this.deps.now();
    if (now - this.#windowStart >= this.deps.rateLimit.windowMs) {
      this.#windowStart = now;
      this.#windowFrames = 0;
    }
    this.#windowFrames += 1;
    if (this.#windowFrames <= this.deps.rateLimit.frames) return true;
    this.close(
      RpcCloseCodes.RATELIMITED,
      `More than ${this.deps.rateLimit.frames} frames in ${this.deps.rateLimit.windowMs} ms.`,
    );
    return false;
  }

  #onFrame(frame: IpcFrame): void {
    if (this.#state === 'pending') {
      this.#waiting.push(frame);
      return;
    }
    if (this.#state === 'handshake') {
      if (frame.op !== IpcOpcodes.HANDSHAKE) {
        this.close(RpcCloseCodes.CLOSE_UNSUPPORTED, 'The first frame must be a HANDSHAKE.');
        return;
      }
      void this.#handshake(frame.payload);
      return;
    }
    switch (frame.op) {
      case IpcOpcodes.PING:
        this.#send(IpcOpcodes.PONG, frame.payload);
        return;
      case IpcOpcodes.PONG:
        return;
      case IpcOpcodes.CLOSE:
        this.close(RpcCloseCodes.CLOSE_NORMAL, 'Closed by the client.');
        return;
      case IpcOpcodes.HANDSHAKE:
        this.close(RpcCloseCodes.CLOSE_UNSUPPORTED, 'Already handshaken.');
        return;
      case IpcOpcodes.FRAME:
        void this.#command(frame.payload);
    }
  }

  async #handshake(payload: unknown): Promise<void> {
    const { v, client_id: clientId } = (payload ?? {}) as { v?: unknown; client_id?: unknown };
    if (v !== RPC_VERSION && v !== String(RPC_VERSION)) {
      this.close(RpcCloseCodes.INVALID_VERSION, `Invalid version: ${String(v)}`);
      return;
    }
    if (typeof clientId !== 'string' || !isSnowflake(clientId)) {
      this.close(RpcCloseCodes.INVALID_CLIENTID, 'Invalid Client ID');
      return;
    }
    this.#state = 'pending';
    this.#clearHandshakeTimer();
    let application: RpcApplication | null;
    try {
      application = await this.deps.findApplication(clientId);
    } catch (err) {
      this.deps.log(`rpc: looking up client ${clientId} failed: ${describe(err)}`);
      this.close(RpcCloseCodes.CLOSE_ABNORMAL, 'The platform could not be reached.');
      return;
    }
    if (this.#isClosed()) return;
    if (application === null) {
      this.close(RpcCloseCodes.INVALID_CLIENTID, 'Invalid Client ID');
      return;
    }
    this.#clientId = clientId;
    this.#application = application;
    this.#state = 'ready';
    this.#send(IpcOpcodes.FRAME, {
      cmd: 'DISPATCH',
      evt: 'READY',
      nonce: null,
      data: { v: RPC_VERSION, config: this.deps.config, user: this.deps.user },
    });
    for (const frame of this.#waiting.splice(0)) {
      if (this.#isClosed()) return;
      this.#onFrame(frame);
    }
  }

  async #command(payload: unknown): Promise<void> {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      this.#answerError('', null, invalid(RpcErrorCodes.INVALID_PAYLOAD, 'Not an object.'));
      return;
    }
    const { cmd, nonce, evt, args } = payload as Record<string, unknown>;
    const echoed = typeof nonce === 'string' ? nonce : null;
    if (typeof cmd !== 'string' || cmd === '' || cmd === 'DISPATCH') {
      const named = typeof cmd === 'string' ? cmd : '';
      this.#answerError(named, echoed, invalid(RpcErrorCodes.INVALID_COMMAND, 'Invalid command.'));
      return;
    }
    const argObject =
      typeof args === 'object' && args !== null && !Array.isArray(args)
        ? (args as Record<string, unknown>)
        : {};
    try {
      const result = await runCommand(this.#context(), {
        cmd,
        args: argObject,
        evt: typeof evt === 'string' ? evt : null,
      });
      this.#send(IpcOpcodes.FRAME, {
        cmd,
        evt: result.evt ?? null,
        nonce: echoed,
        data: result.data,
      });
    } catch (err) {
      if (err instanceof RpcError) {
        this.#answerError(cmd, echoed, err);
        return;
      }
      this.deps.log(`rpc: ${cmd} failed: ${describe(err)}`);
      this.#answerError(cmd, echoed, invalid(RpcErrorCodes.UNKNOWN_ERROR, 'The command failed.'));
    }
  }

  #context(): CommandContext {
    const application = this.#application;
    const clientId = this.#clientId;
    if (application === null || clientId === null) throw new TypeError('Not handshaken.');
    return {
      clientId,
      application,
      api: this.deps.api,
      user: this.deps.user,
      cdnBase: this.deps.cdnBase,
      consent: this.deps.consent,
      auth: this.#auth.auth,
      setAuth: (auth) => {
        this.#auth.set(auth);
      },
      setActivity: (activity) => {
        if (this.#isClosed()) return;
        this.#activity = activity;
        this.deps.setActivity(this, activity);
      },
      activity: () => this.#activity,
      dispatch: (dispatched, data) => {
        this.dispatch(dispatched, data);
      },
      local: this.deps.local,
      subscriptions: this.subscriptions,
      joinRequests: this.joinRequests,
      verifyAuth: () => this.#auth.verify(),
    };
  }

  #answerError(cmd: string, nonce: string | null, error: RpcErrorData): void {
    const data: RpcErrorData = { code: error.code, message: error.message };
    this.#send(IpcOpcodes.FRAME, { cmd, evt: 'ERROR', nonce, data });
  }

  #send(op: IpcOpcode, payload: unknown): void {
    if (this.#isClosed()) return;
    this.transport.send(op, payload);
  }

  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #clearHandshakeTimer(): void {
    if (this.#handshakeTimer !== null) clearTimeout(this.#handshakeTimer);
    this.#handshakeTimer = null;
  }

  /** Sends the close `{code, message}` and hangs up. */
  close(code: number, message: string): void {
    if (this.#isClosed()) return;
    this.#clearHandshakeTimer();
    this.#auth.stop();
    this.transport.close(code, message);
    this.#state = 'closed';
    this.#waiting.length = 0;
  }
}

function invalid(code: number, message: string): RpcErrorData {
  return { code, message };
}

function describe(err: unknown): string {
  if (err instanceof PlatformRequestError) return `${err.message} (${err.detail})`;
  return err instanceof Error ? err.message : String(err);
}
