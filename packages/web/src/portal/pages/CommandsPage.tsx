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

/** The app's guild commands in one guild (GET /applications/{id}/guild-commands). */
interface GuildCommands {
  guild: { id: string; name: string };
  commands: APIApplicationCommand[];
}

/** The route of a command: global, or in its guild. */
const commandPath = (appId: string, command: APIApplicationCommand) =>
  command.guild_id === undefined
    ? `/applications/${appId}/commands/${command.id}`
    : `/applications/${appId}/guilds/${command.guild_id}/commands/${command.id}`;

/**
 * The app's commands (registered by its code), with delete: the global ones, then the guild
 * commands of each server its bot is in.
 */
export function CommandsPage() {
  const { app } = useApplication();
  const [commands, setCommands] = useState<APIApplicationCommand[] | null>(null);
  const [guilds, setGuilds] = useState<GuildCommands[] | null>(null);
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
    api<GuildCommands[]>('GET', `/applications/${app.id}/guild-commands`, {
      signal: controller.signal,
    }).then(setGuilds, (error: unknown) => {
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
      await api('DELETE', commandPath(app.id, command));
      setCommands((list) => list?.filter((c) => c.id !== command.id) ?? null);
      setGuilds(
        (list) =>
          list
            ?.map((g) => ({ ...g, commands: g.commands.filter((c) => c.id !== command.id) }))
            .filter((g) => g.commands.length > 0) ?? null,
      );
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
        Commands your app registered with its bot token: global ones (PUT or POST /applications/
        {app.id}/commands), and guild ones in each server its bot is in (…/guilds/
        {'{guild.id}'}/commands).
      </PageTitle>
      <h2>Global Commands</h2>
      <FormError message={loadError} />
      {commands === null ? (
        loadError === null ? (
          <p role="status">Loading commands…</p>
        ) : null
      ) : commands.length === 0 ? (
        <p>No global commands yet.</p>
      ) : (
        <CommandTable
          caption="Global commands"
          commands={commands}
          onDelete={(command) => {
            setDeleteError(null);
            setDeleting(command);
          }}
        />
      )}
      <h2>Guild Commands</h2>
      {guilds === null ? null : guilds.length === 0 ? (
        <p>No guild commands yet.</p>
      ) : (
        guilds.map(({ guild, commands: inGuild }) => (
          <section key={guild.id} aria-label={`Commands in ${guild.name}`}>
            <h3>{guild.name}</h3>
            <CommandTable
              caption={`Commands in ${guild.name}`}
              commands={inGuild}
              onDelete={(command) => {
                setDeleteError(null);
                setDeleting(command);
              }}
            />
          </section>
        ))
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

/** A table of commands, each with its Delete button. */
function CommandTable({
  caption,
  commands,
  onDelete,
}: {
  caption: string;
  commands: APIApplicationCommand[];
  onDelete: (command: APIApplicationCommand) => void;
}) {
  return (
    <table className="data-table">
      <caption className="visually-hidden">{caption}</caption>
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
                  onDelete(command);
                }}
              >
                Delete
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
