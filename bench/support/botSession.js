/**
 * One gateway session for the benchmarks (a bot's, or a person's): identifies, heartbeats, notes
 * every MESSAGE_CREATE (by the nonce the bench posts it with) and hands every dispatch to
 * `onDispatch`, on the bench's clock, and can RESUME on another gateway node after its own went
 * away (bench/multinode.js, bench/interactions.js).
 */
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { URL } from 'node:url';
import WebSocket from 'ws';

const INTENTS = (1 << 0) | (1 << 9); // GUILDS | GUILD_MESSAGES

export class BotSession {
  /**
   * @param {{
   *   token: string,
   *   onMessage?: (nonce: string, at: number) => void,
   *   onDispatch?: (type: string, data: any, at: number) => void,
   * }} options
   */
  constructor({ token, onMessage = () => undefined, onDispatch = () => undefined }) {
    this.token = token;
    this.onMessage = onMessage;
    this.onDispatch = onDispatch;
    this.sessionId = '';
    this.seq = 0;
    /** Seqs received on the current connection, to check they run without a gap. */
    this.seqs = [];
    this.ws = null;
    this.heartbeat = null;
  }

  #open(url, hello) {
    const address = new URL(url);
    address.searchParams.set('v', '10');
    address.searchParams.set('encoding', 'json');
    const ws = new WebSocket(address, { perMessageDeflate: false });
    this.ws = ws;
    this.seqs = [];
    this.closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
    return new Promise((resolve, reject) => {
      ws.on('error', reject);
      ws.on('close', (code) => {
        clearInterval(this.heartbeat);
        reject(new Error(`closed ${code} before it was ready`));
      });
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString());
        if (frame.s !== null && frame.s !== undefined) {
          this.seq = frame.s;
          this.seqs.push(frame.s);
        }
        if (frame.op === 0) this.onDispatch(frame.t, frame.d, performance.now());
        if (frame.op === 10) {
          clearInterval(this.heartbeat);
          this.heartbeat = setInterval(
            () => ws.send(JSON.stringify({ op: 1, d: this.seq })),
            frame.d.heartbeat_interval,
          );
          ws.send(JSON.stringify(hello()));
        } else if (frame.op === 9) {
          reject(new Error('INVALID_SESSION'));
        } else if (frame.t === 'MESSAGE_CREATE') {
          this.onMessage(frame.d.nonce, performance.now());
        } else if (frame.t === 'GUILD_CREATE' || frame.t === 'RESUMED') {
          if (frame.t === 'GUILD_CREATE') this.sessionId ||= this.pendingSessionId;
          resolve(performance.now());
        } else if (frame.t === 'READY') {
          this.pendingSessionId = frame.d.session_id;
        }
      });
    });
  }

  /** Identifies; resolves once the guild's GUILD_CREATE arrived. */
  identify(url) {
    return this.#open(url, () => ({
      op: 2,
      d: {
        token: this.token,
        intents: INTENTS,
        properties: { os: 'linux', browser: 'bench', device: 'bench' },
      },
    }));
  }

  /** Resumes on `url` from the last seq seen; resolves with the time RESUMED arrived. */
  resume(url) {
    const seq = this.seq;
    return this.#open(url, () => ({
      op: 6,
      d: { token: this.token, session_id: this.sessionId, seq },
    }));
  }

  close() {
    clearInterval(this.heartbeat);
    this.ws?.terminate();
  }
}
