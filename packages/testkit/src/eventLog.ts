/**
 * What arrived, in order, and waiting for something matching: the one mechanism behind every
 * `waitFor…` of the kit (a person's dispatches, messages, interaction replies). A wait that runs
 * out throws {@link WaitTimeoutError} listing what did arrive.
 *
 * @module
 */
import { WaitTimeoutError } from './errors.js';

/** How long a wait lasts unless told otherwise, in ms (real time, not the platform's clock). */
export const DEFAULT_WAIT_TIMEOUT_MS = 5000;
/** Lines a timeout's message lists at most (the newest). */
const DESCRIBED_MAX = 20;
/** Events one log keeps at most; the oldest go first. */
const KEPT_MAX = 10_000;

/** How to wait. */
export interface WaitOptions {
  /** Real milliseconds to wait (default 5000). */
  timeoutMs?: number;
  /**
   * Only what arrived after this mark matches (a person's `mark()`, a log entry's `seq`). By
   * default what already arrived matches too, so a wait may follow the action that causes it.
   */
  since?: number;
}

interface Waiter<T> {
  match: (event: T) => boolean;
  resolve: (event: T) => void;
}

/** Events of one kind, kept in arrival order, with waits on them. */
export class EventLog<T> {
  readonly #events: T[] = [];
  readonly #waiters = new Set<Waiter<T>>();
  readonly #describe: (event: T) => string;
  /** How many events ever arrived (the index of the next one). */
  #count = 0;

  /** `describe` gives the one line a timeout's message shows for an event. */
  constructor(describe: (event: T) => string) {
    this.#describe = describe;
  }

  /** Everything kept, oldest first. */
  get events(): readonly T[] {
    return this.#events;
  }

  /** A mark to wait from: only events after it match ({@link WaitOptions.since}). */
  mark(): number {
    return this.#count;
  }

  /** Records an event and wakes the waits it matches. */
  push(event: T): void {
    this.#events.push(event);
    this.#count += 1;
    if (this.#events.length > KEPT_MAX) this.#events.shift();
    for (const waiter of [...this.#waiters]) {
      if (waiter.match(event)) {
        this.#waiters.delete(waiter);
        waiter.resolve(event);
      }
    }
  }

  /**
   * The first event matching, among those kept after `since` (a {@link EventLog.mark}; default:
   * all kept), else the next to arrive within `timeoutMs`. `what` names the wait in a timeout's
   * message.
   */
  waitFor(what: string, match: (event: T) => boolean, options: WaitOptions = {}): Promise<T> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    const since = options.since ?? 0;
    const kept = this.#count - this.#events.length;
    const found = this.#events.slice(Math.max(0, since - kept)).find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        const arrived = this.#events.slice(Math.max(0, since - kept)).map(this.#describe);
        reject(new WaitTimeoutError(what, timeoutMs, arrived.slice(-DESCRIBED_MAX)));
      }, timeoutMs);
      const waiter: Waiter<T> = {
        match,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      };
      this.#waiters.add(waiter);
    });
  }
}
