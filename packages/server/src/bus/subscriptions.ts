/**
 * @module bus/subscriptions: the bus subjects a node watches, one subscription per guild
 * and per user its sessions need (docs/gateway.md, Subjects), counted so the last session to
 * leave a guild or log out ends it. Every subject's events go to one consumer (the fan-out): its
 * handler, and what the bus could not deliver of a subject to its `onGap`.
 */
import type { BusGap, BusHandler, EventBus, Subscription } from './index.js';

interface Watch {
  /** Holders: sessions (and joins in progress) that need the subject. */
  count: number;
  /** Resolves once the bus delivers every event published afterwards. */
  ready: Promise<void>;
  subscription: Subscription | null;
}

/** Where a node's subject events go. */
export interface SubjectConsumer {
  handler: BusHandler;
  /** Dispatches of `subject` may have been missed and will not come (docs/gateway.md). */
  onGap?: (subject: string, gap: BusGap) => void;
}

export interface SubjectSubscriptions {
  /**
   * Adds a holder of `subject`; resolves once every event published on it afterwards reaches the
   * handler (at once when another holder already has it). Rejects when the bus refuses the
   * subscription (it is closed). Every acquire, resolved or rejected, is ended by one release.
   */
  acquire(subject: string): Promise<void>;
  /** Drops a holder; the last one ends the subscription. */
  release(subject: string): void;
  /** Whether the node watches `subject` now. */
  watches(subject: string): boolean;
  /**
   * Hands the events to `consumer`, for subscriptions made without one: a consumer that reads
   * the holders of the subjects (the gateway's fan-out reads the sessions, which acquire them)
   * is built after the subscriptions. Once, before the first acquire.
   */
  deliverTo(consumer: SubjectConsumer): void;
  /** Ends every subscription. */
  close(): void;
}

/**
 * Subscriptions of one node. A subject released and acquired again before its first
 * subscription answered gets a new one; the handler sees only the current one's events, so no
 * event is delivered twice.
 */
export function createSubjectSubscriptions(
  deps: { bus: EventBus } & (SubjectConsumer | { handler?: undefined }),
): SubjectSubscriptions {
  const { bus } = deps;
  let consumer: SubjectConsumer | null = deps.handler === undefined ? null : deps;
  const watched = new Map<string, Watch>();

  const end = (watch: Watch) => {
    watch.subscription?.unsubscribe();
    watch.subscription = null;
  };

  const acquire = (subject: string): Promise<void> => {
    if (consumer === null) throw new Error(`${subject} acquired before its consumer was given`);
    const { handler, onGap } = consumer;
    const known = watched.get(subject);
    if (known !== undefined) {
      known.count++;
      return known.ready;
    }
    const watch: Watch = { count: 1, ready: Promise.resolve(), subscription: null };
    watch.ready = bus
      .subscribe(
        subject,
        (event, delivered) => {
          if (watched.get(subject) === watch) return handler(event, delivered);
          return undefined;
        },
        {
          onGap: (gap) => {
            if (watched.get(subject) === watch) onGap?.(subject, gap);
          },
        },
      )
      .then((subscription) => {
        watch.subscription = subscription;
        // Every holder let go while the bus answered.
        if (watched.get(subject) !== watch) end(watch);
      });
    watched.set(subject, watch);
    return watch.ready;
  };

  return {
    acquire,
    release(subject) {
      const watch = watched.get(subject);
      if (watch === undefined || --watch.count > 0) return;
      watched.delete(subject);
      end(watch);
    },
    watches: (subject) => watched.has(subject),
    deliverTo(given) {
      if (consumer !== null) throw new Error('the subscriptions already have their consumer');
      consumer = given;
    },
    close() {
      for (const watch of watched.values()) end(watch);
      watched.clear();
    },
  };
}
