/**
 * @module gateway/loginRefusals: how the handshake refuses an IDENTIFY or a RESUME (a close, or a
 * non-resumable INVALID_SESSION), each with its log line and count, and a test harness's answer to
 * a login in place of READY or RESUMED (gateway/hooks.ts).
 */
import { canReconnect } from '@guildhall/protocol';
import type { Timers } from '../domain/clock.js';
import type { TokenGrant } from '../domain/tokenAccess.js';
import type { Principal } from '../http/authenticator.js';
import type { GatewayHooks } from './hooks.js';
import { refusalReason, type Lifecycle, type RefusalReason } from './lifecycle.js';
import type { Refusal } from './login.js';
import type { SessionRegistry } from './registry.js';
import type { Sender } from './send.js';
import { performSessionAction } from './sessionActions.js';
import type { Connection } from './session.js';

/** A refused IDENTIFY or RESUME, and what its log line says of whom it concerned. */
export interface RefusedLogin {
  kind: 'identify' | 'resume';
  who: { userId?: string; sessionId?: string; shard?: readonly [number, number] };
}

/** What a session keeps of its token: its kind, application and scopes. */
export function grantOf(principal: Principal): TokenGrant {
  return {
    kind: principal.kind,
    scopes: [...principal.scopes],
    applicationId: principal.applicationId,
  };
}

/** The refusals of one gateway's handshake. */
export function createLoginRefusals(deps: {
  hooks: GatewayHooks;
  lifecycle: Lifecycle;
  registry: SessionRegistry;
  send: Sender;
  timers: Timers;
}) {
  const { lifecycle, registry, send } = deps;

  /** A login refused with a close: one line, then the close's. */
  const refuseWithClose = (conn: Connection, login: RefusedLogin, refusal: Refusal) => {
    lifecycle.loginRefused(login.kind, refusalReason(refusal.code), login.who);
    send.close(conn, refusal.code, refusal.reason);
  };
  /** A login refused with INVALID_SESSION (not resumable): its line names the login. */
  const refuseWithInvalidSession = (
    conn: Connection,
    login: RefusedLogin,
    reason: RefusalReason,
  ) => {
    lifecycle.loginRefused(login.kind, reason, { ...login.who, log: false });
    send.invalidSession(conn, {
      resumable: false,
      reason,
      login: { kind: login.kind, detail: login.who },
    });
  };

  /**
   * A test harness answers this login (op 7, op 9 or a close) instead: done, and true. A RESUME
   * so refused with a non-resumable op 9 or a final close ends its session.
   */
  const faultAnswered = (
    conn: Connection,
    kind: 'identify' | 'resume',
    who: Pick<Principal, 'user' | 'applicationId'> & { sessionId: string | null },
  ) => {
    const action = deps.hooks.login?.(kind, {
      userId: who.user.id,
      applicationId: who.applicationId,
      sessionId: who.sessionId,
    });
    if (action === undefined || action === null) return false;
    lifecycle.loginRefused(kind, 'fault', {
      userId: who.user.id,
      ...(who.sessionId === null ? {} : { sessionId: who.sessionId }),
    });
    performSessionAction({ send, registry, timers: deps.timers }, conn, action);
    const ended =
      (action.type === 'invalidSession' && !action.resumable) ||
      (action.type === 'close' && !canReconnect(action.code));
    const session = who.sessionId === null ? undefined : registry.get(who.sessionId);
    if (ended && session !== undefined) registry.drop(session);
    return true;
  };

  return { refuseWithClose, refuseWithInvalidSession, faultAnswered };
}

export type LoginRefusals = ReturnType<typeof createLoginRefusals>;
