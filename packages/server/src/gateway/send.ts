/**
 * @module gateway/send: what leaves for a session. Every dispatch gets the session's next
 * sequence number and a place in its replay buffer (and in the shared store, for a RESUME on
 * another node); a connection that does not read what it is sent is closed (the slow-reader
 * limit). Compression is the connection's transport's (gateway/frames.ts).
 */
import { GatewayCloseCodes as Close } from '@guildhall/protocol';
import { controlFrame, type EncodedDispatch } from './frames.js';
import type { GatewayOptions } from './options.js';
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
  /** Sends a frame that is not a dispatch (HELLO, HEARTBEAT_ACK, INVALID_SESSION, …). */
  control(conn: Connection, op: number, d: unknown): void;
  close(conn: Connection, code: number, reason?: string): void;
}

export function createSender(deps: {
  options: Pick<GatewayOptions, 'replayLimit' | 'maxBufferedBytes'>;
  sessionStore: SessionStore;
}): Sender {
  const { options, sessionStore } = deps;
  const close = (conn: Connection, code: number, reason = '') => {
    conn.transport.close(code, reason);
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
    const seq = ++session.seq;
    // READY is never replayed (a RESUME starts after it), so idle sessions do not keep it.
    if (event.type !== 'READY') session.replay.push({ seq, event, source });
    // Trimmed in halves, so a send costs no shift of the whole buffer.
    if (session.replay.length >= 2 * options.replayLimit) {
      session.replay.splice(0, session.replay.length - options.replayLimit);
    }
    if (sessionStore.shared) sessionStore.record({ sessionId: session.id, seq, event, source });
    const conn = session.conn;
    if (conn === null) return;
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
    close,
  };
}
