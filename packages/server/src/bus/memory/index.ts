/** @module bus/memory: the in-process bus of a single-process deployment (the default). */
import { decodeEvent, encodeEvent } from '../codec.js';
import { BusClosedError } from '../errors.js';
import { invokeHandler, safeErrorHandler } from '../handlers.js';
import { assertPublishSubject, assertSubscribeSubject, subjectMatches } from '../subjects.js';
import type { BusErrorHandler, BusEvent, BusHandler, EventBus, Subscription } from '../types.js';

export interface MemoryBusOptions {
  /** Told about handler failures; the bus itself logs nothing. */
  onError?: BusErrorHandler;
}

interface Entry {
  readonly pattern: string;
  readonly handler: BusHandler;
  active: boolean;
}

interface Delivery {
  readonly entry: Entry;
  readonly subject: string;
  readonly payload: string;
}

/** Whether a subscription pattern uses a wildcard token (`*` or `>`). */
const hasWildcard = (pattern: string) => pattern.split('.').some((t) => t === '*' || t === '>');

/**
 * Delivers events within this process. Events go through the same JSON codec as on NATS, and are
 * delivered from a microtask, in one queue, so every subscriber sees publish order. Literal
 * subscriptions are found by subject (a gateway holds one per guild and per user it serves), so a
 * publish costs the same however many other subjects are watched.
 */
export class MemoryBus implements EventBus {
  readonly driver = 'memory';
  /** One process: no other node ever needs what was delivered here. */
  readonly history = null;
  readonly #onError: BusErrorHandler;
  /** Subscriptions to one literal subject, by subject. */
  readonly #literal = new Map<string, Set<Entry>>();
  /** Subscriptions with a wildcard, matched against every subject. */
  readonly #wildcard = new Set<Entry>();
  #queue: Delivery[] = [];
  #scheduled = false;
  #closed: Promise<void> | null = null;

  constructor(options: MemoryBusOptions = {}) {
    this.#onError = safeErrorHandler(options.onError);
  }

  publish(subject: string, event: BusEvent): Promise<void> {
    // The executor runs now, so the event is queued before publish returns; a throw rejects.
    return new Promise((resolve) => {
      this.#assertOpen();
      assertPublishSubject(subject);
      const payload = encodeEvent(event);
      for (const entry of this.#literal.get(subject) ?? []) {
        this.#queue.push({ entry, subject, payload });
      }
      for (const entry of this.#wildcard) {
        if (subjectMatches(entry.pattern, subject)) this.#queue.push({ entry, subject, payload });
      }
      if (!this.#scheduled && this.#queue.length > 0) {
        this.#scheduled = true;
        queueMicrotask(() => {
          this.#drain();
        });
      }
      resolve();
    });
  }

  subscribe(subject: string, handler: BusHandler): Promise<Subscription> {
    return new Promise((resolve) => {
      this.#assertOpen();
      assertSubscribeSubject(subject);
      const entry: Entry = { pattern: subject, handler, active: true };
      this.#add(entry);
      resolve({
        subject,
        unsubscribe: () => {
          entry.active = false;
          this.#remove(entry);
        },
      });
    });
  }

  ping(): Promise<void> {
    return new Promise((resolve) => {
      this.#assertOpen();
      resolve();
    });
  }

  close(): Promise<void> {
    // Like a NATS drain: what was published before close() is still delivered.
    this.#closed ??= Promise.resolve().then(() => {
      this.#drain();
      for (const entry of this.#wildcard) entry.active = false;
      for (const entries of this.#literal.values())
        for (const entry of entries) entry.active = false;
      this.#wildcard.clear();
      this.#literal.clear();
    });
    return this.#closed;
  }

  #add(entry: Entry): void {
    if (hasWildcard(entry.pattern)) {
      this.#wildcard.add(entry);
      return;
    }
    const entries = this.#literal.get(entry.pattern) ?? new Set<Entry>();
    entries.add(entry);
    this.#literal.set(entry.pattern, entries);
  }

  #remove(entry: Entry): void {
    if (this.#wildcard.delete(entry)) return;
    const entries = this.#literal.get(entry.pattern);
    entries?.delete(entry);
    if (entries?.size === 0) this.#literal.delete(entry.pattern);
  }

  #assertOpen(): void {
    if (this.#closed !== null) throw new BusClosedError('the bus is closed');
  }

  #drain(): void {
    this.#scheduled = false;
    // Handlers may publish while we deliver: their events join the end of this same queue.
    for (const delivery of this.#queue) {
      if (delivery.entry.active) this.#deliver(delivery);
    }
    this.#queue = [];
  }

  #deliver({ entry, subject, payload }: Delivery): void {
    invokeHandler(entry.handler, { event: decodeEvent(payload), subject }, this.#onError);
  }
}
