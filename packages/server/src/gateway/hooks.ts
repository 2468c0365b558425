/**
 * @module gateway/hooks: what a test harness watches and bends in the gateway (control/,
 * docs/testing.md#faults): the frames sessions send and are sent, heartbeats left unanswered,
 * dispatches dropped or delayed, and a session told to reconnect, invalidated or closed. Each
 * hook absent does nothing; the gateway asks them at one place each.
 */
import type { Session } from './session.js';

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
