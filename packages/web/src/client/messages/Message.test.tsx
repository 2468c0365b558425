import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { APIAttachment } from 'discord-api-types/v10';
import { Message } from './Message.js';
import { continues } from './MessagePane.js';
import {
  CHANNEL_ID,
  GUILD_ID,
  channel,
  message,
  readyState,
  renderWithClient,
} from '../test/render.js';
import { addMessages } from '../state.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function attachment(extra: Partial<APIAttachment>): APIAttachment {
  return {
    id: '600000000000000001',
    filename: 'cat.png',
    size: 2048,
    url: `http://127.0.0.1/attachments/${CHANNEL_ID}/600000000000000001/cat.png`,
    proxy_url: `http://127.0.0.1/attachments/${CHANNEL_ID}/600000000000000001/cat.png`,
    content_type: 'image/png',
    width: 40,
    height: 30,
    ...extra,
  };
}

const ABILITIES = { own: true, manage: false, pin: true, react: true };

function show(m = message()) {
  const state = addMessages(readyState(), CHANNEL_ID, { messages: [m] });
  const result = renderWithClient(
    <Message
      message={m}
      channel={channel()}
      guild={state.guilds[GUILD_ID]}
      member={state.members[GUILD_ID]?.[m.author.id]}
      abilities={ABILITIES}
    />,
    state,
  );
  return result;
}

describe('Message', () => {
  it('is an article named by its author with the content inside', () => {
    show(message({ content: 'hi **there**' }));
    const article = screen.getByRole('article', { name: 'Ada' });
    expect(article.textContent).toContain('hi there');
  });

  it('previews images, blurs spoilers until clicked, links other files', async () => {
    const user = userEvent.setup();
    show(
      message({
        content: '',
        attachments: [
          attachment({ description: 'a cat' }),
          attachment({ id: '600000000000000002', filename: 'SPOILER_dog.png' }),
          attachment({
            id: '600000000000000003',
            filename: 'notes.txt',
            content_type: 'text/plain',
            url: 'http://127.0.0.1/attachments/x/600000000000000003/notes.txt',
          }),
          attachment({
            id: '600000000000000004',
            filename: 'evil.png',
            url: 'javascript:alert(1)',
          }),
        ],
      }),
    );
    const list = screen.getByRole('list', { name: 'Attachments' });
    expect(within(list).getByRole('img', { name: 'a cat' }).className).toBe('attachment-image');
    const spoiler = within(list).getByRole('button', { name: 'Spoiler: reveal dog.png' });
    expect(within(spoiler).getByRole('img', { hidden: true }).className).toContain('blurred');
    await user.click(spoiler);
    const revealed = within(list).getByRole('img', { name: 'dog.png' });
    expect(revealed.className).toBe('attachment-image');
    const file = within(list).getByRole('link', { name: /notes\.txt/u });
    expect(file.getAttribute('download')).toBe('notes.txt');
    expect(file.getAttribute('rel')).toBe('noopener noreferrer');
    expect(file.textContent).toContain('2.0 KB');
    // A URL that is not http(s) is never put in src or href.
    expect(list.innerHTML).not.toContain('javascript:');
  });

  it('toggles a reaction through the API, shown at once', async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    const m = message({
      reactions: [
        {
          emoji: { id: null, name: '👍' },
          count: 1,
          count_details: { burst: 0, normal: 1 },
          me: false,
          me_burst: false,
          burst_colors: [],
        },
      ],
    });
    const { store } = show(m);
    await user.click(screen.getByRole('button', { name: 'thumbs up, 1 reaction' }));
    expect(store.get().messages[CHANNEL_ID]?.byId[m.id]?.reactions?.[0]).toMatchObject({
      count: 2,
      me: true,
    });
    await waitFor(() => {
      expect(fetch).toHaveBeenCalled();
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('PUT');
    expect(url).toBe(
      `/api/v10/channels/${CHANNEL_ID}/messages/${m.id}/reactions/${encodeURIComponent('👍')}/@me`,
    );
  });

  it('opens its menu from the keyboard and closes it with Escape', async () => {
    const user = userEvent.setup();
    show();
    const more = screen.getByRole('button', { name: 'More' });
    more.focus();
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'Message actions' });
    expect(within(menu).getByRole('menuitem', { name: 'Pin Message' })).toBe(
      document.activeElement,
    );
    expect(within(menu).getByRole('menuitem', { name: 'Delete Message' })).toBeDefined();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(more);
  });

  it('edits in place: Enter saves with PATCH, Escape cancels', async () => {
    const fetch = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify(message({ content: 'new' })), { status: 200 })),
    );
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    show();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const box = screen.getByRole('textbox', { name: 'Edit message' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.clear(screen.getByRole('textbox', { name: 'Edit message' }));
    await user.type(screen.getByRole('textbox', { name: 'Edit message' }), 'new{Enter}');
    await waitFor(() => {
      expect(fetch).toHaveBeenCalled();
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('PATCH');
    expect(url).toBe(`/api/v10/channels/${CHANNEL_ID}/messages/${message().id}`);
    expect(JSON.parse(init.body as string)).toEqual({ content: 'new' });
    expect(box.isConnected).toBe(false);
  });

  it('groups messages of one author within minutes', () => {
    const first = message();
    const soon = message({ id: '400000000000000002', timestamp: '2026-01-01T00:06:00.000Z' });
    const late = message({ id: '400000000000000003', timestamp: '2026-01-01T00:20:00.000Z' });
    const other = message({ author: { ...first.author, id: '100000000000000009' } });
    expect(continues(undefined, first)).toBe(false);
    expect(continues(first, soon)).toBe(true);
    expect(continues(soon, late)).toBe(false);
    expect(continues(first, other)).toBe(false);
  });

  it('shows embeds: a title linked only when http(s), a description in markdown', () => {
    show(
      message({
        content: '',
        embeds: [
          {
            title: 'Weather',
            url: 'https://example.com/w',
            description: 'It is **sunny**',
            color: 0x00ff00,
            fields: [{ name: 'High', value: '21°', inline: true }],
            footer: { text: 'bot' },
          },
          { title: 'Bad', url: 'javascript:alert(1)' },
        ],
      }),
    );
    const article = screen.getByRole('article', { name: 'Ada' });
    expect(within(article).getByRole('link', { name: 'Weather' }).getAttribute('href')).toBe(
      'https://example.com/w',
    );
    expect(within(article).getByText('sunny').tagName).toBe('STRONG');
    expect(within(article).getByText('High')).toBeDefined();
    expect(within(article).queryByRole('link', { name: 'Bad' })).toBeNull();
    expect(within(article).getByText('Bad')).toBeDefined();
  });

  it('highlights a message that mentions the user', () => {
    show(message({ mentions: [message().author], content: 'hey' }));
    expect(screen.getByRole('article', { name: 'Ada' }).className).toContain('mentioned');
  });
});
