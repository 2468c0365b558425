import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../../lib/store.js';
import { addMessages, reduce, type ClientState } from '../state.js';
import { CHANNEL_ID, message, readyState } from '../test/render.js';
import { sendMessage } from './send.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** fetch that answers the POST only once `release` is called, with the message it was sent. */
function heldPost() {
  let release: (() => void) | undefined;
  const sent = new Promise<string>((resolveNonce) => {
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      const body = JSON.parse(init.body as string) as { content: string; nonce: string };
      resolveNonce(body.nonce);
      return new Promise<Response>((resolve) => {
        release = () => {
          resolve(
            new Response(
              JSON.stringify(
                message({ id: '400000000000000005', content: body.content, nonce: body.nonce }),
              ),
              { status: 200, headers: { 'content-type': 'application/json' } },
            ),
          );
        };
      });
    });
  });
  return { sent, release: () => release?.() };
}

describe('sendMessage', () => {
  it("does not bring back a message the gateway deleted before the POST's answer", async () => {
    const store = createStore<ClientState>(
      addMessages(readyState(), CHANNEL_ID, { messages: [], hasMore: false }),
    );
    const post = heldPost();
    const done = sendMessage(store, CHANNEL_ID, { content: 'gone soon' });
    const nonce = await post.sent;
    const created = message({ id: '400000000000000005', content: 'gone soon', nonce });
    store.set((s) => reduce(s, { t: 'MESSAGE_CREATE', d: created }, 0));
    store.set((s) =>
      reduce(s, { t: 'MESSAGE_DELETE', d: { id: created.id, channel_id: CHANNEL_ID } }, 0),
    );
    post.release();
    await done;
    expect(store.get().messages[CHANNEL_ID]?.ids).toEqual([]);
    expect(store.get().pending[CHANNEL_ID] ?? []).toEqual([]);
  });

  it("shows the POST's answer when it comes before the gateway's event", async () => {
    const store = createStore<ClientState>(
      addMessages(readyState(), CHANNEL_ID, { messages: [], hasMore: false }),
    );
    const post = heldPost();
    const done = sendMessage(store, CHANNEL_ID, { content: 'first by http' });
    await post.sent;
    post.release();
    await done;
    expect(store.get().messages[CHANNEL_ID]?.ids).toEqual(['400000000000000005']);
    expect(store.get().pending[CHANNEL_ID] ?? []).toEqual([]);
  });
});
