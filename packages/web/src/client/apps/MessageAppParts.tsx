import { MessageFlags, type APIChannel, type APIMessage } from 'discord-api-types/v10';

/**
 * The parts of a message that apps add. H4 owns this file and replaces this first version, which
 * says that components exist without drawing them.
 */
export function MessageComponents({
  message,
}: {
  message: APIMessage;
  channel: APIChannel;
}): React.JSX.Element | null {
  if (message.components === undefined || message.components.length === 0) return null;
  return <p className="muted">This message has interactive parts this page cannot show yet.</p>;
}

/** The line above an interaction's reply: who used a command; "Only you can see this". */
export function InteractionHeader({ message }: { message: APIMessage }): React.JSX.Element | null {
  const metadata = message.interaction_metadata;
  const ephemeral = ((message.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
  if (metadata === undefined && !ephemeral) return null;
  return (
    <p className="muted interaction-header">
      {metadata === undefined
        ? null
        : `${metadata.user.global_name ?? metadata.user.username} used a command`}
      {ephemeral ? ' • Only you can see this' : null}
    </p>
  );
}
