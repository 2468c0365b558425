/**
 * @module rpc/connection: one RPC client's socket. The first frame must be a HANDSHAKE
 * `{v: 1, client_id}` naming an application (else CLOSE 4004 or 4000); READY follows. Then PING
 * is answered with PONG and the same payload, CLOSE ends the connection, and each FRAME is a
 * command answered with its `nonce`. A frame the daemon cannot read, a frame before the
 * handshake, or too many frames in a window close the connection with a CLOSE `{code, message}`
 * (docs/rpc.md, Close codes); the daemon's other connections go on.
 */
import type { Socket } from 'node:net';
import {
  IpcOpcodes,
  RPC_VERSION,
  RpcCloseCodes,
  RpcErrorCodes,
  isSnowflake,
  type RpcErrorData,
} from '@guildhall/protocol';
import { runCommand, type CommandContext, type RpcAuth } from './commands.js';
import { FrameDecoder, FrameError, encodeFrame, type IpcFrame } from './framing.js';
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

/** What every connection shares: the daemon's parts. */
export interface ConnectionDeps {
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
  #auth: RpcAuth | null = null;
  readonly #decoder: FrameDecoder;
  #windowStart = 0;
  #windowFrames = 0;
  /** Frames that arrived while the handshake's application lookup ran, handled after it. */
  readonly #waiting: IpcFrame[] = [];
  #handshakeTimer: ReturnType<typeof setTimeout> | null;

  readonly socket: Socket;
  readonly deps: ConnectionDeps;

  constructor(socket: Socket, deps: ConnectionDeps) {
    this.socket = socket;
    this.deps = deps;
    this.#decoder = new FrameDecoder(deps.maxFrameBytes);
    socket.on('data', (chunk: Buffer) => {
      this.#onData(chunk);
    });
    socket.on('error', () => {
      // The close that follows ends the connection.
    });
    this.#handshakeTimer = setTimeout(() => {
      this.close(RpcCloseCodes.CLOSE_UNSUPPORTED, 'No HANDSHAKE in time.');
    }, deps.handshakeTimeoutMs);
    this.#handshakeTimer.unref();
  }

  get clientId(): string | null {
    return this.#clientId;
  }

  #onData(chunk: Buffer): void {
    if (this.#state === 'closed') return;
    let frames: IpcFrame[];
    try {
      frames = this.#decoder.push(chunk);
    } catch (err) {
      if (!(err instanceof FrameError)) throw err;
      this.close(err.closeCode, err.message);
      return;
    }
    for (const frame of frames) {
      if (!this.#counted()) return;
      this.#onFrame(frame);
      if (this.#isClosed()) return;
    }
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
      auth: this.#auth,
      setAuth: (auth) => {
        this.#auth = auth;
      },
      setActivity: (activity) => {
        if (!this.#isClosed()) this.deps.setActivity(this, activity);
      },
      dispatch: (dispatched, data) => {
        this.#send(IpcOpcodes.FRAME, { cmd: 'DISPATCH', evt: dispatched, nonce: null, data });
      },
    };
  }

  #answerError(cmd: string, nonce: string | null, error: RpcErrorData): void {
    const data: RpcErrorData = { code: error.code, message: error.message };
    this.#send(IpcOpcodes.FRAME, { cmd, evt: 'ERROR', nonce, data });
  }

  #send(op: (typeof IpcOpcodes)[keyof typeof IpcOpcodes], payload: unknown): void {
    if (this.#isClosed() || this.socket.destroyed) return;
    this.socket.write(encodeFrame(op, payload));
  }

  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #clearHandshakeTimer(): void {
    if (this.#handshakeTimer !== null) clearTimeout(this.#handshakeTimer);
    this.#handshakeTimer = null;
  }

  /** Sends CLOSE `{code, message}` and ends the socket. */
  close(code: number, message: string): void {
    if (this.#isClosed()) return;
    this.#clearHandshakeTimer();
    if (!this.socket.destroyed) {
      // Destroyed once the CLOSE is written, whether or not the client hangs up its side.
      this.socket.end(encodeFrame(IpcOpcodes.CLOSE, { code, message }), () => {
        this.socket.destroy();
      });
    }
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
