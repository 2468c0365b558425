import { Redirect, Route, Switch } from 'wouter';
import { LoginPage, RegisterPage } from '../auth/AuthPages.js';
import { useToken } from '../auth/session.js';
import { ApplicationsPage } from './ApplicationsPage.js';
import { ApplicationLayout } from './ApplicationLayout.js';
import { LoginLink } from './LoginLink.js';
import { PageTitle, PORTAL } from '../components/PageTitle.js';
import '../styles/portal.css';

/**
 * The developer portal at `/developers` (paths here are relative to it): applications and their
 * settings, through the same public API a script would use with the developer's session token.
 */
export function PortalApp() {
  const token = useToken();
  return (
    <Switch>
      <Route path="/login">
        <PageTitle parts={['Log in', PORTAL]} />
        <LoginLink home="/developers/applications">
          <LoginPage home="/developers/applications" otherPath="/developers/register" />
        </LoginLink>
      </Route>
      <Route path="/register">
        <PageTitle parts={['Register', PORTAL]} />
        <RegisterPage home="/developers/applications" otherPath="/developers/login" />
      </Route>
      <Route>
        {token === null ? (
          <Redirect
            to={`~/developers/login?next=${encodeURIComponent(location.pathname + location.search)}`}
            replace
          />
        ) : (
          <Switch>
            <Route path="/applications">
              <PageTitle parts={['Applications', PORTAL]} />
              <ApplicationsPage />
            </Route>
            <Route path="/applications/:applicationId" nest>
              {(params) => <ApplicationLayout applicationId={params.applicationId} />}
            </Route>
            <Route>
              <Redirect to="/applications" replace />
            </Route>
          </Switch>
        )}
      </Route>
    </Switch>
  );
}
