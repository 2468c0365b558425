/**
 * The client's gateway connection: HELLO, IDENTIFY with the player's token, heartbeats with
 * zombie detection, RESUME after a drop (with backoff), a fresh IDENTIFY after 4007/4009 or an
 * INVALID_SESSION that cannot resume, and a stop on the close codes no retry can fix (4004: the
 * token was refused or revoked).
 *
 * @module
 */
import { ClientError, ClientStatus } from './enums.js';
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
const MAX_BACKOFF_MS = 30_000;

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
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #firstBeat: ReturnType<typeof setTimeout> | null = null;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #acked = true;
  #attempts = 0;
  /** Set by disconnect(): the next close is the user's, not a failure. */
  #stopping = false;

  constructor(options: GatewayOptions) {
    this.#options = options;
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
    this.#attempts = 0;
    this.#setStatus(ClientStatus.Connecting, ClientError.None, 0);
    void this.#open();
  }

  /** Closes the connection and ends the session (close 1000). */
  disconnect(): void {
    if (this.#status === ClientStatus.Disconnected) return;
    this.#stopping = true;
    this.#clearTimers();
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
        const { url } = await this.#options.http.request<{ url: string }>('GET', '/gateway', {
          auth: 'none',
        });
        this.#gatewayUrl = url;
        base = url;
      } catch (error) {
        this.#options.logger.warn(`Could not get the gateway's address: ${String(error)}`);
        this.#retryLater(ClientError.ConnectionFailed, 0);
        return;
      }
    }
    if (this.#stopping) return;
    const url = `${base.replace(/\/+$/, '')}/?v=10&encoding=json`;
    this.#options.logger.info(`Connecting to the gateway at ${base}`);
    let socket: WebSocket;
    try {
      socket = new this.#options.WebSocket(url);
    } catch (error) {
      this.#options.logger.warn(`Could not open the gateway connection: ${String(error)}`);
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
        this.#acked = true;
        return;
      case GatewayOp.Heartbeat:
        this.#beat();
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
    this.#clearHeartbeat();
    this.#acked = true;
    this.#firstBeat = setTimeout(() => {
      this.#beat();
      this.#heartbeat = setInterval(() => {
        if (!this.#acked) {
          this.#options.logger.warn('No heartbeat ACK from the gateway; reconnecting.');
          this.#reconnect();
          return;
        }
        this.#beat();
      }, interval);
    }, interval * Math.random());
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
      this.#attempts = 0;
      this.#options.onDispatch(type, data);
      this.#setStatus(ClientStatus.Ready, ClientError.None, 0);
      return;
    }
    if (type === 'RESUMED') {
      this.#attempts = 0;
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
    this.#clearHeartbeat();
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
    this.#clearHeartbeat();
    socket?.close(RECONNECT_CLOSE_CODE, 'reconnect');
    if (this.#stopping) return;
    this.#setStatus(ClientStatus.Reconnecting, ClientError.None, 0);
    this.#retry = setTimeout(
      () => {
        this.#retry = null;
        void this.#open();
      },
      250 + Math.random() * 750,
    );
  }

  #retryLater(error: ClientError, detail: number): void {
    if (this.#stopping) return;
    this.#setStatus(ClientStatus.Reconnecting, error, detail);
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.#attempts) * (0.5 + Math.random() / 2);
    this.#attempts += 1;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      void this.#open();
    }, delay);
  }

  #beat(): void {
    this.#acked = false;
    this.#sendRaw(GatewayOp.Heartbeat, this.#seq);
  }

  #sendRaw(op: number, d: unknown): void {
    if (this.#socket?.readyState === 1) this.#socket.send(JSON.stringify({ op, d }));
  }

  #clearHeartbeat(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    if (this.#firstBeat !== null) clearTimeout(this.#firstBeat);
    this.#heartbeat = null;
    this.#firstBeat = null;
  }

  #clearTimers(): void {
    this.#clearHeartbeat();
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#retry = null;
  }

  #setStatus(status: ClientStatus, error: ClientError, detail: number): void {
    if (status === this.#status && error === ClientError.None) return;
    this.#status = status;
    this.#options.onStatus(status, error, detail);
  }
}
