import { Redirect, Route, Switch } from 'wouter';
import { LoginPage, RegisterPage } from '../auth/AuthPages.js';
import { useToken } from '../auth/session.js';
import { LoginLink } from '../portal/LoginLink.js';
import { PageTitle } from '../components/PageTitle.js';
import { ClientProvider } from './context.js';
import { Shell } from './Shell.js';
import { InvitePage } from './invites/InvitePage.js';
import { ConnectedGamesSettings } from './settings/ConnectedGamesSettings.js';
import '../styles/chat.css';

/**
 * The chat client at `/`: the platform's paths (`/login`, `/register`, `/channels/@me`,
 * `/channels/{guild}/{channel}`, `/invite/{code}`, `/settings/connected-games`). Every other page
 * needs a session.
 */
export function ClientApp() {
  const token = useToken();
  return (
    <Switch>
      <Route path="/login">
        <PageTitle parts={['Log in']} />
        <LoginLink home="/channels/@me">
          <LoginPage home="/channels/@me" otherPath="/register" />
        </LoginLink>
      </Route>
      <Route path="/register">
        <PageTitle parts={['Register']} />
        <RegisterPage home="/channels/@me" otherPath="/login" />
      </Route>
      <Route path="/invite/:code">
        {(params) => (
          <>
            <PageTitle parts={['Invite']} />
            <InvitePage code={params.code} />
          </>
        )}
      </Route>
      <Route>
        {token === null ? (
          <Redirect
            to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`}
            replace
          />
        ) : (
          <Switch>
            {/* Settings a game's Social SDK opens: REST only, no gateway connection. */}
            <Route path="/settings/connected-games">
              <PageTitle parts={['Connected Games', 'Settings']} />
              <ConnectedGamesSettings />
            </Route>
            <Route>
              {/* A new session (another login) is a new gateway connection and a fresh state. */}
              <ClientProvider key={token} token={token}>
                <Shell />
              </ClientProvider>
            </Route>
          </Switch>
        )}
      </Route>
    </Switch>
  );
}
