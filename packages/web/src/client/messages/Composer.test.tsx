import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { APIChannel } from 'discord-api-types/v10';
import { Composer, type DraftFile } from './Composer.js';
import { createTypingThrottle } from './typing.js';
import { CHANNEL_ID, channel, message, renderWithClient } from '../test/render.js';
import { setToken } from '../../lib/session.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setToken(null);
});

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** A fetch that records requests and answers a created message for POST …/messages. */
function stubApi() {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const body =
        init.body instanceof FormData
          ? init.body
          : typeof init.body === 'string'
            ? (JSON.parse(init.body) as unknown)
            : undefined;
      calls.push({ method: init.method ?? 'GET', url, body });
      if (url.endsWith('/messages')) {
        const sent =
          body instanceof FormData
            ? (JSON.parse(body.get('payload_json') as string) as { content: string; nonce: string })
            : (body as { content: string; nonce: string });
        return Promise.resolve(
          new Response(JSON.stringify(message({ content: sent.content, nonce: sent.nonce })), {
            status: 200,
          }),
        );
      }
      return Promise.resolve(new Response(null, { status: 204 }));
    }),
  );
  return calls;
}

function Harness({ target }: { target: APIChannel }) {
  const [files, setFiles] = useState<DraftFile[]>([]);
  return <Composer channel={target} files={files} onFilesChange={setFiles} />;
}

describe('Composer', () => {
  it('sends on Enter with a nonce, and Shift+Enter makes a new line', async () => {
    setToken('test-token');
    const calls = stubApi();
    const user = userEvent.setup();
    const { store } = renderWithClient(<Harness target={channel()} />);
    const box = screen.getByRole('textbox', { name: 'Message #general' });
    await user.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(box).toHaveProperty('value', 'line one\nline two');
    expect(calls.filter((c) => c.url.endsWith('/messages'))).toHaveLength(0);
    await user.keyboard('{Enter}');
    expect(box).toHaveProperty('value', '');
    await waitFor(() => {
      expect(calls.some((c) => c.url.endsWith('/messages'))).toBe(true);
    });
    const send = calls.find((c) => c.url.endsWith(`/channels/${CHANNEL_ID}/messages`));
    expect(send?.method).toBe('POST');
    expect(send?.body).toMatchObject({ content: 'line one\nline two', enforce_nonce: true });
    expect((send?.body as { nonce: string }).nonce).toMatch(/^\d{17,20}$/);
    // The pending entry is gone once the API answered.
    await waitFor(() => {
      expect(store.get().pending[CHANNEL_ID]).toEqual([]);
    });
  });

  it('does not send an empty message', async () => {
    const calls = stubApi();
    const user = userEvent.setup();
    renderWithClient(<Harness target={channel()} />);
    await user.type(screen.getByRole('textbox', { name: 'Message #general' }), '   {Enter}');
    expect(calls.filter((c) => c.url.endsWith('/messages'))).toHaveLength(0);
  });

  it('tells the API the user is typing at most once per interval', async () => {
    const calls = stubApi();
    const user = userEvent.setup();
    renderWithClient(<Harness target={channel()} />);
    await user.type(screen.getByRole('textbox', { name: 'Message #general' }), 'hello there');
    await waitFor(() => {
      expect(calls.filter((c) => c.url.endsWith('/typing'))).toHaveLength(1);
    });
  });

  it('sends chosen files as multipart, a spoiler with the SPOILER_ prefix', async () => {
    const calls = stubApi();
    const user = userEvent.setup();
    renderWithClient(<Harness target={channel()} />);
    const file = new File(['png'], 'cat.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Upload a file'), file);
    expect(screen.getByText('cat.png')).toBeDefined();
    await user.click(screen.getByRole('checkbox', { name: 'Mark as spoiler' }));
    await user.type(screen.getByRole('textbox', { name: 'Message #general' }), 'look{Enter}');
    await waitFor(() => {
      expect(calls.some((c) => c.url.endsWith('/messages'))).toBe(true);
    });
    const form = calls.find((c) => c.url.endsWith('/messages'))?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('files[0]') as File).name).toBe('SPOILER_cat.png');
    expect(JSON.parse(form.get('payload_json') as string)).toMatchObject({ content: 'look' });
    expect(screen.queryByText('cat.png')).toBeNull();
  });
});

describe('createTypingThrottle', () => {
  it('sends once per interval and again after a message', () => {
    let now = 0;
    const send = vi.fn();
    const throttle = createTypingThrottle(send, () => now, 8_000);
    throttle.typed();
    now = 7_999;
    throttle.typed();
    expect(send).toHaveBeenCalledTimes(1);
    now = 8_000;
    throttle.typed();
    expect(send).toHaveBeenCalledTimes(2);
    throttle.sent();
    throttle.typed();
    expect(send).toHaveBeenCalledTimes(3);
  });
});
