import { useState, type SyntheticEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { api, ApiError } from '../lib/api.js';
import { setToken } from '../lib/session.js';
import { Field, FormError } from '../components/Field.js';
import { nextPath } from './session.js';

interface Props {
  /** Where to go once logged in, when the URL has no `?next=`. */
  home: string;
  /** The path of the other form (login ↔ register), kept with the same `?next=`. */
  otherPath: string;
}

function useAuthForm(path: '/auth/login' | '/auth/register', home: string) {
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    if (data['global_name'] === '') delete data['global_name'];
    setBusy(true);
    setFields({});
    setMessage(null);
    try {
      const { token } = await api<{ token: string }>('POST', path, {
        body: data,
        auth: false,
        cookies: true,
      });
      setToken(token);
      // `~`: a path from the site's root, also inside the portal's nested router (/developers).
      navigate(`~${nextPath(home)}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError) {
        setFields(error.fieldErrors());
        setMessage(error.message);
      } else setMessage(String(error));
    } finally {
      setBusy(false);
    }
  };
  return {
    busy,
    fields,
    message,
    submit: (event: SyntheticEvent<HTMLFormElement>) => {
      void submit(event);
    },
  };
}

export function LoginPage({ home, otherPath }: Props) {
  const { busy, fields, message, submit } = useAuthForm('/auth/login', home);
  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Welcome back</h1>
        <FormError message={Object.keys(fields).length > 0 ? null : message} />
        <Field
          label="Email or username"
          name="login"
          autoComplete="username"
          required
          error={fields['login']}
          autoFocus
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={fields['password']}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
        <p>
          Need an account? <Link href={`~${otherPath}${location.search}`}>Register</Link>
        </p>
        <p className="auth-hint">
          Running Guildhall yourself? <code>guildhall user login-link --user NAME</code> prints a
          one-time link that signs you in here, in the portal and on consent pages; the start banner
          prints one for the demo developer.
        </p>
      </form>
    </main>
  );
}

export function RegisterPage({ home, otherPath }: Props) {
  const { busy, fields, message, submit } = useAuthForm('/auth/register', home);
  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} aria-labelledby="register-title">
        <h1 id="register-title">Create an account</h1>
        <FormError message={Object.keys(fields).length > 0 ? null : message} />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          error={fields['email']}
          autoFocus
        />
        <Field
          label="Display name"
          name="global_name"
          autoComplete="nickname"
          error={fields['global_name']}
        />
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          required
          error={fields['username']}
          hint="2–32 characters: lowercase letters, digits, _ and ."
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          error={fields['password']}
          hint="8 to 72 characters."
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Continue'}
        </button>
        <p>
          Already have an account? <Link href={`~${otherPath}${location.search}`}>Log in</Link>
        </p>
      </form>
    </main>
  );
}
