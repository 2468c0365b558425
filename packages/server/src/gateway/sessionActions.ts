/**
 * What the gateway does to a connection when a hook asks (gateway/hooks.ts): reconnect, invalid
 * session or a close. Apart from the hooks' types so that the sender, which reads those types,
 * does not depend on the registry.
 */
import { GatewayOpcodes as Op, canReconnect } from '@guildhall/protocol';
import type { Timers } from '../domain/clock.js';
import type { SessionAction } from './hooks.js';
import type { SessionRegistry } from './registry.js';
import type { Sender } from './send.js';
import type { Connection, Session } from './session.js';

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
      send.invalidSession(conn, { resumable: action.resumable, reason: 'fault' });
      if (!action.resumable) end(conn.session);
      return;
    case 'close':
      if (!canReconnect(action.code)) end(conn.session);
      send.close(conn, action.code, action.reason ?? '');
      return;
  }
}
