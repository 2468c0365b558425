import { useState } from 'react';
import { logout } from '../auth/session.js';
import { useClientState } from './context.js';
import { PresenceDot } from './members/MemberList.js';

/** The current user at the bottom of the sidebar column, with "Log out". */
export function UserPanel() {
  const me = useClientState((s) => s.me);
  const status = useClientState((s) =>
    s.me === null ? 'offline' : (s.presences[s.me.id]?.status ?? 'online'),
  );
  const [busy, setBusy] = useState(false);
  return (
    <section className="user-panel" aria-label="User">
      {me === null ? (
        <span className="muted">Connecting…</span>
      ) : (
        <div className="user-panel-who">
          <PresenceDot status={status} />
          <span className="user-panel-names">
            <strong>{me.global_name ?? me.username}</strong>
            <span className="muted">{me.username}</span>
          </span>
        </div>
      )}
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          // The token is dropped whatever the server answers; the login page follows.
          void logout().catch(() => undefined);
        }}
      >
        Log out
      </button>
    </section>
  );
}
