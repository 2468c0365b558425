/**
 * The event bus contract every driver implements. API nodes publish dispatch events on it and
 * gateway nodes subscribe (docs/architecture.md, How an event travels). Services see only these
 * types; the drivers in memory/ and nats/ are chosen by app.ts.
 */

/** One dispatch event. It crosses the bus as JSON, so `data` must survive a JSON round trip. */
export interface BusEvent<TData = unknown> {
  /** The dispatch name, e.g. `MESSAGE_CREATE`. */
  type: string;
  /** What the event concerns, for routing and per-session filtering: e.g. a guild id. */
  topic: string;
  data: TData;
  /** When it was published, epoch ms (from the injected clock). */
  publishedAt: number;
  /**
   * The trace it belongs to, as a W3C `traceparent` (the API request that caused it), carried
   * to the subscribers; absent when tracing is off (docs/operations.md, Tracing).
   */
  trace?: string;
}

/**
 * Receives one event and the subject it was published on. It is never awaited: a returned
 * promise only lets a rejection reach the bus's `onError`.
 */
export type BusHandler = (event: BusEvent, subject: string) => void | Promise<void>;

/** Where a handler failure or an undecodable message happened, when known. */
export interface BusErrorContext {
  subject?: string;
  event?: BusEvent;
}

/**
 * Told about failures the bus absorbs so delivery goes on: a throwing or rejecting handler, a
 * malformed message, a connection that closed on its own. The bus itself logs nothing.
 */
export type BusErrorHandler = (error: unknown, context: BusErrorContext) => void;

/**
 * Events published on a subscription's subject may not all have reached its handler, and the bus
 * cannot deliver them any more. Delivery goes on after it.
 */
export interface BusGap {
  /** The subscription's subject pattern. */
  subject: string;
  /** Why, in one sentence (for a log line). */
  reason: string;
}

/** How a subscription is told what the bus could not deliver to it. */
export interface SubscribeOptions {
  /**
   * Called when events published on the subject while the subscriber was cut off from the bus
   * cannot be delivered: the bus keeps no history of the subject, the history no longer holds
   * the whole interruption, or a publisher dropped events it held past its bound. A bus that
   * never loses its connection (one process) never calls it.
   */
  onGap?: (gap: BusGap) => void;
}

export interface Subscription {
  /** The subject pattern as given to `subscribe`. */
  readonly subject: string;
  /** Stops delivery to this handler at once, including events already queued. Idempotent. */
  unsubscribe(): void;
}

export type BusDriver = 'memory' | 'nats';

/** An event read back from a bus's history, with the subject it was published on. */
export interface KeptEvent {
  subject: string;
  event: BusEvent;
}

/**
 * What a bus keeps, for a while, of the events published on some subjects: a gateway node that
 * takes over the sessions of a node that died reads from it what they missed (docs/gateway.md,
 * Where sessions live). Only a bus shared by several nodes keeps one (NATS, in a JetStream
 * stream); one process has no other node to recover from.
 */
export interface EventHistory {
  /** How long an event is kept after it was published, ms. */
  readonly keepMs: number;
  /** Whether the events published on `subject` (a literal subject) are kept. */
  covers(subject: string): boolean;
  /**
   * The events published on any of `subjects` at or after `sinceMs` (epoch ms, by the bus
   * server's clock), in the order the bus received them, up to at least the moment of the call.
   * Each subject must be a literal one the history covers (else `TypeError`); rejects with
   * `BusClosedError` after close().
   */
  read(subjects: readonly string[], sinceMs: number): Promise<KeptEvent[]>;
}

/**
 * Subjects are dot-separated tokens (`guild.123.events`). A subscription may use the NATS
 * wildcards: `*` matches one token, `>` as the last token matches one or more. Each subscriber
 * receives the events of one publisher in the order they were published; delivery is always
 * asynchronous, so a publisher never runs subscriber code. Misused subjects throw `TypeError`.
 */
export interface EventBus {
  readonly driver: BusDriver;
  /** What the bus keeps of published events, or null when it keeps nothing (one process). */
  readonly history: EventHistory | null;
  /**
   * Sends an event to every subscription matching `subject`. Resolves once the bus has taken the
   * event (not once it is delivered): when its history keeps the subject, once the history has
   * stored it. While the bus is unreachable, events are held in order and sent again until taken;
   * past the bus's bound the oldest held one is dropped (its publish rejects with
   * `BusOverflowError`, and the subscriptions of its subject are told: `onGap`). Rejects with
   * `BusClosedError` after close().
   */
  publish(subject: string, event: BusEvent): Promise<void>;
  /**
   * Resolves once every event published afterwards, by any publisher sharing this bus, will reach
   * `handler`. Events published before are never delivered to it. When the subscriber is cut off
   * from the bus for a while, what its history keeps of the interruption is delivered once it is
   * back, in order and each event once; what cannot be is reported to `options.onGap`.
   */
  subscribe(
    subject: string,
    handler: BusHandler,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  /**
   * Resolves once the bus has shown it can carry events now (NATS: a round trip to the server);
   * rejects with `BusClosedError` after close(). For readiness checks.
   */
  ping(): Promise<void>;
  /** Delivers what was already published, then stops all delivery. Idempotent. */
  close(): Promise<void>;
}
