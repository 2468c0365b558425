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

type Step = 'link' | 'session' | 'form';

/** Trades a login link's code, or the page cookie's session, for a token. */
async function signIn(code: string | null): Promise<{ token: string } | { error: string | null }> {
  const options = { auth: false, cookies: true } as const;
  try {
    if (code !== null) {
      return await api<{ token: string }>('POST', '/auth/login-link', {
        ...options,
        body: { code },
      });
    }
    // 204: the cookie holds no session, and the form is the answer (no error to show).
    const session = await api<{ token: string } | undefined>('POST', '/auth/session', {
      ...options,
      body: {},
    });
    return session ?? { error: null };
  } catch (err) {
    return { error: code === null ? null : messageOf(err) };
  }
}

/**
 * A login page that first tries the sign-ins the person already has (docs/web.md#one-sign-in):
 * a one-time login link (`guildhall start` prints one for the demo developer, `guildhall user
 * login-link` makes one), traded for a session with POST /auth/login-link, or else the session of
 * the page cookie (set by a login on the consent pages, the client or the portal), asked for once
 * with POST /auth/session. Then it goes on to `?next=` or `home`. The code leaves the address bar
 * at once; when neither works, the normal form is shown (with the link's error, if it had one).
 */
export function LoginLink({ home, children }: Props) {
  const [, navigate] = useLocation();
  const [code] = useState(() => loginLinkCode(location.hash));
  const [step, setStep] = useState<Step>(code === null ? 'session' : 'link');
  const [error, setError] = useState<string | null>(null);
  // A code works once: the effect must not send it twice (StrictMode runs effects twice).
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    // Out of the address bar and the history entry before anything else can read or share it.
    if (code !== null) history.replaceState(history.state, '', location.pathname + location.search);
    void signIn(code).then((outcome) => {
      if ('token' in outcome) {
        setToken(outcome.token);
        // `~`: an absolute path, also from inside the portal's nested router.
        navigate(`~${nextPath(home)}`, { replace: true });
      } else {
        setError(outcome.error);
        setStep('form');
      }
    });
  }, [code, home, navigate]);

  if (step !== 'form') {
    return (
      <main className="auth-page">
        <p className="card auth-card" role="status">
          {step === 'link' ? 'Logging you in…' : 'Checking your sign-in…'}
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
