/**
 * @module control/gatewayFaults: the gateway's hooks (gateway/hooks.ts) answered from the faults
 * in force and written to the log: heartbeats left unanswered, dispatches dropped or delayed,
 * logins answered with op 7, op 9 or a close, and what sessions sent and were sent.
 */
import type { Gateway, GatewayHooks, Session, SessionAction } from '../gateway/index.js';
import { isSessionAction, type FaultOf, type FaultRegistry, type FaultSubject } from './faults.js';
import type { ControlLogWriter } from './log.js';

/** Dispatches a fault without `events` leaves alone: the session's own handshake. */
const HANDSHAKE_DISPATCHES = new Set(['READY', 'RESUMED']);
/** Fields of a sent frame the log does not keep. */
const SECRET_FIELDS = new Set(['token']);

type GatewayFault = FaultOf<'gateway'>;

const subjectOf = (session: Session): FaultSubject => ({
  userId: session.userId,
  applicationId: session.applicationId,
});

/** What a session-action fault does. */
export function actionOf(fault: GatewayFault): SessionAction | null {
  switch (fault.type) {
    case 'reconnect':
      return { type: 'reconnect' };
    case 'invalidSession':
      return { type: 'invalidSession', resumable: fault.resumable };
    case 'close':
      return { type: 'close', code: fault.code, ...(fault.reason ? { reason: fault.reason } : {}) };
    case 'ignoreHeartbeats':
    case 'delayDispatches':
    case 'dropDispatches':
      return null;
  }
}

const forSession = (fault: GatewayFault, sessionId: string | null) =>
  fault.sessionId === undefined || fault.sessionId === sessionId;

const coversEvent = (fault: { events?: string[] }, type: string) =>
  fault.events === undefined ? !HANDSHAKE_DISPATCHES.has(type) : fault.events.includes(type);

/** `d` as the log keeps it: a token a frame carries is left out. */
function withoutSecrets(d: unknown): unknown {
  if (typeof d !== 'object' || d === null || Array.isArray(d)) return d;
  return Object.fromEntries(
    Object.entries(d).map(([key, value]) => [key, SECRET_FIELDS.has(key) ? '[redacted]' : value]),
  );
}

export function createGatewayHooks(deps: {
  faults: FaultRegistry;
  log: ControlLogWriter;
  recording: boolean;
}): GatewayHooks {
  const { faults, log } = deps;
  /** The first fault of `test` for the session that fires now, if any. */
  const firing = (session: Session, test: (fault: GatewayFault) => boolean) => {
    if (!faults.any('gateway')) return null;
    const found = faults.matching(
      'gateway',
      subjectOf(session),
      (fault) => forSession(fault, session.id) && test(fault),
    );
    return found.find((fault) => faults.fire(fault)) ?? null;
  };

  const hooks: GatewayHooks = {
    acknowledgeHeartbeat: (session) =>
      session === null || firing(session, (f) => f.type === 'ignoreHeartbeats') === null,
    dispatchFate(session, type) {
      if (!faults.any('gateway')) return 'send';
      if (firing(session, (f) => f.type === 'dropDispatches' && coversEvent(f, type)) !== null) {
        return 'drop';
      }
      const delay = firing(session, (f) => f.type === 'delayDispatches' && coversEvent(f, type));
      return delay?.type === 'delayDispatches' ? { delayMs: delay.ms } : 'send';
    },
    login(kind, subject) {
      if (!faults.any('gateway')) return null;
      const found = faults.matching(
        'gateway',
        subject,
        (fault) =>
          fault.on === kind && isSessionAction(fault) && forSession(fault, subject.sessionId),
      );
      const fault = found.find((f) => faults.fire(f));
      return fault === undefined ? null : actionOf(fault);
    },
  };
  if (!deps.recording) return hooks;
  return {
    ...hooks,
    received(session, op, d) {
      log.record({
        kind: 'gatewayCommand',
        ...subjectOf(session),
        sessionId: session.id,
        op,
        d: withoutSecrets(d),
      });
    },
    sent(session, { type, d, seq }) {
      log.record({
        kind: 'dispatch',
        ...subjectOf(session),
        sessionId: session.id,
        t: type,
        s: seq,
        d,
      });
    },
  };
}

/** What a `now` fault does to the live sessions it matches (faults.ts calls it on `add`). */
export function gatewayNowPort(gateway: Pick<Gateway, 'act'>) {
  return (fault: GatewayFault, take: (subject: FaultSubject) => boolean) => {
    const action = actionOf(fault);
    if (action === null) return;
    gateway.act((session) => forSession(fault, session.id) && take(subjectOf(session)), action);
  };
}
