/**
 * @module gateway/send: what leaves for a session. Every dispatch gets the session's next
 * sequence number and a place in its replay buffer (and in the shared store, for a RESUME on
 * another node); a connection that does not read what it is sent is closed (the slow-reader
 * limit). Compression is the connection's transport's (gateway/frames.ts).
 */
import { GatewayCloseCodes as Close, GatewayOpcodes as Op } from '@guildhall/protocol';
import type { Clock, Timers } from '../domain/clock.js';
import { controlFrame, type EncodedDispatch } from './frames.js';
import type { GatewayHooks } from './hooks.js';
import type { InvalidSessionDetail, Lifecycle } from './lifecycle.js';
import type { GatewayOptions } from './options.js';
import { invalidSessionPayload } from './payloads.js';
import type { Connection, DispatchSource, Session } from './session.js';
import type { SessionStore } from './sessionStore.js';

export interface Sender {
  /**
   * Sends a dispatch to a session (kept for its RESUME even while it has no connection), or
   * holds it while the session holds dispatches back. `source` is the bus dispatch it came from.
   */
  deliver(session: Session, event: EncodedDispatch, source?: DispatchSource | null): void;
  /**
   * Sends `first`, then what was held for the session, in order, except dispatches whose source
   * id is in `skip` (what another node already sent); the session receives directly from now on.
   */
  releaseHeld(
    session: Session,
    options?: { first?: EncodedDispatch; skip?: ReadonlySet<string> },
  ): void;
  /** Sends a frame that is not a dispatch (HELLO, HEARTBEAT_ACK, …). */
  control(conn: Connection, op: number, d: unknown): void;
  /**
   * Sends INVALID_SESSION (op 9) and logs it with its reason; `session` is the one it concerns
   * when the connection no longer names it.
   */
  invalidSession(conn: Connection, detail: InvalidSessionDetail): void;
  close(conn: Connection, code: number, reason?: string): void;
}

/** The labels of a dispatch not written: a fault dropped it, or its connection was closing. */
const DROPPED_BY_FAULT = 'reason="fault"';
const DROPPED_CLOSED = 'reason="connection_closed"';

/** A frame kept back by a delay fault, and the earliest it may leave (real time, ms). */
interface LateFrame {
  conn: Connection;
  frame: string | Buffer;
  notBeforeMs: number;
}

export function createSender(deps: {
  options: Pick<GatewayOptions, 'replayLimit' | 'maxBufferedBytes'>;
  sessionStore: SessionStore;
  /** What a test harness bends (gateway/hooks.ts): dropped and delayed dispatches. */
  hooks?: GatewayHooks;
  /** The real clock and timers delayed dispatches wait on. */
  clock: Clock;
  timers: Timers;
  /** Counts what is sent and dropped, and logs INVALID_SESSION (gateway/lifecycle.ts). */
  lifecycle: Pick<Lifecycle, 'stats' | 'invalidSession'>;
}): Sender {
  const { options, sessionStore, hooks } = deps;
  const { stats } = deps.lifecycle;
  const close = (conn: Connection, code: number, reason = '') => {
    conn.transport.close(code, reason);
  };
  /**
   * Frames of sessions a delay fault holds back: they leave in order, each no sooner than its
   * time, and a frame without a delay waits behind the delayed ones before it.
   */
  const late = new Map<Session, LateFrame[]>();
  const flushLate = (session: Session) => {
    const queue = late.get(session) ?? [];
    const now = deps.clock.now();
    let next = queue[0];
    while (next !== undefined && next.notBeforeMs <= now) {
      queue.shift();
      if (next.conn.transport.open) next.conn.transport.send(next.frame);
      next = queue[0];
    }
    if (next === undefined) late.delete(session);
    else
      deps.timers.schedule(() => {
        flushLate(session);
      }, next.notBeforeMs - now);
  };
  const sendLate = (session: Session, entry: LateFrame) => {
    const queue = late.get(session);
    if (queue !== undefined) {
      queue.push(entry);
      return;
    }
    late.set(session, [entry]);
    deps.timers.schedule(() => {
      flushLate(session);
    }, entry.notBeforeMs - deps.clock.now());
  };
  const deliver = (
    session: Session,
    event: EncodedDispatch,
    source: DispatchSource | null = null,
  ) => {
    if (session.held !== null) {
      session.held.push({ event, source });
      return;
    }
    const fate = hooks?.dispatchFate?.(session, event.type) ?? 'send';
    if (fate === 'drop') {
      stats.dispatchesDropped.add(DROPPED_BY_FAULT);
      return;
    }
    const seq = ++session.seq;
    // READY is never replayed (a RESUME starts after it), so idle sessions do not keep it.
    if (event.type !== 'READY') session.replay.push({ seq, event, source });
    // Trimmed in halves, so a send costs no shift of the whole buffer.
    if (session.replay.length >= 2 * options.replayLimit) {
      session.replay.splice(0, session.replay.length - options.replayLimit);
    }
    if (sessionStore.shared) sessionStore.record({ sessionId: session.id, seq, event, source });
    hooks?.sent?.(session, { type: event.type, d: event.data, seq });
    const conn = session.conn;
    if (conn === null) return;
    if (!conn.transport.open) {
      stats.dispatchesDropped.add(DROPPED_CLOSED);
      return;
    }
    stats.dispatchesSent++;
    if (fate !== 'send' || late.has(session)) {
      const delayMs = fate === 'send' ? 0 : fate.delayMs;
      const frame = event.frame(conn.encoding, seq);
      sendLate(session, { conn, frame, notBeforeMs: deps.clock.now() + delayMs });
      return;
    }
    conn.transport.send(event.frame(conn.encoding, seq));
    // A client that does not read: what it leaves queued is bounded (the READY burst and a
    // RESUME's replay, while busy, are let through whole; they are bounded by the session's own
    // guilds).
    if (!conn.busy && conn.ws.bufferedAmount > options.maxBufferedBytes) {
      close(conn, Close.RATE_LIMITED, 'Slow reader: too much unread.');
    }
  };
  return {
    deliver,
    releaseHeld(session, { first, skip } = {}) {
      const held = session.held ?? [];
      session.held = null;
      if (first !== undefined) deliver(session, first);
      for (const { event, source } of held) {
        if (source === null || skip?.has(source.id) !== true) deliver(session, event, source);
      }
    },
    control(conn, op, d) {
      conn.transport.send(controlFrame(conn.encoding, op, d));
    },
    invalidSession(conn, detail) {
      deps.lifecycle.invalidSession(conn, detail);
      conn.transport.send(
        controlFrame(conn.encoding, Op.INVALID_SESSION, invalidSessionPayload(detail.resumable)),
      );
    },
    close,
  };
}
