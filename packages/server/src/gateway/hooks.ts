/**
 * @module gateway/hooks: what a test harness watches and bends in the gateway (control/,
 * docs/testing.md#faults): the frames sessions send and are sent, heartbeats left unanswered,
 * dispatches dropped or delayed, and a session told to reconnect, invalidated or closed. Each
 * hook absent does nothing; the gateway asks them at one place each.
 */
import { GatewayOpcodes as Op, canReconnect } from '@guildhall/protocol';
import type { Timers } from '../domain/clock.js';
import { invalidSessionPayload } from './payloads.js';
import type { SessionRegistry } from './registry.js';
import type { Sender } from './send.js';
import type { Connection, Session } from './session.js';

/** What a session is made to go through: op 7, op 9, or its connection closed with a code. */
export type SessionAction =
  | { type: 'reconnect' }
  | { type: 'invalidSession'; resumable: boolean }
  | { type: 'close'; code: number; reason?: string };

/** What becomes of a dispatch: sent, dropped (no sequence number, no replay), or sent later (ms). */
export type DispatchFate = 'send' | 'drop' | { delayMs: number };

/** Whom a login concerns. */
export interface LoginSubject {
  userId: string;
  applicationId: string | null;
  /** The session resumed; null for an IDENTIFY. */
  sessionId: string | null;
}

export interface GatewayHooks {
  /** A frame a session sent (op 1 heartbeats left out; IDENTIFY and RESUME once they succeed). */
  received?(session: Session, op: number, d: unknown): void;
  /** Whether a heartbeat is acknowledged (op 11); it counts as a heartbeat either way. */
  acknowledgeHeartbeat?(session: Session | null): boolean;
  /** What becomes of a dispatch about to go to a session. */
  dispatchFate?(session: Session, type: string): DispatchFate;
  /** A dispatch given its sequence number (sent now, later, or kept for a RESUME). */
  sent?(session: Session, dispatch: { type: string; d: unknown; seq: number }): void;
  /** An IDENTIFY or RESUME its token passed: an action to answer it with instead, or null. */
  login?(kind: 'identify' | 'resume', subject: LoginSubject): SessionAction | null;
}

/** How long a connection told to reconnect (op 7) has to close before the gateway closes it. */
export const RECONNECT_GRACE_MS = 5000;
/** The close code of a connection that did not leave after op 7 (resumable). */
const RECONNECT_CLOSE = 4000;

/**
 * Does `action` to a connection (and the session it serves, if any): op 7, then a close if the
 * client stays; op 9, a non-resumable one ending the session; or a close, a final code (4004,
 * 4010–4014) ending the session.
 */
export function performSessionAction(
  deps: { send: Sender; registry: SessionRegistry; timers: Timers },
  conn: Connection,
  action: SessionAction,
): void {
  const { send, registry } = deps;
  const end = (session: Session | null) => {
    if (session === null) return;
    conn.session = null;
    session.conn = null;
    registry.drop(session);
  };
  switch (action.type) {
    case 'reconnect':
      send.control(conn, Op.RECONNECT, null);
      deps.timers.schedule(() => {
        if (conn.transport.open) send.close(conn, RECONNECT_CLOSE, 'Reconnect.');
      }, RECONNECT_GRACE_MS);
      return;
    case 'invalidSession':
      send.control(conn, Op.INVALID_SESSION, invalidSessionPayload(action.resumable));
      if (!action.resumable) end(conn.session);
      return;
    case 'close':
      if (!canReconnect(action.code)) end(conn.session);
      send.close(conn, action.code, action.reason ?? '');
      return;
  }
}
