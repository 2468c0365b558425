import type { APIMessage, APIReaction } from 'discord-api-types/v10';
import { api } from '../../lib/api.js';
import type { Store } from '../../lib/store.js';
import { useClient } from '../context.js';
import { applyReaction, type ClientState, type ReactionEmoji } from '../state.js';
import { emojiLabel, emojiPath } from './emoji.js';

/**
 * Adds or removes the current user's reaction: applied at once (the gateway's echo of it changes
 * nothing), undone if the API refuses.
 */
export async function toggleReaction(
  store: Store<ClientState>,
  input: { message: Pick<APIMessage, 'id' | 'channel_id'>; emoji: ReactionEmoji; add: boolean },
): Promise<void> {
  const { message, emoji, add } = input;
  const apply = (delta: 1 | -1) => {
    store.set((state) => {
      const list = state.messages[message.channel_id];
      const current = list?.byId[message.id];
      if (list === undefined || current === undefined) return state;
      const reactions = applyReaction(current.reactions, { emoji, delta, mine: true });
      return {
        ...state,
        messages: {
          ...state.messages,
          [message.channel_id]: {
            ...list,
            byId: { ...list.byId, [message.id]: { ...current, reactions } },
          },
        },
      };
    });
  };
  apply(add ? 1 : -1);
  try {
    await api(
      add ? 'PUT' : 'DELETE',
      `/channels/${message.channel_id}/messages/${message.id}/reactions/${emojiPath(emoji)}/@me`,
    );
  } catch {
    apply(add ? -1 : 1);
  }
}

function ReactionEmojiView({ emoji }: { emoji: APIReaction['emoji'] }) {
  if (emoji.id !== null) {
    return <img className="emoji" src={`/emojis/${emoji.id}.png?size=32`} alt="" />;
  }
  return <span aria-hidden="true">{emoji.name}</span>;
}

/** A message's reactions, each a toggle button (pressed when the current user reacted). */
export function Reactions({ message }: { message: APIMessage }) {
  const { store } = useClient();
  const reactions = message.reactions ?? [];
  if (reactions.length === 0) return null;
  return (
    <ul className="reactions" aria-label="Reactions">
      {reactions.map((r) => (
        <li key={r.emoji.id ?? r.emoji.name}>
          <button
            type="button"
            className="reaction"
            aria-pressed={r.me}
            aria-label={`${emojiLabel(r.emoji)}, ${r.count} ${r.count === 1 ? 'reaction' : 'reactions'}`}
            onClick={() => {
              void toggleReaction(store, { message, emoji: r.emoji, add: !r.me });
            }}
          >
            <ReactionEmojiView emoji={r.emoji} /> <span>{r.count}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
