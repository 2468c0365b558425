import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MessagePane } from './MessagePane.js';
import { CHANNEL_ID, message, renderWithClient } from '../test/render.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const HISTORY = [
  message({ id: '400000000000000003', content: 'third', timestamp: '2026-01-01T01:00:00.000Z' }),
  message({ id: '400000000000000002', content: 'second', timestamp: '2026-01-01T00:30:00.000Z' }),
  message({ id: '400000000000000001', content: 'first' }),
];

function stubHistory() {
  const fetch = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(() =>
    Promise.resolve(new Response(JSON.stringify(HISTORY), { status: 200 })),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('MessagePane', () => {
  it('loads the history oldest first into the Messages log', async () => {
    const fetch = stubHistory();
    renderWithClient(<MessagePane channelId={CHANNEL_ID} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    await within(log).findByText('third');
    expect(
      within(log)
        .getAllByRole('article')
        .map((a) => a.textContent),
    ).toEqual([
      expect.stringContaining('first'),
      expect.stringContaining('second'),
      expect.stringContaining('third'),
    ]);
    expect(fetch.mock.calls[0]?.[0]).toBe(`/api/v10/channels/${CHANNEL_ID}/messages?limit=50`);
    // Fewer than a page: nothing older to load.
    expect(screen.getByText('This is the beginning of this conversation.')).toBeDefined();
  });

  it('opened at a message (a link to it): scrolls to it and focuses it, not the newest', async () => {
    stubHistory();
    const scrolled: string[] = [];
    // jsdom lays nothing out and has no scrollIntoView.
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.getAttribute('data-message-id') ?? '');
    };
    try {
      renderWithClient(<MessagePane channelId={CHANNEL_ID} focusId="400000000000000002" />);
      const log = screen.getByRole('log', { name: 'Messages' });
      await within(log).findByText('second');
      const second = within(log).getAllByRole('article')[1];
      expect(document.activeElement).toBe(second);
      expect(second?.tabIndex).toBe(0);
      expect(scrolled).toEqual(['400000000000000002']);
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it('is one Tab stop: the newest message, then arrow keys move between messages', async () => {
    stubHistory();
    const user = userEvent.setup();
    renderWithClient(<MessagePane channelId={CHANNEL_ID} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    await within(log).findByText('third');
    const [first, second, third] = within(log).getAllByRole('article');
    if (first === undefined || second === undefined || third === undefined) throw new Error('3');
    expect(third.tabIndex).toBe(0);
    expect(first.tabIndex).toBe(-1);
    expect(within(first).getByRole('button', { name: 'More' }).tabIndex).toBe(-1);
    third.focus();
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(second);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(first);
    expect(first.tabIndex).toBe(0);
    expect(within(first).getByRole('button', { name: 'More' }).tabIndex).toBe(0);
    expect(third.tabIndex).toBe(-1);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(third);
  });
});
