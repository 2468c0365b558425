/**
 * @module bus/nats/outbox: what a NATS bus publishes, in order, until the server has taken it.
 * An event on a subject the history keeps is published to JetStream and counts as taken once the
 * stream acknowledges it; others once handed to the connection (core NATS keeps nothing, so
 * there is nothing to wait for). While the connection is down, or an acknowledgement fails, events
 * are held in call order and sent again once NATS answers: the first held one alone until it is
 * stored, then the rest. Each event carries an id (`Nats-Msg-Id`): the stream stores a repeat
 * once, and subscribers drop a repeat they already had (bus/nats/deliveries.ts).
 *
 * What is held is bounded: while NATS takes events, those sent and awaiting their acknowledgement
 * are in flight, not held (a slow acknowledgement is no outage; a failed or late one stops the
 * flow). Once the flow stops, every event not yet taken is held, and past the bound the oldest is
 * dropped: its publish rejects with BusOverflowError, and once NATS takes events again a notice
 * names the subjects it dropped events on (all of them, in one notice), so their subscribers learn
 * of the gap. A finished event's payload is let go at once, and finished events are compacted out
 * of the queue, so memory follows what is unfinished, not the oldest unfinished one.
 */
import { randomBytes } from 'node:crypto';
import type { JetStreamClient, NatsConnection } from 'nats';
import { encodeEvent } from '../codec.js';
import { BusClosedError, BusOverflowError } from '../errors.js';
import type { BusErrorHandler } from '../types.js';
import { LOST_SUBJECT } from './history.js';
import { createOutboxQueue, type Entry } from './outboxQueue.js';

/** The header that carries an event's id (JetStream's own duplicate detection reads it). */
export const MSG_ID_HEADER = 'Nats-Msg-Id';
/** A notice lists at most this many subjects; past it, it names every subject (`null`). */
const MAX_LISTED_SUBJECTS = 1000;

export interface OutboxLimits {
  /** The most events held (unsent, or to be sent again) while NATS does not take events. */
  maxHeldEvents: number;
  /** The most bytes of event payload held, likewise. */
  maxHeldBytes: number;
  /** How long one acknowledgement is waited for before the event is sent again, ms. */
  ackTimeoutMs: number;
  /** How long to wait before trying again after a failed send, while connected, ms. */
  retryMs: number;
}

/** What a notice of dropped events says: the bus subjects, or null for any. */
export interface LostNotice {
  subjects: string[] | null;
}

export interface Outbox {
  /** Queues an event (its encoded text); resolves once NATS took it, rejects when dropped. */
  push(subject: string, text: string): Promise<void>;
  /** The connection dropped: hold everything from now on. */
  connectionLost(): void;
  /** The connection is back: send what is held, in order. */
  connectionBack(): void;
  /** Events and bytes not yet taken now (held, or in flight while NATS takes events). */
  held(): { events: number; bytes: number };
  /** Since when (epoch ms) NATS has not been taking what is published; null while it does. */
  stalledSince(): number | null;
  /**
   * Waits up to `waitMs` for what is held to be taken, then rejects what is left with
   * BusClosedError and refuses more.
   */
  close(waitMs: number): Promise<void>;
}

/** Builds the outbox of one connection. */
export function createOutbox(deps: {
  nc: NatsConnection;
  js: JetStreamClient;
  subjectPrefix: string;
  limits: OutboxLimits;
  report: BusErrorHandler;
  /** Whether the history keeps a subject (its events wait for JetStream's acknowledgement). */
  covers: (subject: string) => boolean;
  /** Makes the history's stream again when it is gone (a server back without its store). */
  ensureStream: () => Promise<void>;
}): Outbox {
  const { nc, js, subjectPrefix, limits, report } = deps;
  const encoder = new TextEncoder();
  const node = randomBytes(8).toString('hex');
  let counter = 0;
  const queue = createOutboxQueue();
  const { finish, firstHeld } = queue;
  /** Whether an event is sent as soon as it is pushed. */
  let flowing = true;
  /** When the flow last stopped (a failure, the connection lost), epoch ms. */
  let stoppedAt = 0;
  let connected = true;
  let recovering: Promise<void> | null = null;
  let closed = false;
  /** Subjects events were dropped on, for the next notice; null: too many to list. */
  let lost: Set<string> | null = new Set();
  let anyLost = false;

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

  /** Stops sending at once; what is held waits for the connection or a later try. */
  const stall = (err: unknown) => {
    if (!flowing) return;
    flowing = false;
    stoppedAt = Date.now();
    report(err, {});
    // What was in flight is held now: the bound applies to it.
    enforceBound();
    if (connected) startRecovery();
  };

  /**
   * Sends one event. Resolves to whether it was taken; a later attempt's outcome settles it, an
   * earlier one's is ignored (except an acknowledgement: the stream has it either way). A failure
   * of an event already finished is ignored too: it was taken by another attempt, or dropped, and
   * a drop is announced ({@link drop}).
   */
  const send = (entry: Entry): Promise<boolean> => {
    const attempt = ++entry.attempt;
    if (!entry.kept) {
      try {
        nc.publish(entry.natsSubject, entry.payload);
        finish(entry);
        return Promise.resolve(true);
      } catch (err) {
        stall(err);
        return Promise.resolve(false);
      }
    }
    // The id travels as the Nats-Msg-Id header, which subscribers read too.
    return js
      .publish(entry.natsSubject, entry.payload, { msgID: entry.id, timeout: limits.ackTimeoutMs })
      .then(
        () => {
          finish(entry);
          return true;
        },
        (err: unknown) => {
          if (!entry.done && entry.attempt === attempt) stall(err);
          return false;
        },
      );
  };

  /** Read through a call: the connection may change while a round waits. */
  const isConnected = () => connected;

  /** Sends the first held event until it is taken, then lets the rest flow in order. */
  const recover = async () => {
    for (;;) {
      if (!isConnected()) return;
      const first = firstHeld();
      if (first === undefined) break;
      if (!(await send(first))) {
        await deps.ensureStream().catch(() => undefined);
        await sleep(limits.retryMs);
        continue;
      }
      if (!isConnected()) return;
      flowing = true;
      // The rest in order. A send that fails stops the flow (stall): what follows waits for the
      // next round.
      const rest = queue.unfinished();
      const isFlowing = () => flowing;
      for (const next of rest) {
        if (!isFlowing()) break;
        if (!next.done) void send(next);
      }
      break;
    }
    if (isConnected()) flowing = true;
    announceLost();
  };

  /** Starts a round of {@link recover}, at once or after `retryMs` (a failure while connected). */
  const startRecovery = (afterMs = limits.retryMs) => {
    recovering ??= (async () => {
      if (afterMs > 0) await sleep(afterMs);
      await recover();
    })().finally(() => {
      recovering = null;
      // Stalled again while the last round ended: another round.
      if (!flowing && connected) startRecovery();
    });
  };

  /**
   * Tells every subscriber which subjects lost events: an event of its own, on a subject every
   * history keeps, sent after what is held.
   */
  const announceLost = () => {
    if (!anyLost || closed) return;
    const notice: LostNotice = { subjects: lost === null ? null : [...lost] };
    anyLost = false;
    lost = new Set();
    const text = encodeEvent({
      type: 'BUS_LOST',
      topic: LOST_SUBJECT,
      data: notice,
      publishedAt: Date.now(),
    });
    push(LOST_SUBJECT, text).catch((err: unknown) => {
      report(err, { subject: LOST_SUBJECT });
    });
  };

  /**
   * Drops an event past the bound. Drops happen only while the flow is stopped, and every round of
   * {@link recover} that gets it going again ends by announcing what was dropped: one notice for
   * all of it, after what is held.
   */
  const drop = (entry: Entry) => {
    anyLost = true;
    // A notice dropped took its subjects with it: the next one names every subject.
    if (entry.subject === LOST_SUBJECT) lost = null;
    else if (lost !== null) {
      lost.add(entry.subject);
      if (lost.size > MAX_LISTED_SUBJECTS) lost = null;
    }
    finish(
      entry,
      new BusOverflowError(
        `more than ${limits.maxHeldEvents} events or ${limits.maxHeldBytes} bytes held while NATS does not take events: dropped one on ${entry.subject}`,
      ),
    );
  };

  /** Drops the oldest held events past the bound; nothing while the flow goes (none is held). */
  const enforceBound = () => {
    if (flowing) return;
    while (queue.overBound(limits)) {
      const oldest = firstHeld();
      if (oldest === undefined) return;
      drop(oldest);
    }
  };

  function push(subject: string, text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (closed) throw new BusClosedError('the bus is closed');
      const payload = encoder.encode(text);
      const entry: Entry = {
        natsSubject: subjectPrefix + subject,
        subject,
        payload,
        size: payload.length,
        id: `${node}.${(counter++).toString(36)}`,
        kept: deps.covers(subject),
        attempt: 0,
        done: false,
        resolve,
        reject,
      };
      queue.add(entry);
      enforceBound();
      if (flowing && !entry.done) void send(entry);
    });
  }

  return {
    push,
    connectionLost() {
      connected = false;
      if (flowing) stoppedAt = Date.now();
      flowing = false;
      enforceBound();
    },
    connectionBack() {
      connected = true;
      startRecovery(0);
    },
    held: queue.held,
    stalledSince: () => (flowing ? null : stoppedAt),
    async close(waitMs) {
      if (queue.held().events > 0) await Promise.race([queue.whenDrained(), sleep(waitMs)]);
      closed = true;
      for (const entry of queue.unfinished()) {
        finish(entry, new BusClosedError('the bus closed before NATS took the event'));
      }
    },
  };
}
