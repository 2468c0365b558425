import { useId, useState } from 'react';
import { Link } from 'wouter';
import { logout } from '../auth/session.js';
import { setStatus, useClient, useClientState } from './context.js';
import { PresenceDot } from './members/MemberList.js';

const STATUSES = [
  ['online', 'Online'],
  ['idle', 'Idle'],
  ['dnd', 'Do Not Disturb'],
  ['invisible', 'Invisible'],
] as const;

/**
 * The current user at the bottom of the sidebar column: status, the connected games settings, and
 * "Log out".
 */
export function UserPanel() {
  const { gateway, store } = useClient();
  const me = useClientState((s) => s.me);
  const status = useClientState((s) => s.ownStatus);
  const statusId = useId();
  const [busy, setBusy] = useState(false);
  return (
    <section className="user-panel" aria-label="User">
      {me === null ? (
        <span className="muted">Connecting…</span>
      ) : (
        <div className="user-panel-who">
          <PresenceDot status={status === 'invisible' ? 'offline' : status} />
          <span className="user-panel-names">
            <strong>{me.global_name ?? me.username}</strong>
            <span className="muted">{me.username}</span>
          </span>
        </div>
      )}
      <div className="user-panel-actions">
        <label htmlFor={statusId} className="visually-hidden">
          Status
        </label>
        <select
          id={statusId}
          value={status}
          onChange={(event) => {
            setStatus(gateway, store, event.target.value);
          }}
        >
          {STATUSES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <Link href="/settings/connected-games">Connected games</Link>
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
      </div>
    </section>
  );
}
