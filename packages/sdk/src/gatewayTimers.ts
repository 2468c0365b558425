/**
 * The gateway connection's timers (`Gateway` in gateway.ts): the heartbeat, whose first beat
 * falls at a random point of the interval and whose missing ACK marks a zombie connection, and
 * the reconnect timer with its backoff.
 *
 * @module
 */
import type { Logger } from './log.js';

const MAX_BACKOFF_MS = 30_000;

/** What the timers make the connection do. */
export interface GatewayTimerHooks {
  /** Sends one heartbeat (op 1 with the last sequence number). */
  beat: () => void;
  /** No ACK came for the last beat: the connection is a zombie, to be replaced. */
  zombie: () => void;
  /** Opens the connection again (a retry timer fired). */
  open: () => void;
}

export class GatewayTimers {
  readonly #logger: Logger;
  readonly #hooks: GatewayTimerHooks;
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #firstBeat: ReturnType<typeof setTimeout> | null = null;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #acked = true;
  #attempts = 0;

  constructor(logger: Logger, hooks: GatewayTimerHooks) {
    this.#logger = logger;
    this.#hooks = hooks;
  }

  /** HELLO: a beat every `interval` ms, the first at a random point of the first interval. */
  startHeartbeat(interval: number): void {
    this.stopHeartbeat();
    this.#acked = true;
    this.#firstBeat = setTimeout(() => {
      this.beat();
      this.#heartbeat = setInterval(() => {
        if (!this.#acked) {
          this.#logger.warn('No heartbeat ACK from the gateway; reconnecting.');
          this.#hooks.zombie();
          return;
        }
        this.beat();
      }, interval);
    }, interval * Math.random());
  }

  /** The gateway acknowledged the last beat. */
  ack(): void {
    this.#acked = true;
  }

  /** Sends a beat now (also when the gateway asks for one); the next tick expects its ACK. */
  beat(): void {
    this.#acked = false;
    this.#hooks.beat();
  }

  stopHeartbeat(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    if (this.#firstBeat !== null) clearTimeout(this.#firstBeat);
    this.#heartbeat = null;
    this.#firstBeat = null;
  }

  /** Reopens soon, without backoff: a reconnect asked for by the gateway or a dead heartbeat. */
  retrySoon(): void {
    this.#retryAfter(250 + Math.random() * 750);
  }

  /** Reopens after the backoff, which doubles with each failed attempt up to 30 s. */
  retryLater(): void {
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.#attempts) * (0.5 + Math.random() / 2);
    this.#attempts += 1;
    this.#retryAfter(delay);
  }

  /** A connect, READY or RESUMED: the next failure waits the shortest backoff again. */
  resetBackoff(): void {
    this.#attempts = 0;
  }

  /** Stops the heartbeat and any pending reopen. */
  stop(): void {
    this.stopHeartbeat();
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#retry = null;
  }

  #retryAfter(delay: number): void {
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.#hooks.open();
    }, delay);
  }
}
