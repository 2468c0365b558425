import {
  InteractionType,
  MessageFlags,
  MessageType,
  type APIChannel,
  type APIMessage,
  type APIUser,
} from 'discord-api-types/v10';
import type { Store } from '../../lib/store.js';
import { useClient } from '../context.js';
import type { ClientState } from '../state.js';
import { ComponentNode } from './ComponentTree.js';
import { guildIdOf } from './interactions.js';
import { useComponentActions } from './useComponentActions.js';
import '../../styles/apps.css';

const hasFlag = (message: APIMessage, flag: number) => ((message.flags ?? 0) & flag) !== 0;

/**
 * The parts of a message that apps add, under its content: "<app> is thinking…" while a
 * deferred response is loading, then the message's components (v1 action rows, or the
 * IS_COMPONENTS_V2 layout), whose clicks and selections are sent as interactions.
 */
export function MessageComponents({
  message,
  channel,
}: {
  message: APIMessage;
  channel: APIChannel;
}): React.JSX.Element | null {
  const components = message.components ?? [];
  const loading = hasFlag(message, MessageFlags.Loading);
  if (!loading && components.length === 0) return null;
  return (
    <div className="app-parts">
      {loading ? (
        <p className="app-thinking" role="status">
          {message.author.global_name ?? message.author.username} is thinking…
        </p>
      ) : null}
      {components.length === 0 ? null : <Components message={message} channel={channel} />}
    </div>
  );
}

function Components({ message, channel }: { message: APIMessage; channel: APIChannel }) {
  const actions = useComponentActions(message, channel);
  const guildId = guildIdOf(channel) ?? null;
  return (
    <>
      <div
        className={hasFlag(message, MessageFlags.IsComponentsV2) ? 'app-layout v2' : 'app-layout'}
      >
        {(message.components ?? []).map((node, i) => (
          <ComponentNode
            key={node.id ?? i}
            node={node}
            channel={channel}
            guildId={guildId}
            actions={actions}
          />
        ))}
      </div>
      {actions.error === null ? null : (
        <p className="form-error" role="alert">
          {actions.error}
        </p>
      )}
    </>
  );
}

/** Removes a message from this client's state only (an ephemeral message, dismissed). */
export function dismissMessage(store: Store<ClientState>, channelId: string, messageId: string) {
  store.set((state) => {
    const channel = state.messages[channelId];
    if (channel?.byId[messageId] === undefined) return state;
    const byId = Object.fromEntries(
      Object.entries(channel.byId).filter(([id]) => id !== messageId),
    );
    return {
      ...state,
      messages: {
        ...state.messages,
        [channelId]: { ...channel, ids: channel.ids.filter((id) => id !== messageId), byId },
      },
    };
  });
}

const nameOf = (user: APIUser | undefined) =>
  user === undefined ? 'Someone' : (user.global_name ?? user.username);

/**
 * What a response's header calls the command it answers: "/tag add" for a slash command, the
 * name of a user or message command, from the message's `interaction` (the platform's
 * MessageInteraction, stored with the message); "a command" when the message has none.
 */
function commandLabel(message: APIMessage): string {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the one field naming the command
  const name = message.interaction?.name;
  if (name === undefined || name === '') return 'a command';
  return message.type === MessageType.ContextMenuCommand ? name : `/${name}`;
}

/**
 * The line above an app's response: "<user> used /<command>", and for an ephemeral message
 * "Only you can see this" with a Dismiss button that removes it here.
 */
export function InteractionHeader({ message }: { message: APIMessage }): React.JSX.Element | null {
  const { store } = useClient();
  const meta = message.interaction_metadata;
  const trigger =
    meta?.type === InteractionType.ModalSubmit ? meta.triggering_interaction_metadata : meta;
  const ephemeral = hasFlag(message, MessageFlags.Ephemeral);
  const command = trigger?.type === InteractionType.ApplicationCommand;
  if (!command && !ephemeral) return null;
  return (
    <div className="interaction-header">
      {command ? (
        <span>
          {nameOf(meta?.user)} used {commandLabel(message)}
          {trigger.target_user === undefined ? '' : ` on ${nameOf(trigger.target_user)}`}
        </span>
      ) : null}
      {ephemeral ? (
        <span className="ephemeral-note">
          Only you can see this ·{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              dismissMessage(store, message.channel_id, message.id);
            }}
          >
            Dismiss
          </button>
        </span>
      ) : null}
    </div>
  );
}
