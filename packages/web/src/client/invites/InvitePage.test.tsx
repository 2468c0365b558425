import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { InvitePage } from './InvitePage.js';
import { setToken } from '../../lib/session.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setToken(null);
});

const INVITE = {
  code: 'AbCd',
  type: 0,
  guild: { id: '200000000000000001', name: 'Lab', features: [], icon: null },
  channel: { id: '300000000000000001', name: 'general', type: 0 },
  approximate_member_count: 12,
  approximate_presence_count: 3,
};

function stub() {
  const fetch = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(() =>
    Promise.resolve(new Response(JSON.stringify(INVITE), { status: 200 })),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function show() {
  const memory = memoryLocation({ path: '/invite/AbCd', record: true });
  render(
    <Router hook={memory.hook}>
      <InvitePage code="AbCd" />
    </Router>,
  );
  return memory;
}

describe('InvitePage', () => {
  it('shows the guild and its counts, and accepting joins and opens it', async () => {
    setToken('session');
    const fetch = stub();
    const user = userEvent.setup();
    const memory = show();
    expect(await screen.findByRole('heading', { name: 'Lab' })).toBeDefined();
    expect(screen.getByText(/3 Online/u)).toBeDefined();
    expect(screen.getByText(/12 Members/u)).toBeDefined();
    const [getUrl] = fetch.mock.calls[0] ?? [];
    expect(getUrl).toBe('/api/v10/invites/AbCd?with_counts=true');
    await user.click(screen.getByRole('button', { name: 'Accept Invite' }));
    await waitFor(() => {
      expect(memory.history.at(-1)).toBe('/channels/200000000000000001/300000000000000001');
    });
    const [url, init] = fetch.mock.calls[1] ?? [];
    expect(url).toBe('/api/v10/invites/AbCd');
    expect(init?.method).toBe('POST');
  });

  it('sends a logged-out visitor to log in, then back here', async () => {
    stub();
    const user = userEvent.setup();
    const memory = show();
    await user.click(await screen.findByRole('button', { name: 'Accept Invite' }));
    expect(memory.history.at(-1)).toBe(`/login?next=${encodeURIComponent('/invite/AbCd')}`);
  });
});
