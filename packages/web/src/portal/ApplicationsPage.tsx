import { useEffect, useState, type SyntheticEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { api, errorMessage } from '../lib/api.js';
import { Dialog } from '../components/Dialog.js';
import { CopyField } from '../components/CopyField.js';
import { Field, FormError } from '../components/Field.js';
import { useApiForm } from '../components/useApiForm.js';
import { PortalHeader } from './PortalHeader.js';
import { AppIcon } from './AppIcon.js';
import type { CreatedApplication, PortalApplication } from './model.js';
import { checkAppName, collect } from './validation.js';

/** `/developers/applications`: the developer's applications, and making a new one. */
export function ApplicationsPage() {
  const [apps, setApps] = useState<PortalApplication[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    api<PortalApplication[]>('GET', '/applications', { signal: controller.signal }).then(
      setApps,
      (error: unknown) => {
        if (!controller.signal.aborted) setLoadError(errorMessage(error));
      },
    );
    return () => {
      controller.abort();
    };
  }, []);

  return (
    <div className="portal">
      <PortalHeader />
      <main className="portal-main">
        <div className="page-title">
          <h1>Applications</h1>
          <button
            type="button"
            className="primary"
            onClick={() => {
              setCreating(true);
            }}
          >
            New Application
          </button>
        </div>
        <p className="hint">
          An application has a bot, OAuth2 settings and commands. Pick one to change its settings.
        </p>
        <FormError message={loadError} />
        {apps === null ? (
          loadError === null ? (
            <p role="status">Loading applications…</p>
          ) : null
        ) : apps.length === 0 ? (
          <p>No applications yet: make one with New Application.</p>
        ) : (
          <ul className="app-grid">
            {apps.map((app) => (
              <li key={app.id}>
                <Link href={`/applications/${app.id}/information`} className="app-card">
                  <AppIcon app={app} size={96} />
                  <span className="app-card-name">{app.name}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </main>
      {creating ? (
        <CreateApplicationDialog
          onCreated={(app) => {
            setApps((list) => [...(list ?? []), app]);
          }}
          onClose={() => {
            setCreating(false);
          }}
        />
      ) : null}
    </div>
  );
}

function CreateApplicationDialog({
  onCreated,
  onClose,
}: {
  onCreated: (app: PortalApplication) => void;
  onClose: () => void;
}) {
  const form = useApiForm();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApplication | null>(null);
  const [, navigate] = useLocation();

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submit(() => api<CreatedApplication>('POST', '/applications', { body: { name } }), {
      validate: () => collect({ name: checkAppName(name) }),
      onSuccess: (app) => {
        setCreated(app);
        onCreated(app);
      },
    });
  };

  if (created !== null) {
    return (
      <Dialog key="created" title="Application created" onClose={onClose}>
        <p className="warning" role="status">
          Copy the bot token and the client secret now: they are shown this once. You can reset them
          later on the Bot and OAuth2 pages.
        </p>
        <CopyField label="Bot token" value={created.bot_token} secret />
        <CopyField label="Client secret" value={created.client_secret} secret />
        <div className="dialog-actions">
          <button
            type="button"
            className="primary"
            onClick={() => {
              navigate(`/applications/${created.id}/information`);
            }}
          >
            Open {created.name}
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog key="create" title="Create an application" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <FormError message={form.summary(['name'])} />
        <Field
          label="Name"
          name="name"
          value={name}
          onChange={(event) => {
            setName(event.target.value);
          }}
          maxLength={32}
          required
          autoComplete="off"
          error={form.errors['name']}
          hint="Also the bot's username: 2 to 32 characters."
          data-autofocus
        />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={form.busy}>
            Create
          </button>
        </div>
      </form>
    </Dialog>
  );
}
