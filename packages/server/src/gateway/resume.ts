/**
 * @module gateway/resume: RESUME takes a session back, from this node or from another through the
 * shared store (gateway/handoff.ts), and replays what it missed; what IDENTIFY would refuse now,
 * and a token that reads otherwise than the session's, it refuses.
 */
import { GatewayCloseCodes as Close } from '@guildhall/protocol';
import { sameGrant } from '../domain/tokenAccess.js';
import type { ResumePayload } from './clientOps.js';
import { EncodedDispatch } from './frames.js';
import type { Handoff } from './handoff.js';
import type { Lifecycle } from './lifecycle.js';
import type { Login } from './login.js';
import { grantOf, type LoginRefusals } from './loginRefusals.js';
import { resumedPayload } from './payloads.js';
import type { SessionRegistry } from './registry.js';
import type { Sender } from './send.js';
import type { Connection } from './session.js';
import type { SessionStore } from './sessionStore.js';

/** RESUME of one gateway's handshake. */
export function createResume(
  deps: LoginRefusals & {
    login: Login;
    registry: SessionRegistry;
    sessionStore: SessionStore;
    handoff: Handoff;
    send: Sender;
    lifecycle: Lifecycle;
  },
) {
  const {
    login,
    registry,
    send,
    lifecycle,
    refuseWithClose,
    refuseWithInvalidSession,
    faultAnswered,
  } = deps;

  /** RESUME on `conn`; `admit` counts the connection as logged in (as for IDENTIFY). */
  const resume = async (conn: Connection, d: ResumePayload, admit: () => void) => {
    const sessionId = d.session_id;
    // The token first: no session, here or on another node, is looked at for a caller who cannot
    // prove to be its user.
    const principal = await login.authenticate(d.token);
    if (!login.mayLogIn(principal)) {
      refuseWithClose(conn, { kind: 'resume', who: { sessionId } }, login.AUTHENTICATION_FAILED);
      return;
    }
    const local = registry.get(sessionId);
    const stored =
      local === undefined && deps.sessionStore.shared && sessionId !== ''
        ? await deps.sessionStore.load(sessionId)
        : null;
    const found = local ?? stored;
    if (found === null) {
      refuseWithInvalidSession(conn, { kind: 'resume', who: { sessionId } }, 'unknown_session');
      return;
    }
    const who = { sessionId, shard: found.shard };
    if (found.userId !== principal.user.id) {
      refuseWithClose(conn, { kind: 'resume', who }, login.AUTHENTICATION_FAILED);
      return;
    }
    // What IDENTIFY refuses now, RESUME refuses too (a privileged intent turned off since, say).
    const checked = await login.check(principal, { intents: found.intents, shard: found.shard });
    if (checked.refused !== null) {
      refuseWithClose(conn, { kind: 'resume', who }, checked.refused);
      return;
    }
    if (faultAnswered(conn, 'resume', { ...principal, sessionId })) return;
    // The session goes on reading what its token read: another token (a refreshed one) must
    // read the same, or READY is to be built again for it. A session an older node saved has
    // no grant: a bot or session token (which read everything) may take it, a Bearer one not.
    const grant = grantOf(principal);
    if (found.grant === undefined ? grant.kind === 'bearer' : !sameGrant(found.grant, grant)) {
      refuseWithInvalidSession(conn, { kind: 'resume', who }, 'grant_changed');
      return;
    }
    const session =
      local ??
      (stored === null
        ? null
        : await deps.handoff.adopt(stored, {
            seq: d.seq,
            sdk: checked.sdk,
            applicationId: principal.applicationId,
            grant,
          }));
    if (session === null) {
      refuseWithInvalidSession(conn, { kind: 'resume', who }, 'handoff_failed');
      return;
    }
    registry.changeCredential(session, principal.tokenHash);
    const from = d.seq;
    if (from < 0 || from > session.seq) {
      refuseWithClose(
        conn,
        { kind: 'resume', who },
        { code: Close.INVALID_SEQ, reason: 'Invalid seq.' },
      );
      return;
    }
    const oldest = session.replay[0]?.seq ?? session.seq + 1;
    if (from < oldest - 1) {
      refuseWithInvalidSession(conn, { kind: 'resume', who }, 'replay_expired');
      registry.drop(session);
      return;
    }
    if (!conn.transport.open) return;
    const previous = session.conn;
    if (previous !== null && previous !== conn) {
      previous.session = null;
      send.close(previous, Close.UNKNOWN_ERROR, 'Session resumed elsewhere.');
    }
    admit();
    session.conn = conn;
    conn.session = session;
    let replayed = 0;
    for (const entry of session.replay) {
      if (entry.seq <= from) continue;
      conn.transport.send(entry.event.frame(conn.encoding, entry.seq));
      replayed++;
    }
    lifecycle.resumed(session, { seq: from, replayed });
    send.deliver(session, new EncodedDispatch('RESUMED', resumedPayload()));
  };

  return resume;
}
