import { useEffect, useState } from 'react';
import type { APIApplicationCommand } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { ConfirmDialog } from '../../components/Dialog.js';
import { FormError } from '../../components/Field.js';
import { useApplication } from '../context.js';
import { PageTitle } from '../forms.js';

const TYPE_LABELS: Record<number, string> = {
  1: 'Slash',
  2: 'User',
  3: 'Message',
  4: 'Entry Point',
};

/** The app's global commands (registered by its code), with delete. */
export function CommandsPage() {
  const { app } = useApplication();
  const [commands, setCommands] = useState<APIApplicationCommand[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<APIApplicationCommand | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    api<APIApplicationCommand[]>('GET', `/applications/${app.id}/commands`, {
      signal: controller.signal,
    }).then(setCommands, (error: unknown) => {
      if (!controller.signal.aborted) setLoadError(errorMessage(error));
    });
    return () => {
      controller.abort();
    };
  }, [app.id]);

  const remove = async (command: APIApplicationCommand) => {
    setBusy(true);
    setDeleteError(null);
    try {
      await api('DELETE', `/applications/${app.id}/commands/${command.id}`);
      setCommands((list) => (list ?? []).filter((c) => c.id !== command.id));
      setDeleting(null);
    } catch (error) {
      setDeleteError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="settings-form">
      <PageTitle title="Commands">
        Global commands your app registered (PUT or POST /applications/{app.id}/commands with its
        bot token).
      </PageTitle>
      <FormError message={loadError} />
      {commands === null ? (
        loadError === null ? (
          <p role="status">Loading commands…</p>
        ) : null
      ) : commands.length === 0 ? (
        <p>No global commands yet.</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Global commands</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Options</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {commands.map((command) => (
              <tr key={command.id}>
                <td>{TYPE_LABELS[command.type] ?? String(command.type)}</td>
                <th scope="row" className="mono">
                  {command.name}
                </th>
                <td>{command.description}</td>
                <td>{command.options?.length ?? 0}</td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Delete ${command.name}`}
                    onClick={() => {
                      setDeleteError(null);
                      setDeleting(command);
                    }}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deleting === null ? null : (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          message="The command disappears for everyone at once. Your code may register it again."
          confirmLabel="Delete"
          busy={busy}
          error={deleteError}
          onConfirm={() => void remove(deleting)}
          onClose={() => {
            setDeleting(null);
          }}
        />
      )}
    </div>
  );
}
