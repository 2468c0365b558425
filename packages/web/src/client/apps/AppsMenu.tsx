import { useState } from 'react';
import {
  ApplicationCommandType,
  type APIChannel,
  type APIMessage,
  type APIUser,
} from 'discord-api-types/v10';
import { errorMessage } from '../../lib/api.js';
import { useClient } from '../context.js';
import { useCommandIndex } from './commandIndex.js';
import { InteractionKind, NO_RESPONSE, startInteraction } from './interactions.js';
import { addNotice } from './notices.js';

/**
 * The "Apps" entries of a message's or a member's menu: the channel's USER (2) or MESSAGE (3)
 * commands from the command index, invoked with the target's id. The menu closes once the
 * platform accepted the interaction; an app that then does not respond is told by a notice.
 */
export function AppsMenuItems({
  target,
  channel,
  onDone,
}: {
  target: { kind: 'message'; message: APIMessage } | { kind: 'user'; user: APIUser };
  channel: APIChannel;
  onDone: () => void;
}): React.JSX.Element | null {
  const client = useClient();
  const { index } = useCommandIndex(channel.id);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const type =
    target.kind === 'user' ? ApplicationCommandType.User : ApplicationCommandType.Message;
  const commands = (index?.application_commands ?? []).filter((c) => c.type === type);
  if (commands.length === 0) return null;
  const targetId = target.kind === 'user' ? target.user.id : target.message.id;
  const appName = (id: string) => index?.applications.find((a) => a.id === id)?.name ?? 'App';

  return (
    <div role="group" aria-label="Apps" className="apps-menu">
      <div className="menu-section-label" aria-hidden="true">
        Apps
      </div>
      {commands.map((command) => (
        <button
          key={command.id}
          type="button"
          role="menuitem"
          disabled={busy !== null}
          aria-busy={busy === command.id || undefined}
          onClick={() => {
            setBusy(command.id);
            setError(null);
            startInteraction(client, {
              type: InteractionKind.COMMAND,
              applicationId: command.application_id,
              channel,
              data: {
                id: command.id,
                name: command.name,
                type: command.type,
                target_id: targetId,
                ...(command.guild_id === undefined ? {} : { guild_id: command.guild_id }),
              },
            }).then(
              ({ outcome }) => {
                onDone();
                void outcome.then((result) => {
                  if (result === 'failure') addNotice(`${command.name}: ${NO_RESPONSE}`);
                });
              },
              (failure: unknown) => {
                setBusy(null);
                setError(errorMessage(failure));
              },
            );
          }}
        >
          {command.name}
          <span className="hint"> · {appName(command.application_id)}</span>
        </button>
      ))}
      {error === null ? null : (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
