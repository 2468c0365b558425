import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { nextPath } from '../auth/session.js';
import { FormError } from '../components/Field.js';
import { api, ApiError } from '../lib/api.js';
import { setToken } from '../lib/session.js';

/** The code of a one-time login link: `#code=…` (a fragment never reaches a server or a log). */
export function loginLinkCode(hash: string): string | null {
  const code = new URLSearchParams(hash.replace(/^#/, '')).get('code');
  return code !== null && code.length > 0 ? code : null;
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.fieldErrors()['code'] ?? error.message;
  return String(error);
}

interface Props {
  /** Where to go once logged in, when the URL has no `?next=`. */
  home: string;
  /** The login form, shown when there is no code or it did not work. */
  children: ReactNode;
}

/**
 * A login page that first uses a one-time login link (`guildhall start` prints one for the demo
 * developer, `guildhall user login-link` makes one): it trades the `#code=` for a session with
 * POST /auth/login-link, then goes on to `?next=` or `home`. The code leaves the address bar at
 * once; when it does not work, the message and the normal form are shown.
 */
export function LoginLink({ home, children }: Props) {
  const [, navigate] = useLocation();
  const [code] = useState(() => loginLinkCode(location.hash));
  const [error, setError] = useState<string | null>(null);
  // A code works once: the effect must not send it twice (StrictMode runs effects twice).
  const sent = useRef(false);

  useEffect(() => {
    if (code === null || sent.current) return;
    sent.current = true;
    // Out of the address bar and the history entry before anything else can read or share it.
    history.replaceState(history.state, '', location.pathname + location.search);
    api<{ token: string }>('POST', '/auth/login-link', { body: { code }, auth: false }).then(
      ({ token }) => {
        setToken(token);
        // `~`: an absolute path, also from inside the portal's nested router.
        navigate(`~${nextPath(home)}`, { replace: true });
      },
      (err: unknown) => {
        setError(messageOf(err));
      },
    );
  }, [code, home, navigate]);

  if (code !== null && error === null) {
    return (
      <main className="auth-page">
        <p className="card auth-card" role="status">
          Logging you in…
        </p>
      </main>
    );
  }
  return (
    <>
      {error !== null && (
        <div className="login-link-error">
          <FormError message={`The login link did not work: ${error} Log in below instead.`} />
        </div>
      )}
      {children}
    </>
  );
}
