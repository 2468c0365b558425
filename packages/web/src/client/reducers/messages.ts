import type {
  APIMessage,
  APIReaction,
  GatewayMessageReactionAddDispatchData,
} from 'discord-api-types/v10';
import {
  compareIds,
  omit,
  omitAll,
  withUsers,
  type ClientState,
  type PendingMessage,
  type ReactionEmoji,
} from '../clientState.js';
import type { Slice } from './dispatch.js';

/** How long a TYPING_START shows, as the platform's client shows it. */
export const TYPING_MS = 10_000;

function updateMessage(
  state: ClientState,
  ref: { channelId: string; messageId: string },
  update: (message: APIMessage) => APIMessage,
): ClientState {
  const { channelId, messageId } = ref;
  const list = state.messages[channelId];
  const message = list?.byId[messageId];
  if (list === undefined || message === undefined) return state;
  return {
    ...state,
    messages: {
      ...state.messages,
      [channelId]: { ...list, byId: { ...list.byId, [messageId]: update(message) } },
    },
  };
}

function sameEmoji(a: ReactionEmoji, b: ReactionEmoji): boolean {
  return a.id !== null ? a.id === b.id : a.name === b.name;
}

/** A reaction added or removed, by `me` or someone else, applied to a message's counts. */
export function applyReaction(
  reactions: APIReaction[] | undefined,
  change: { emoji: ReactionEmoji; delta: 1 | -1; mine: boolean },
): APIReaction[] {
  const { emoji, delta, mine } = change;
  const list = reactions ?? [];
  const index = list.findIndex((r) => sameEmoji(r.emoji, emoji));
  const current = list[index];
  if (current === undefined) {
    if (delta < 0) return list;
    const reaction: APIReaction = {
      count: 1,
      count_details: { burst: 0, normal: 1 },
      me: mine,
      me_burst: false,
      burst_colors: [],
      emoji,
    };
    return [...list, reaction];
  }
  // The same user cannot react twice with one emoji: a repeat (our optimistic add echoed) is a no-op.
  if (mine && delta > 0 === current.me) return list;
  const count = current.count + delta;
  if (count <= 0) return list.filter((_, i) => i !== index);
  const updated: APIReaction = {
    ...current,
    count,
    count_details: { ...current.count_details, normal: current.count_details.normal + delta },
    me: mine ? delta > 0 : current.me,
  };
  return list.map((r, i) => (i === index ? updated : r));
}

/** Opens a channel's list before its first page is read (see ChannelMessages.loading). */
export function startHistory(state: ClientState, channelId: string): ClientState {
  if (state.messages[channelId] !== undefined) return state;
  return {
    ...state,
    messages: {
      ...state.messages,
      [channelId]: { ids: [], byId: {}, hasMore: true, loading: true },
    },
  };
}

/** Adds messages to a channel's list (history pages or live ones), kept oldest first. */
export function addMessages(
  state: ClientState,
  channelId: string,
  page: { messages: APIMessage[]; hasMore?: boolean },
): ClientState {
  const { messages, hasMore } = page;
  const list = state.messages[channelId] ?? { ids: [], byId: {}, hasMore: true };
  const byId = { ...list.byId };
  const ids = new Set(list.ids);
  for (const message of messages) {
    byId[message.id] = message;
    ids.add(message.id);
  }
  return {
    ...state,
    messages: {
      ...state.messages,
      [channelId]: {
        ids: [...ids].sort(compareIds),
        byId,
        hasMore: hasMore ?? list.hasMore,
        // A history page (it says whether more exist) ends the loading; live messages do not.
        loading: hasMore === undefined ? list.loading === true : false,
      },
    },
    users: withUsers(
      state.users,
      messages.map((m) => m.author),
    ),
  };
}

export function addPending(state: ClientState, pending: PendingMessage): ClientState {
  const list = state.pending[pending.channelId] ?? [];
  return { ...state, pending: { ...state.pending, [pending.channelId]: [...list, pending] } };
}

export function settlePending(
  state: ClientState,
  ref: { channelId: string; nonce: string },
  error: string | null,
): ClientState {
  const { channelId, nonce } = ref;
  const list = state.pending[channelId];
  if (!list?.some((p) => p.nonce === nonce)) return state;
  const next =
    error === null
      ? list.filter((p) => p.nonce !== nonce)
      : list.map((p) => (p.nonce === nonce ? { ...p, error } : p));
  return { ...state, pending: { ...state.pending, [channelId]: next } };
}

function removeMessages(state: ClientState, channelId: string, ids: string[]): ClientState {
  const list = state.messages[channelId];
  if (list === undefined) return state;
  const gone = new Set(ids);
  const byId = omitAll(list.byId, gone);
  return {
    ...state,
    messages: {
      ...state.messages,
      [channelId]: { ...list, ids: list.ids.filter((id) => !gone.has(id)), byId },
    },
  };
}

function clearTyping(state: ClientState, channelId: string, userId: string): ClientState {
  const channel = state.typing[channelId];
  if (channel?.[userId] === undefined) return state;
  return { ...state, typing: { ...state.typing, [channelId]: omit(channel, userId) } };
}

/** Typing entries past their expiry dropped (a timer calls this; no dispatch says "stopped"). */
export function expireTyping(state: ClientState, now: number): ClientState {
  let changed = false;
  const typing: ClientState['typing'] = {};
  for (const [channelId, users] of Object.entries(state.typing)) {
    const kept: Record<string, number> = {};
    for (const [userId, until] of Object.entries(users)) {
      if (until > now) kept[userId] = until;
      else changed = true;
    }
    typing[channelId] = kept;
  }
  return changed ? { ...state, typing } : state;
}

/** A live message: in its channel's list when loaded, its pending copy settled, typing over. */
function messageCreated(state: ClientState, message: APIMessage): ClientState {
  const channelId = message.channel_id;
  let next = state;
  // Only channels whose history is loaded keep messages; the others load it when opened.
  if (state.messages[channelId] !== undefined) {
    next = addMessages(state, channelId, { messages: [message] });
  }
  if (typeof message.nonce === 'string' && message.author.id === state.me?.id) {
    next = settlePending(next, { channelId, nonce: message.nonce }, null);
  }
  return clearTyping(next, channelId, message.author.id);
}

/** A reaction added (1) or removed (-1): the message's counts, and whether it is mine. */
const reacted =
  (delta: 1 | -1) =>
  (state: ClientState, reaction: Omit<GatewayMessageReactionAddDispatchData, 'burst'>) =>
    updateMessage(
      state,
      { channelId: reaction.channel_id, messageId: reaction.message_id },
      (message) => ({
        ...message,
        reactions: applyReaction(message.reactions, {
          emoji: reaction.emoji,
          delta,
          mine: reaction.user_id === state.me?.id,
        }),
      }),
    );

/** Messages of the loaded channels, their reactions, the pending sends and who is typing. */
export const messagesSlice: Slice = {
  MESSAGE_CREATE: messageCreated,
  MESSAGE_UPDATE: (state, update) =>
    updateMessage(state, { channelId: update.channel_id, messageId: update.id }, (old) => ({
      ...old,
      ...update,
    })),
  MESSAGE_DELETE: (state, { channel_id: channelId, id }) => removeMessages(state, channelId, [id]),
  MESSAGE_DELETE_BULK: (state, { channel_id: channelId, ids }) =>
    removeMessages(state, channelId, ids),
  MESSAGE_REACTION_ADD: reacted(1),
  MESSAGE_REACTION_REMOVE: reacted(-1),
  MESSAGE_REACTION_REMOVE_ALL: (state, { channel_id: channelId, message_id: messageId }) =>
    updateMessage(state, { channelId, messageId }, (message) => ({ ...message, reactions: [] })),
  MESSAGE_REACTION_REMOVE_EMOJI: (state, { emoji, channel_id: channelId, message_id: messageId }) =>
    updateMessage(state, { channelId, messageId }, (message) => ({
      ...message,
      reactions: (message.reactions ?? []).filter((r) => !sameEmoji(r.emoji, emoji)),
    })),
  TYPING_START: (state, { channel_id: channelId, user_id: userId }, now) => ({
    ...state,
    typing: {
      ...state.typing,
      [channelId]: { ...state.typing[channelId], [userId]: now + TYPING_MS },
    },
  }),
};
