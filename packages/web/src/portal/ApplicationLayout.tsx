import { useEffect, useRef, useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation, useRoute } from 'wouter';
import { api, errorMessage } from '../lib/api.js';
import { FormError } from '../components/Field.js';
import { PageTitle, PORTAL } from '../components/PageTitle.js';
import { PortalHeader } from './PortalHeader.js';
import { AppIcon } from './AppIcon.js';
import { ApplicationProvider } from './context.js';
import type { PortalApplication } from './model.js';
import { GeneralPage } from './pages/GeneralPage.js';
import { InstallationPage } from './pages/InstallationPage.js';
import { OAuth2Page } from './pages/OAuth2Page.js';
import { BotPage } from './pages/BotPage.js';
import { WebhooksPage } from './pages/WebhooksPage.js';
import { SocialSdkPage } from './pages/SocialSdkPage.js';
import { RichPresencePage } from './pages/RichPresencePage.js';
import { CommandsPage } from './pages/CommandsPage.js';
import { GameStatsPage } from './pages/GameStatsPage.js';
import { ActivitiesPage } from './pages/ActivitiesPage.js';
import { MonetizationPage } from './pages/MonetizationPage.js';

/** The settings pages of one app, in the nav's order; the names are the browser tests' too. */
const SECTIONS = [
  { path: '/information', label: 'General Information', Page: GeneralPage },
  { path: '/installation', label: 'Installation', Page: InstallationPage },
  { path: '/oauth2', label: 'OAuth2', Page: OAuth2Page },
  { path: '/bot', label: 'Bot', Page: BotPage },
  { path: '/webhooks', label: 'Webhooks', Page: WebhooksPage },
  { path: '/social-sdk', label: 'Social SDK', Page: SocialSdkPage },
  { path: '/rich-presence', label: 'Rich Presence', Page: RichPresencePage },
  { path: '/commands', label: 'Commands', Page: CommandsPage },
  { path: '/game-stats', label: 'Game Stats', Page: GameStatsPage },
  { path: '/activities', label: 'Activities', Page: ActivitiesPage },
  { path: '/monetization', label: 'Monetization', Page: MonetizationPage },
] as const;

function SectionLink({ path, label }: { path: string; label: string }) {
  const [active] = useRoute(path);
  return (
    <Link href={path} aria-current={active ? 'page' : undefined}>
      {label}
    </Link>
  );
}

/** `/developers/applications/:id/*`: loads the app, then its nav and the open settings page. */
export function ApplicationLayout({ applicationId }: { applicationId: string }) {
  const [app, setApp] = useState<PortalApplication | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [path] = useLocation();
  const main = useRef<HTMLElement>(null);
  const loaded = app !== null;

  // A settings link changes the page without a load: focus its title, as a new page would.
  useEffect(() => {
    if (loaded) main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [path, loaded]);

  useEffect(() => {
    setApp(null);
    setError(null);
    const controller = new AbortController();
    api<PortalApplication>('GET', `/applications/${applicationId}`, {
      signal: controller.signal,
    }).then(setApp, (failure: unknown) => {
      if (!controller.signal.aborted) setError(errorMessage(failure));
    });
    return () => {
      controller.abort();
    };
  }, [applicationId]);

  return (
    <div className="portal">
      <PortalHeader />
      <div className="portal-body">
        <aside className="portal-sidebar">
          <Link href="~/developers/applications" className="back-link">
            ← All applications
          </Link>
          {app === null ? null : (
            <div className="sidebar-app">
              <AppIcon app={app} size={40} />
              <span>{app.name}</span>
            </div>
          )}
          <nav aria-label="Settings">
            <ul>
              {SECTIONS.map((section) => (
                <li key={section.path}>
                  <SectionLink path={section.path} label={section.label} />
                </li>
              ))}
            </ul>
          </nav>
        </aside>
        <main className="portal-main" ref={main}>
          <FormError message={error} />
          {app === null ? (
            error === null ? (
              <p role="status">Loading the application…</p>
            ) : null
          ) : (
            <ApplicationProvider value={{ app, setApp }}>
              <Switch>
                {SECTIONS.map(({ path, label, Page }) => (
                  <Route key={path} path={path}>
                    <PageTitle parts={[label, app.name, PORTAL]} />
                    <Page key={app.id} />
                  </Route>
                ))}
                <Route>
                  <Redirect to="/information" replace />
                </Route>
              </Switch>
            </ApplicationProvider>
          )}
        </main>
      </div>
    </div>
  );
}
