/**
 * A person's gateway session, as the web client keeps one: IDENTIFY with the client's intents,
 * heartbeats on real time (a client drives them over the wire, so they never follow the
 * platform's clock), RESUME after a reconnect request or a dropped connection, and every dispatch
 * recorded in an {@link EventLog} the waits read.
 *
 * @module
 */
import { GatewayIntentBits } from 'discord-api-types/v10';
import WebSocket from 'ws';
import { EventLog } from './eventLog.js';

/** One dispatch the person's session received. */
export interface Dispatch<TData = unknown> {
  /** The event's name: `MESSAGE_CREATE`, `INTERACTION_SUCCESS`, … */
  t: string;
  /** Its data. */
  d: TData;
  /** Its sequence number on the session. */
  s: number;
}

/** What a person's client listens to (the web client's intents). */
export const PERSON_INTENTS =
  GatewayIntentBits.Guilds |
  GatewayIntentBits.GuildMembers |
  GatewayIntentBits.GuildModeration |
  GatewayIntentBits.GuildExpressions |
  GatewayIntentBits.GuildInvites |
  GatewayIntentBits.GuildVoiceStates |
  GatewayIntentBits.GuildPresences |
  GatewayIntentBits.GuildMessages |
  GatewayIntentBits.GuildMessageReactions |
  GatewayIntentBits.GuildMessageTyping |
  GatewayIntentBits.DirectMessages |
  GatewayIntentBits.DirectMessageReactions |
  GatewayIntentBits.DirectMessageTyping |
  GatewayIntentBits.MessageContent;

const Op = {
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  RESUME: 6,
  RECONNECT: 7,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
} as const;

/** Close codes after which the platform takes no new connection with this token. */
const FATAL_CLOSE_CODES = new Set([4004, 4010, 4011, 4012, 4013, 4014]);
/** How long connecting may take, in ms, before it fails. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Reconnects in a row, without READY or RESUMED between, before the session gives up. */
const MAX_RECONNECTS = 5;

interface Frame {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

/** A person's live gateway connection. */
export class PersonSession {
  /** Every dispatch received, oldest first. */
  readonly dispatches = new EventLog<Dispatch>(describeDispatch);
  readonly #url: string;
  readonly #token: string;
  #ws: WebSocket | null = null;
  #sessionId: string | null = null;
  #resumeUrl: string | null = null;
  #seq: number | null = null;
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #awaitingAck = false;
  #reconnects = 0;
  #closed = false;

  private constructor(gatewayUrl: string, token: string) {
    this.#url = gatewayUrl;
    this.#token = token;
  }

  /** Connects and identifies; resolves with the session once READY arrived. */
  static async open(gatewayUrl: string, token: string): Promise<PersonSession> {
    const session = new PersonSession(gatewayUrl, token);
    const ready = session.dispatches.waitFor('READY', (d) => d.t === 'READY', {
      timeoutMs: CONNECT_TIMEOUT_MS,
    });
    session.#connect(false);
    await ready;
    return session;
  }

  /** The session's id (READY `session_id`), which interactions and voice name. */
  get sessionId(): string {
    if (this.#sessionId === null) throw new Error('the gateway session is not ready');
    return this.#sessionId;
  }

  /** Sends a gateway command (op 3 presence, op 4 voice state, …). */
  send(op: number, d: unknown): void {
    if (this.#ws?.readyState !== WebSocket.OPEN)
      throw new Error(`the gateway session is not connected (op ${String(op)} not sent)`);
    this.#ws.send(JSON.stringify({ op, d }));
  }

  /** Closes the connection for good (1000: the session ends). */
  close(): void {
    this.#closed = true;
    this.#stopHeartbeat();
    this.#ws?.close(1000);
    this.#ws = null;
  }

  #connect(resume: boolean): void {
    const base = resume && this.#resumeUrl !== null ? this.#resumeUrl : this.#url;
    const url = new URL(base);
    url.searchParams.set('v', '10');
    url.searchParams.set('encoding', 'json');
    const ws = new WebSocket(url);
    this.#ws = ws;
    ws.on('message', (data: Buffer) => {
      this.#onFrame(JSON.parse(data.toString('utf8')) as Frame, resume);
    });
    ws.on('error', () => {
      // The close that follows decides what happens next.
    });
    ws.on('close', (code) => {
      if (this.#ws !== ws) return;
      this.#stopHeartbeat();
      this.#ws = null;
      if (this.#closed || FATAL_CLOSE_CODES.has(code) || this.#reconnects >= MAX_RECONNECTS) return;
      this.#reconnects += 1;
      this.#connect(this.#sessionId !== null);
    });
  }

  #onFrame(frame: Frame, resume: boolean): void {
    if (typeof frame.s === 'number') this.#seq = frame.s;
    switch (frame.op) {
      case Op.HELLO:
        this.#startHeartbeat((frame.d as { heartbeat_interval: number }).heartbeat_interval);
        if (resume && this.#sessionId !== null)
          this.send(Op.RESUME, { token: this.#token, session_id: this.#sessionId, seq: this.#seq });
        else
          this.send(Op.IDENTIFY, {
            token: this.#token,
            properties: { os: 'linux', browser: 'Guildhall testkit', device: '' },
            intents: PERSON_INTENTS,
          });
        return;
      case Op.HEARTBEAT_ACK:
        this.#awaitingAck = false;
        return;
      case Op.HEARTBEAT:
        this.send(Op.HEARTBEAT, this.#seq);
        return;
      case Op.RECONNECT:
        this.#ws?.close(4000);
        return;
      case Op.INVALID_SESSION:
        if (frame.d !== true) this.#sessionId = null;
        this.#ws?.close(4000);
        return;
      case Op.DISPATCH:
        this.#onDispatch(frame);
        return;
      default:
        return;
    }
  }

  #onDispatch(frame: Frame): void {
    const t = frame.t ?? '';
    if (t === 'READY') {
      const ready = frame.d as { session_id: string; resume_gateway_url?: string };
      this.#sessionId = ready.session_id;
      this.#resumeUrl = ready.resume_gateway_url ?? null;
    }
    if (t === 'READY' || t === 'RESUMED') this.#reconnects = 0;
    this.dispatches.push({ t, d: frame.d, s: frame.s ?? 0 });
  }

  #startHeartbeat(intervalMs: number): void {
    this.#stopHeartbeat();
    this.#awaitingAck = false;
    this.#heartbeat = setInterval(() => {
      // No ACK since the last beat: a zombie connection; drop it and resume.
      if (this.#awaitingAck) {
        this.#ws?.close(4000);
        return;
      }
      this.#awaitingAck = true;
      if (this.#ws?.readyState === WebSocket.OPEN)
        this.#ws.send(JSON.stringify({ op: Op.HEARTBEAT, d: this.#seq }));
    }, intervalMs);
    this.#heartbeat.unref();
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }
}

/** One line for a timeout's message: the event and what it is about. */
export function describeDispatch(dispatch: Dispatch): string {
  const d = dispatch.d as Record<string, unknown> | null;
  if (d === null || typeof d !== 'object') return dispatch.t;
  if (typeof d['content'] === 'string') {
    const author = (d['author'] as { username?: string } | undefined)?.username ?? '?';
    return `${dispatch.t} ${JSON.stringify(d['content'])} by ${author} in ${String(d['channel_id'])}`;
  }
  const id = d['id'] ?? d['message_id'] ?? d['channel_id'] ?? d['guild_id'];
  return typeof id === 'string' ? `${dispatch.t} ${id}` : dispatch.t;
}
