import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Route, Switch } from 'wouter';
import { ClientApp } from './client/ClientApp.js';
import { PortalApp } from './portal/PortalApp.js';
import './styles/app.css';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');

createRoot(root).render(
  <StrictMode>
    <Switch>
      <Route path="/developers" nest>
        <PortalApp />
      </Route>
      <Route>
        <ClientApp />
      </Route>
    </Switch>
  </StrictMode>,
);
