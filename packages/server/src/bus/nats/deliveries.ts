/**
 * @module bus/nats/deliveries: the subscriptions of a NATS bus, and what they get after the
 * connection was lost. Core NATS delivers only to a connected subscriber, so while the connection
 * is down (and until the server has its subscriptions again) what is published is not delivered
 * to it. Once it is back, each subscription the history keeps holds what arrives live, the
 * history is read from a little before the connection dropped, and what the subscription had not
 * received is delivered in the stream's order, then what it held: each event once (by its
 * `Nats-Msg-Id`, bus/nats/outbox.ts). A subscription the history does not keep, or an
 * interruption the stream no longer holds whole, is reported to the subscription's `onGap`.
 */
import type { JsMsg, Msg, NatsConnection, Subscription as NatsSubscription } from 'nats';
import { invokeHandler } from '../handlers.js';
import { assertSubscribeSubject, subjectMatches } from '../subjects.js';
import type { BusErrorHandler, BusHandler, SubscribeOptions, Subscription } from '../types.js';
import { LOST_SUBJECT, decodeDelivered, type NatsHistory } from './history.js';
import { MSG_ID_HEADER, type LostNotice } from './outbox.js';

/**
 * How far before the moment the connection dropped the history is read: events the server had
 * stored but not yet sent, and the bus server's clock against this node's.
 */
export const CATCH_UP_MARGIN_MS = 2000;
/** How long a catch-up tries to read the history before it reports a gap instead, ms. */
const CATCH_UP_LIMIT_MS = 30_000;
const CATCH_UP_RETRY_MS = 250;
/**
 * How long the id of a received event is remembered, so a repeat (a publisher that sent it again
 * when its acknowledgement was lost, or the history read after an interruption) is dropped.
 */
const SEEN_KEEP_MS = 30_000;
/** The most ids remembered (the oldest go first). */
const MAX_SEEN = 100_000;
const SEEN_PRUNE_EVERY_MS = 5000;

interface Sub {
  readonly id: number;
  readonly pattern: string;
  readonly handler: BusHandler;
  readonly onGap: SubscribeOptions['onGap'];
  active: boolean;
  /** When it was made, epoch ms: an interruption before it is none of its business. */
  readonly since: number;
  /** Whether the history keeps every subject of its pattern. */
  readonly kept: boolean;
  /** Live events kept back while the history is read for it; null when delivered as they come. */
  held: Msg[] | null;
  nats: NatsSubscription | null;
}

export interface Deliveries {
  /** Starts hearing the notices of events publishers dropped. */
  start(): Promise<void>;
  subscribe(pattern: string, handler: BusHandler, options: SubscribeOptions): Promise<Subscription>;
  /** The connection dropped at `atMs`. */
  connectionLost(atMs: number): void;
  /** The connection is back (the client has sent its subscriptions again). */
  connectionBack(): void;
  close(): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

export function createDeliveries(deps: {
  nc: NatsConnection;
  subjectPrefix: string;
  history: NatsHistory | null;
  report: BusErrorHandler;
}): Deliveries {
  const { nc, subjectPrefix, history, report } = deps;
  const subs = new Set<Sub>();
  let nextId = 0;
  /** `<subscription id> <event id>` → when received, oldest first. */
  const seen = new Map<string, number>();
  /** When the connection first dropped since the last complete catch-up; null: none pending. */
  let lostAt: number | null = null;
  let connected = true;
  /** Counts drops: a catch-up begun before the latest one gives way to the next. */
  let epoch = 0;
  let catchingUp: Promise<void> | null = null;

  const prune = () => {
    const cutoff = Math.min(lostAt ?? Date.now(), Date.now()) - SEEN_KEEP_MS;
    for (const [key, at] of seen) {
      if (at >= cutoff && seen.size <= MAX_SEEN) break;
      seen.delete(key);
    }
  };
  const pruner = setInterval(prune, SEEN_PRUNE_EVERY_MS);
  pruner.unref();

  const gap = (sub: Sub, reason: string) => {
    if (!sub.active || sub.onGap === undefined) return;
    try {
      sub.onGap({ subject: sub.pattern, reason });
    } catch (err) {
      report(err, { subject: sub.pattern });
    }
  };

  const deliver = (sub: Sub, msg: Msg | JsMsg) => {
    if (!sub.active) return;
    const id = msg.headers?.get(MSG_ID_HEADER) ?? '';
    if (id !== '') {
      const key = `${String(sub.id)} ${id}`;
      if (seen.has(key)) return;
      seen.set(key, Date.now());
    }
    const delivered = decodeDelivered(msg, subjectPrefix, report);
    if (delivered !== null) invokeHandler(sub.handler, delivered, report);
  };

  /** The subscriptions among `kept` that a subject reaches. */
  const matcher = (kept: readonly Sub[]) => {
    const literal = new Map<string, Sub[]>();
    const wildcard: Sub[] = [];
    for (const sub of kept) {
      if (sub.pattern.split('.').some((t) => t === '*' || t === '>')) wildcard.push(sub);
      else literal.set(sub.pattern, [...(literal.get(sub.pattern) ?? []), sub]);
    }
    return (subject: string) => [
      ...(literal.get(subject) ?? []),
      ...wildcard.filter((sub) => subjectMatches(sub.pattern, subject)),
    ];
  };

  /**
   * Reads the history for `kept` from a little before `lostAt`; resolves to whether it held all
   * that was published since `lostAt`, or to null when the connection dropped again meanwhile.
   */
  const readHistory = async (
    source: NatsHistory,
    kept: readonly Sub[],
    input: { lostAt: number; epoch: number },
  ): Promise<boolean | null> => {
    const reached = matcher(kept);
    const deadline = Date.now() + CATCH_UP_LIMIT_MS;
    for (;;) {
      if (epoch !== input.epoch) return null;
      try {
        // Once the server answers, it has this connection's subscriptions again.
        await nc.flush();
        const sinceMs = input.lostAt - CATCH_UP_MARGIN_MS;
        const { wholeSinceMs } = await source.scan(sinceMs, (msg) => {
          for (const sub of reached(msg.subject.slice(subjectPrefix.length))) deliver(sub, msg);
        });
        return wholeSinceMs <= input.lostAt;
      } catch (err) {
        if (Date.now() > deadline) {
          report(err, {});
          return false;
        }
        await source.ensure().catch(() => undefined);
        await sleep(CATCH_UP_RETRY_MS);
      }
    }
  };

  /** What the subscriptions missed since `lostAt`: from the history, or reported as a gap. */
  const catchUp = async () => {
    const from = lostAt;
    if (from === null) return;
    const mine = epoch;
    const affected = [...subs].filter((sub) => sub.since < from);
    const kept = history === null ? [] : affected.filter((sub) => sub.kept);
    for (const sub of kept) sub.held ??= [];
    // Once the server answers, it has this connection's subscriptions again: what is published
    // from now on arrives, and a gap reported below is the whole of it.
    await nc.flush();
    if (epoch !== mine) return;
    let whole = true;
    if (history !== null && kept.length > 0) {
      const read = await readHistory(history, kept, { lostAt: from, epoch: mine });
      if (read === null) return;
      whole = read;
    }
    if (epoch !== mine) return;
    lostAt = null;
    for (const sub of kept) {
      const held = sub.held ?? [];
      sub.held = null;
      for (const msg of held) deliver(sub, msg);
      if (!whole) gap(sub, 'the bus history no longer holds all that was published meanwhile');
    }
    const caughtUp = new Set(kept);
    for (const sub of affected) {
      if (!caughtUp.has(sub)) gap(sub, 'the bus keeps no history of the subject');
    }
  };

  const startCatchUp = () => {
    catchingUp ??= catchUp()
      .catch((err: unknown) => {
        report(err, {});
      })
      .finally(() => {
        catchingUp = null;
        if (lostAt !== null && connected) startCatchUp();
      });
  };

  /** A notice of events a publisher dropped (bus/nats/outbox.ts): their subscribers are told. */
  const onLost = (data: unknown) => {
    const listed = (data as Partial<LostNotice> | null)?.subjects;
    const subjects = Array.isArray(listed) ? listed.map(String) : null;
    for (const sub of subs) {
      if (subjects === null || subjects.some((s) => subjectMatches(sub.pattern, s))) {
        gap(sub, 'a publisher dropped events it could not send while NATS was unreachable');
      }
    }
  };

  const subscribe: Deliveries['subscribe'] = async (pattern, handler, options) => {
    assertSubscribeSubject(pattern);
    const sub: Sub = {
      id: nextId++,
      pattern,
      handler,
      onGap: options.onGap,
      active: true,
      since: Date.now(),
      kept: history?.coversPattern(pattern) ?? false,
      held: null,
      nats: null,
    };
    sub.nats = nc.subscribe(subjectPrefix + pattern, {
      callback: (err, msg) => {
        if (err !== null) {
          report(err, { subject: pattern });
          return;
        }
        if (!sub.active) return;
        if (sub.held !== null) sub.held.push(msg);
        else deliver(sub, msg);
      },
    });
    subs.add(sub);
    // Once the server answers the flush it holds the interest: later publishes reach us.
    await nc.flush();
    return {
      subject: pattern,
      unsubscribe() {
        if (!sub.active) return;
        sub.active = false;
        sub.held = null;
        subs.delete(sub);
        if (!nc.isClosed() && !nc.isDraining()) sub.nats?.unsubscribe();
      },
    };
  };

  return {
    async start() {
      // A subscription like the others: a notice sent while this node was cut off is caught up.
      await subscribe(
        LOST_SUBJECT,
        (event) => {
          onLost(event.data);
        },
        {},
      );
    },
    subscribe,
    connectionLost(atMs) {
      connected = false;
      epoch++;
      lostAt ??= atMs;
    },
    connectionBack() {
      connected = true;
      startCatchUp();
    },
    close() {
      clearInterval(pruner);
    },
  };
}
