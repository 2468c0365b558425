import { useEffect, useState, type SyntheticEvent } from 'react';
import type { APIGuild } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { Field, FormError } from '../../components/Field.js';
import { Dialog } from '../../components/Dialog.js';
import { authorizeUrl } from '../../portal/oauthUrl.js';
import type { PortalApplication } from '../../portal/model.js';

const SNOWFLAKE = /^\d{17,20}$/;

/**
 * The application an "Application ID or install link" names: the ID itself, or the `client_id`
 * of an install link (`…/oauth2/authorize?client_id=…`); null when it names none.
 */
export function applicationIdOf(input: string): string | null {
  const text = input.trim();
  if (SNOWFLAKE.test(text)) return text;
  try {
    const id = new URL(text).searchParams.get('client_id');
    return id !== null && SNOWFLAKE.test(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * The install page of `appId` for this server: the authorize page with the bot and commands
 * scopes, the app's own install permissions, and the server chosen (`guild_id`).
 */
function installUrl(guild: APIGuild, appId: string, app: PortalApplication | undefined): string {
  const url = new URL(
    authorizeUrl({
      origin: window.location.origin,
      clientId: appId,
      scopes: app?.install_params?.scopes ?? ['bot', 'applications.commands'],
      permissions: app?.install_params?.permissions ?? '0',
      integrationType: 0,
      redirectUri: null,
    }),
  );
  url.searchParams.set('guild_id', guild.id);
  return url.toString();
}

/**
 * "Add App" to a server (MANAGE_GUILD, which the install page checks again): one of the
 * person's own applications, or any app by its ID or install link. It opens the platform's
 * install page for that app with the server chosen; the bot joins when the person authorizes.
 */
export function AddAppDialog({ guild, onClose }: { guild: APIGuild; onClose: () => void }) {
  const [own, setOwn] = useState<PortalApplication[]>([]);
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api<PortalApplication[]>('GET', '/applications', { signal: controller.signal }).then(
      (apps) => {
        setOwn(apps.filter((app) => app.bot !== undefined));
      },
      (e: unknown) => {
        if (!controller.signal.aborted) setLoadError(errorMessage(e));
      },
    );
    return () => {
      controller.abort();
    };
  }, []);
  const open = (appId: string) => {
    window.location.assign(
      installUrl(
        guild,
        appId,
        own.find((app) => app.id === appId),
      ),
    );
  };
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = applicationIdOf(input);
    if (id === null) setError('Paste an application ID (17 to 20 digits) or an install link.');
    else open(id);
  };
  return (
    <Dialog title="Add App" description={`Add an app to ${guild.name}.`} onClose={onClose}>
      <FormError message={loadError} />
      {own.length === 0 ? null : (
        <ul className="add-app-list" aria-label="Your apps">
          {own.map((app) => (
            <li key={app.id}>
              <span>{app.name}</span>{' '}
              <button
                type="button"
                onClick={() => {
                  open(app.id);
                }}
              >
                Add {app.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit}>
        <Field
          label="Application ID or install link"
          value={input}
          error={error}
          onChange={(event) => {
            setInput(event.target.value);
            setError(undefined);
          }}
        />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={input.trim() === ''}>
            Continue
          </button>
        </div>
      </form>
    </Dialog>
  );
}
