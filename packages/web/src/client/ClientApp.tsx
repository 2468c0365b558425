import { Redirect, Route, Switch } from 'wouter';
import { LoginPage, RegisterPage } from '../auth/AuthPages.js';
import { useToken } from '../auth/session.js';
import { LoginLink } from '../portal/LoginLink.js';

/**
 * The chat client at `/`: the platform's paths (`/login`, `/register`, `/channels/@me`,
 * `/channels/{guild}/{channel}`, `/invite/{code}`). Every other page needs a session.
 */
export function ClientApp() {
  const token = useToken();
  return (
    <Switch>
      <Route path="/login">
        <LoginLink home="/channels/@me">
          <LoginPage home="/channels/@me" otherPath="/register" />
        </LoginLink>
      </Route>
      <Route path="/register">
        <RegisterPage home="/channels/@me" otherPath="/login" />
      </Route>
      <Route>
        {token === null ? (
          <Redirect
            to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`}
            replace
          />
        ) : (
          <main className="client-shell">
            <p>Logged in.</p>
          </main>
        )}
      </Route>
    </Switch>
  );
}
