import type { APIMessage } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import type { Store } from '../../lib/store.js';
import { addMessages, addPending, settlePending, type ClientState } from '../state.js';

const EPOCH = 1_420_070_400_000n;

/** A nonce as the platform's client makes them: a snowflake of now (unique enough per client). */
export function makeNonce(now = Date.now()): string {
  const random = BigInt(Math.floor(Math.random() * 4_194_304));
  return (((BigInt(now) - EPOCH) << 22n) | random).toString();
}

/** The file name the platform's client gives a spoiler: the `SPOILER_` prefix. */
export function spoilerName(name: string): string {
  return name.startsWith('SPOILER_') ? name : `SPOILER_${name}`;
}

/**
 * Sends a message: shown at once as pending (under the list, dimmed), replaced by the real one
 * when MESSAGE_CREATE (or the API's answer, whichever comes first) carries the same nonce, or
 * marked failed with the API's message.
 */
export async function sendMessage(
  store: Store<ClientState>,
  channelId: string,
  input: { content: string; files?: File[]; replyTo?: string },
): Promise<void> {
  const nonce = makeNonce();
  const files = input.files ?? [];
  store.set((state) =>
    addPending(state, {
      nonce,
      channelId,
      content: input.content,
      files,
      error: null,
    }),
  );
  try {
    const message = await api<APIMessage>('POST', `/channels/${channelId}/messages`, {
      body: {
        content: input.content,
        nonce,
        enforce_nonce: true,
        ...(input.replyTo === undefined
          ? {}
          : { message_reference: { message_id: input.replyTo } }),
      },
      files,
    });
    store.set((state) => {
      // Still pending: the gateway has not brought the message yet, so the answer is the newest
      // copy. Settled already: MESSAGE_CREATE came first, and a later MESSAGE_UPDATE or
      // MESSAGE_DELETE may have followed, which this older copy must not undo.
      const waiting = (state.pending[channelId] ?? []).some((p) => p.nonce === nonce);
      const next = settlePending(state, { channelId, nonce }, null);
      return !waiting || next.messages[channelId] === undefined
        ? next
        : addMessages(next, channelId, { messages: [message] });
    });
  } catch (error) {
    store.set((state) => settlePending(state, { channelId, nonce }, errorMessage(error)));
  }
}

/** Forgets a failed pending message (the user dismissed it). */
export function dismissPending(store: Store<ClientState>, channelId: string, nonce: string) {
  store.set((state) => {
    const list = state.pending[channelId];
    if (list === undefined) return state;
    return {
      ...state,
      pending: { ...state.pending, [channelId]: list.filter((p) => p.nonce !== nonce) },
    };
  });
}
