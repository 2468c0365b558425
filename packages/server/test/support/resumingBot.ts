/**
 * A gateway client that behaves as a good bot library does: it heartbeats at HELLO's interval,
 * tracks the sequence, RESUMEs when its connection closes (trying the gateway nodes in turn until
 * one answers) or on op 7, and IDENTIFYs anew on INVALID_SESSION `false`. It records every
 * MESSAGE_CREATE it hears and what the gateway told it, for tests of outages.
 *
 * @module
 */
import { GatewayOpcodes as Op } from '@guildhall/protocol';
import WebSocket from 'ws';

/** How long to wait before trying the next gateway node after a failed connection, ms. */
const RETRY_MS = 100;

interface Frame {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

export interface ResumingBotOptions {
  token: string;
  intents: number;
  /** The gateway nodes' URLs now, in the order to try them. */
  gatewayUrls: () => readonly string[];
}

export class ResumingBot {
  /** The ids of the MESSAGE_CREATEs heard, in order (a repeat after a crash shows twice). */
  readonly messageIds: string[] = [];
  /** INVALID_SESSION `false` received: the gateway said the session could not go on. */
  invalidations = 0;
  /** RESUMED received, and the READYs (the first IDENTIFY's included). */
  resumed = 0;
  readies = 0;
  /** Connections that closed without the bot asking. */
  drops = 0;
  /** When each connection dropped and each session (re)opened, epoch ms, in order. */
  readonly timeline: { kind: 'drop' | 'open'; atMs: number }[] = [];
  readonly #options: ResumingBotOptions;
  #ws: WebSocket | null = null;
  #sessionId: string | null = null;
  #seq = 0;
  #heartbeat: NodeJS.Timeout | null = null;
  #stopped = false;
  #next = 0;
  #ready: (() => void) | null = null;

  constructor(options: ResumingBotOptions) {
    this.#options = options;
  }

  /** Connects and identifies; resolves at READY. */
  start(): Promise<void> {
    return new Promise((resolve) => {
      this.#ready = resolve;
      this.#connect();
    });
  }

  /** Whether a session is open now (READY or RESUMED came on the current connection). */
  get connected(): boolean {
    return this.#ws?.readyState === WebSocket.OPEN && this.#sessionId !== null;
  }

  stop(): void {
    this.#stopped = true;
    this.#stopBeating();
    this.#ws?.terminate();
  }

  #connect(): void {
    if (this.#stopped) return;
    const urls = this.#options.gatewayUrls();
    const url = new URL(urls[this.#next++ % urls.length] ?? '');
    url.searchParams.set('v', '10');
    url.searchParams.set('encoding', 'json');
    const ws = new WebSocket(url);
    this.#ws = ws;
    let opened = false;
    ws.on('open', () => {
      opened = true;
    });
    ws.on('message', (data: Buffer) => {
      this.#onFrame(ws, JSON.parse(data.toString('utf8')) as Frame);
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (this.#ws !== ws) return;
      this.#stopBeating();
      if (opened) {
        this.drops++;
        this.timeline.push({ kind: 'drop', atMs: Date.now() });
      }
      if (!this.#stopped)
        setTimeout(
          () => {
            this.#connect();
          },
          opened ? 0 : RETRY_MS,
        );
    });
  }

  #onFrame(ws: WebSocket, frame: Frame): void {
    if (frame.s !== null) this.#seq = frame.s;
    const send = (op: number, d: unknown) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ op, d }));
    };
    switch (frame.op) {
      case Op.HELLO: {
        const { heartbeat_interval: interval } = frame.d as { heartbeat_interval: number };
        this.#stopBeating();
        this.#heartbeat = setInterval(() => {
          send(Op.HEARTBEAT, this.#seq);
        }, interval);
        if (this.#sessionId === null) this.#identify(send);
        else
          send(Op.RESUME, {
            token: this.#options.token,
            session_id: this.#sessionId,
            seq: this.#seq,
          });
        break;
      }
      case Op.RECONNECT:
        ws.close(4900);
        break;
      case Op.INVALID_SESSION:
        if (frame.d === true) {
          ws.close(4900);
        } else {
          this.invalidations++;
          this.#sessionId = null;
          this.#seq = 0;
          this.#identify(send);
        }
        break;
      case Op.DISPATCH:
        this.#onDispatch(frame);
        break;
      default:
        break;
    }
  }

  #identify(send: (op: number, d: unknown) => void): void {
    send(Op.IDENTIFY, {
      token: this.#options.token,
      intents: this.#options.intents,
      properties: { os: 'linux', browser: 'test', device: 'test' },
    });
  }

  #onDispatch(frame: Frame): void {
    if (frame.t === 'READY' || frame.t === 'RESUMED') {
      this.timeline.push({ kind: 'open', atMs: Date.now() });
    }
    if (frame.t === 'READY') {
      this.readies++;
      this.#sessionId = (frame.d as { session_id: string }).session_id;
      this.#ready?.();
      this.#ready = null;
    } else if (frame.t === 'RESUMED') {
      this.resumed++;
    } else if (frame.t === 'MESSAGE_CREATE') {
      this.messageIds.push((frame.d as { id: string }).id);
    }
  }

  #stopBeating(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }
}
