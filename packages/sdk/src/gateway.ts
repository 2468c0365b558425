/**
 * The client's gateway connection: HELLO, IDENTIFY with the player's token, heartbeats with
 * zombie detection, RESUME after a drop (with backoff), a fresh IDENTIFY after 4007/4009 or an
 * INVALID_SESSION that cannot resume, and a stop on the close codes no retry can fix (4004: the
 * token was refused or revoked). The heartbeat and the retry timers are gatewayTimers.ts.
 *
 * @module
 */
import { ClientError, ClientStatus } from './enums.js';
import { GatewayTimers } from './gatewayTimers.js';
import type { Http } from './http.js';
import type { Logger } from './log.js';

/** The WebSocket constructor of the platform: the browser's, or `ws` in Node. */
export type WebSocketConstructor = new (url: string) => WebSocket;

export interface GatewayOptions {
  http: Http;
  logger: Logger;
  WebSocket: WebSocketConstructor;
  /** The token IDENTIFY and RESUME send, or null when the client has none. */
  token: () => string | null;
  onStatus: (status: ClientStatus, error: ClientError, errorDetail: number) => void;
  onDispatch: (type: string, data: unknown) => void;
  properties: { os: string; browser: string; device: string };
}

interface Payload {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

const GatewayOp = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  Resume: 6,
  Reconnect: 7,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

/** Close codes after which reconnecting cannot help: the client stops and says why. */
const FATAL_CLOSE_CODES: Readonly<Record<number, string>> = {
  4004: 'the token was refused or has been revoked: authorize again, or pass a new token to updateToken()',
  4010: 'invalid shard',
  4011: 'sharding required',
  4012: 'invalid API version',
  4013: 'invalid intents',
  4014: 'disallowed intents',
};
/** Close codes after which the session cannot be resumed (a fresh IDENTIFY follows). */
const NEW_SESSION_CLOSE_CODES = new Set([4007, 4009]);
/** A close the client makes to reconnect: not 1000/1001, which would end the session. */
const RECONNECT_CLOSE_CODE = 4900;

/** `GET /gateway`: where a new session connects. */
async function gatewayUrl(http: Http): Promise<string> {
  const { url } = await http.request<{ url: string }>('GET', '/gateway', { auth: 'none' });
  return url;
}

/** Opens the WebSocket at `base`; null (logged) when the platform's WebSocket refuses it. */
function openSocket(options: GatewayOptions, base: string): WebSocket | null {
  const url = `${base.replace(/\/+$/, '')}/?v=10&encoding=json`;
  options.logger.info(`Connecting to the gateway at ${base}`);
  try {
    return new options.WebSocket(url);
  } catch (error) {
    options.logger.warn(`Could not open the gateway connection: ${String(error)}`);
    return null;
  }
}

export class Gateway {
  readonly #options: GatewayOptions;
  /**
   * The intents IDENTIFY asks for: none for a game (its user-addressed events come whatever the
   * intents); a person's own client (the RPC daemon) asks for the guild events it relays.
   */
  intents = 0;
  #status: ClientStatus = ClientStatus.Disconnected;
  #socket: WebSocket | null = null;
  #sessionId: string | null = null;
  #resumeUrl: string | null = null;
  #gatewayUrl: string | null = null;
  #seq: number | null = null;
  readonly #timers: GatewayTimers;
  /** Set by disconnect(): the next close is the user's, not a failure. */
  #stopping = false;

  constructor(options: GatewayOptions) {
    this.#options = options;
    this.#timers = new GatewayTimers(options.logger, {
      beat: () => {
        this.#sendRaw(GatewayOp.Heartbeat, this.#seq);
      },
      zombie: () => {
        this.#reconnect();
      },
      open: () => void this.#open(),
    });
  }

  get status(): ClientStatus {
    return this.#status;
  }

  /** The session's id (READY `session_id`), null when there is none; voice Identify sends it. */
  get sessionId(): string | null {
    return this.#sessionId;
  }

  /** Opens the connection; READY moves the status to Ready. No-op when already under way. */
  connect(): void {
    if (this.#status !== ClientStatus.Disconnected) return;
    this.#stopping = false;
    this.#timers.resetBackoff();
    this.#setStatus(ClientStatus.Connecting, ClientError.None, 0);
    void this.#open();
  }

  /** Closes the connection and ends the session (close 1000). */
  disconnect(): void {
    if (this.#status === ClientStatus.Disconnected) return;
    this.#stopping = true;
    this.#timers.stop();
    this.#sessionId = null;
    this.#seq = null;
    const socket = this.#socket;
    this.#socket = null;
    if (socket !== null && socket.readyState <= 1) {
      this.#setStatus(ClientStatus.Disconnecting, ClientError.None, 0);
      socket.close(1000, 'disconnect');
    }
    this.#setStatus(ClientStatus.Disconnected, ClientError.None, 0);
  }

  /** Sends a gateway command (op 3 presence updates); false when not connected. */
  send(op: number, d: unknown): boolean {
    if (this.#status !== ClientStatus.Ready || this.#socket === null) return false;
    this.#socket.send(JSON.stringify({ op, d }));
    return true;
  }

  /** Lets the status follow an HTTP rate-limit wait during a connect. */
  setHttpWait(waiting: boolean): void {
    if (
      waiting &&
      (this.#status === ClientStatus.Connecting || this.#status === ClientStatus.Reconnecting)
    ) {
      this.#setStatus(ClientStatus.HttpWait, ClientError.None, 0);
    } else if (!waiting && this.#status === ClientStatus.HttpWait) {
      this.#setStatus(ClientStatus.Connecting, ClientError.None, 0);
    }
  }

  async #open(): Promise<void> {
    const token = this.#options.token();
    if (token === null) {
      this.#options.logger.error('connect() needs a token: call updateToken() first.');
      this.#setStatus(ClientStatus.Disconnected, ClientError.ConnectionFailed, 0);
      return;
    }
    let base = this.#sessionId !== null ? this.#resumeUrl : this.#gatewayUrl;
    if (base === null) {
      try {
        base = this.#gatewayUrl = await gatewayUrl(this.#options.http);
      } catch (error) {
        this.#options.logger.warn(`Could not get the gateway's address: ${String(error)}`);
        this.#retryLater(ClientError.ConnectionFailed, 0);
        return;
      }
    }
    if (this.#stopping) return;
    const socket = openSocket(this.#options, base);
    if (socket === null) {
      this.#retryLater(ClientError.ConnectionFailed, 0);
      return;
    }
    this.#socket = socket;
    socket.onmessage = (event: MessageEvent) => {
      if (this.#socket !== socket) return;
      this.#onMessage(typeof event.data === 'string' ? event.data : String(event.data));
    };
    socket.onclose = (event: CloseEvent) => {
      if (this.#socket !== socket) return;
      this.#onClose(event.code, event.reason);
    };
    socket.onerror = () => {
      // The close that follows decides what happens.
    };
  }

  #onMessage(raw: string): void {
    let payload: Payload;
    try {
      payload = JSON.parse(raw) as Payload;
    } catch {
      this.#options.logger.warn('The gateway sent a frame that is not JSON; reconnecting.');
      this.#reconnect();
      return;
    }
    if (typeof payload.s === 'number') this.#seq = payload.s;
    switch (payload.op) {
      case GatewayOp.Hello:
        this.#onHello((payload.d as { heartbeat_interval: number }).heartbeat_interval);
        return;
      case GatewayOp.HeartbeatAck:
        this.#timers.ack();
        return;
      case GatewayOp.Heartbeat:
        this.#timers.beat();
        return;
      case GatewayOp.Reconnect:
        this.#options.logger.info('The gateway asked for a reconnect; resuming.');
        this.#reconnect();
        return;
      case GatewayOp.InvalidSession:
        this.#onInvalidSession(payload.d === true);
        return;
      case GatewayOp.Dispatch:
        this.#onDispatch(payload.t ?? '', payload.d);
        return;
      default:
        return;
    }
  }

  #onHello(interval: number): void {
    this.#setStatus(ClientStatus.Connected, ClientError.None, 0);
    this.#timers.startHeartbeat(interval);
    const token = this.#options.token() ?? '';
    if (this.#sessionId !== null) {
      this.#sendRaw(GatewayOp.Resume, { token, session_id: this.#sessionId, seq: this.#seq });
    } else {
      this.#sendRaw(GatewayOp.Identify, {
        token,
        intents: this.intents,
        properties: this.#options.properties,
      });
    }
  }

  #onDispatch(type: string, data: unknown): void {
    if (type === 'READY') {
      const ready = data as { session_id: string; resume_gateway_url?: string };
      this.#sessionId = ready.session_id;
      this.#resumeUrl = ready.resume_gateway_url ?? this.#gatewayUrl;
      this.#timers.resetBackoff();
      this.#options.onDispatch(type, data);
      this.#setStatus(ClientStatus.Ready, ClientError.None, 0);
      return;
    }
    if (type === 'RESUMED') {
      this.#timers.resetBackoff();
      this.#setStatus(ClientStatus.Ready, ClientError.None, 0);
      this.#options.onDispatch(type, data);
      return;
    }
    this.#options.onDispatch(type, data);
  }

  #onInvalidSession(resumable: boolean): void {
    if (!resumable) {
      this.#sessionId = null;
      this.#seq = null;
    }
    this.#options.logger.info(
      resumable ? 'Session invalid; resuming.' : 'Session ended; identifying anew.',
    );
    this.#reconnect();
  }

  #onClose(code: number, reason: string): void {
    this.#timers.stopHeartbeat();
    this.#socket = null;
    if (this.#stopping) return;
    const fatal = FATAL_CLOSE_CODES[code];
    if (fatal !== undefined) {
      this.#sessionId = null;
      this.#seq = null;
      this.#options.logger.error(`The gateway closed the connection (${code}): ${fatal}.`);
      this.#setStatus(ClientStatus.Disconnected, ClientError.UnexpectedClose, code);
      return;
    }
    if (NEW_SESSION_CLOSE_CODES.has(code)) {
      this.#sessionId = null;
      this.#seq = null;
    }
    this.#options.logger.warn(
      `The gateway connection closed (${code}${reason === '' ? '' : `: ${reason}`}); reconnecting.`,
    );
    this.#retryLater(ClientError.UnexpectedClose, code);
  }

  /** Drops the current socket and opens a new one at once (RESUME when there is a session). */
  #reconnect(): void {
    const socket = this.#socket;
    this.#socket = null;
    this.#timers.stopHeartbeat();
    socket?.close(RECONNECT_CLOSE_CODE, 'reconnect');
    if (this.#stopping) return;
    this.#setStatus(ClientStatus.Reconnecting, ClientError.None, 0);
    this.#timers.retrySoon();
  }

  #retryLater(error: ClientError, detail: number): void {
    if (this.#stopping) return;
    this.#setStatus(ClientStatus.Reconnecting, error, detail);
    this.#timers.retryLater();
  }

  #sendRaw(op: number, d: unknown): void {
    if (this.#socket?.readyState === 1) this.#socket.send(JSON.stringify({ op, d }));
  }

  #setStatus(status: ClientStatus, error: ClientError, detail: number): void {
    if (status === this.#status && error === ClientError.None) return;
    this.#status = status;
    this.#options.onStatus(status, error, detail);
  }
}
