import { Link, useLocation } from 'wouter';
import { logout, useCurrentUser } from '../auth/session.js';

/** The portal's top bar: its name (a link to the applications) and the developer with Log out. */
export function PortalHeader() {
  const user = useCurrentUser();
  const [, navigate] = useLocation();
  return (
    <header className="portal-header">
      <Link href="~/developers/applications" className="portal-brand">
        Guildhall Developer Portal
      </Link>
      <div className="portal-user">
        {user === null ? null : <span>{user.global_name ?? user.username}</span>}
        <button
          type="button"
          onClick={() => {
            void logout().finally(() => {
              navigate('~/developers/login', { replace: true });
            });
          }}
        >
          Log out
        </button>
      </div>
    </header>
  );
}
