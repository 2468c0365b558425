import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { Route, Switch } from 'wouter';
import './styles/app.css';

// Two bundles: a person opening the client never downloads the portal, nor a developer on
// /developers the chat client (docs/benchmarks.md, "Web pages").
const ClientApp = lazy(() =>
  import('./client/ClientApp.js').then((module) => ({ default: module.ClientApp })),
);
const PortalApp = lazy(() =>
  import('./portal/PortalApp.js').then((module) => ({ default: module.PortalApp })),
);

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');

const loading = (
  <p className="page-loading" role="status">
    Loading…
  </p>
);

createRoot(root).render(
  <StrictMode>
    <Suspense fallback={loading}>
      <Switch>
        <Route path="/developers" nest>
          <PortalApp />
        </Route>
        <Route>
          <ClientApp />
        </Route>
      </Switch>
    </Suspense>
  </StrictMode>,
);
