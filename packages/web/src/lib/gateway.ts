import { api } from './api.js';

/** Gateway opcodes the pages use (the platform's v10 numbers). */
export const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

/** Close codes after which reconnecting cannot help. */
const FATAL_CLOSE_CODES = new Set([4004, 4010, 4011, 4012, 4013, 4014]);
/** Close codes after which the session cannot be resumed: reconnect with a fresh IDENTIFY. */
const FRESH_SESSION_CLOSE_CODES = new Set([4007, 4009]);

export type GatewayStatus = 'connecting' | 'ready' | 'reconnecting' | 'closed';

type DispatchHandler = (data: unknown, type: string) => void;

interface Frame {
  op: number;
  d: unknown;
  s?: number | null;
  t?: string | null;
}

/**
 * The browser's gateway connection for a person's session: HELLO, heartbeats with jitter,
 * IDENTIFY, RESUME after a drop (or a fresh IDENTIFY when the session cannot be resumed),
 * reconnects with a growing delay, and typed-by-name dispatch listeners (`on('MESSAGE_CREATE')`).
 */
export class GatewayClient {
  private socket: WebSocket | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private awaitingAck = false;
  private seq: number | null = null;
  private sessionId: string | null = null;
  private resumeUrl: string | null = null;
  private attempts = 0;
  private stopped = false;
  private generation = 0;
  private readonly handlers = new Map<string, Set<DispatchHandler>>();
  private readonly statusListeners = new Set<(status: GatewayStatus) => void>();
  status: GatewayStatus = 'connecting';

  private readonly token: string;
  private readonly options: { intents?: number; url?: string };

  constructor(token: string, options: { intents?: number; url?: string } = {}) {
    this.token = token;
    this.options = options;
  }

  /** Listens to one dispatch type, or '*' for every dispatch; returns the unsubscribe. */
  on(type: string, handler: DispatchHandler): () => void {
    let set = this.handlers.get(type);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(type, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  onStatus(listener: (status: GatewayStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  async connect(): Promise<void> {
    this.stopped = false;
    // A close() (or another connect()) while GET /gateway is in flight wins: without this, React's
    // mount-unmount-mount in development would leave two sockets each dispatching every event.
    const generation = ++this.generation;
    const url = this.options.url ?? (await api<{ url: string }>('GET', '/gateway')).url;
    if (generation !== this.generation) return;
    this.open(url, false);
  }

  /** Sends a frame (presence, request members, voice state); dropped while disconnected. */
  send(op: number, d: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ op, d }));
  }

  close(): void {
    this.stopped = true;
    this.generation += 1;
    this.clearTimers();
    this.socket?.close(1000);
    this.socket = null;
    this.setStatus('closed');
  }

  private setStatus(status: GatewayStatus): void {
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }

  private emit(type: string, data: unknown): void {
    for (const key of [type, '*']) {
      for (const handler of this.handlers.get(key) ?? []) handler(data, type);
    }
  }

  private open(base: string, resume: boolean): void {
    const url = new URL(base, location.href);
    url.searchParams.set('v', '10');
    url.searchParams.set('encoding', 'json');
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onmessage = (event) => {
      this.onFrame(JSON.parse(String(event.data)) as Frame, resume);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.clearTimers();
      this.socket = null;
      if (this.stopped || FATAL_CLOSE_CODES.has(event.code)) {
        this.setStatus('closed');
        this.emit('CLOSED', { code: event.code, reason: event.reason });
        return;
      }
      // 4007 (invalid seq) and 4009 (session timed out): resuming again would fail again.
      if (FRESH_SESSION_CLOSE_CODES.has(event.code)) this.forgetSession();
      this.scheduleReconnect();
    };
  }

  private forgetSession(): void {
    this.sessionId = null;
    this.resumeUrl = null;
    this.seq = null;
  }

  private scheduleReconnect(): void {
    this.setStatus('reconnecting');
    const delay = Math.min(30_000, 500 * 2 ** this.attempts) * (0.5 + Math.random() / 2);
    this.attempts += 1;
    this.retry = setTimeout(() => {
      const resumable = this.sessionId !== null && this.resumeUrl !== null;
      if (resumable) this.open(this.resumeUrl ?? '', true);
      else
        void this.connect().catch(() => {
          this.scheduleReconnect();
        });
    }, delay);
  }

  private onFrame(frame: Frame, resume: boolean): void {
    if (typeof frame.s === 'number') this.seq = frame.s;
    switch (frame.op) {
      case Op.Hello: {
        const interval = (frame.d as { heartbeat_interval: number }).heartbeat_interval;
        this.startHeartbeat(interval);
        if (resume && this.sessionId !== null) {
          this.send(Op.Resume, { token: this.token, session_id: this.sessionId, seq: this.seq });
        } else {
          this.send(Op.Identify, {
            token: this.token,
            properties: {
              os: 'browser',
              browser: 'Guildhall Web',
              device: '',
            },
            ...(this.options.intents === undefined ? {} : { intents: this.options.intents }),
          });
        }
        return;
      }
      case Op.HeartbeatAck:
        this.awaitingAck = false;
        return;
      case Op.Heartbeat:
        this.send(Op.Heartbeat, this.seq);
        return;
      case Op.Reconnect:
        this.socket?.close(4000);
        return;
      case Op.InvalidSession:
        if (frame.d !== true) this.forgetSession();
        this.socket?.close(4000);
        return;
      case Op.Dispatch: {
        const type = frame.t ?? '';
        if (type === 'READY') {
          const ready = frame.d as { session_id: string; resume_gateway_url: string };
          this.sessionId = ready.session_id;
          this.resumeUrl = ready.resume_gateway_url;
        }
        if (type === 'READY' || type === 'RESUMED') {
          this.attempts = 0;
          this.setStatus('ready');
        }
        this.emit(type, frame.d);
        return;
      }
      default:
        return;
    }
  }

  private startHeartbeat(interval: number): void {
    this.clearTimers();
    this.awaitingAck = false;
    const beat = () => {
      // No ACK since the last beat: the connection is a zombie; drop it and resume.
      if (this.awaitingAck) {
        this.socket?.close(4000);
        return;
      }
      this.awaitingAck = true;
      this.send(Op.Heartbeat, this.seq);
    };
    this.retry = setTimeout(() => {
      beat();
      this.heartbeat = setInterval(beat, interval);
    }, interval * Math.random());
  }

  private clearTimers(): void {
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    if (this.retry !== null) clearTimeout(this.retry);
    this.heartbeat = null;
    this.retry = null;
  }
}
