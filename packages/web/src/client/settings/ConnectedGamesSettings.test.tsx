import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { setToken } from '../../lib/session.js';
import { fakeApi, type Answer } from '../social/testing.js';
import { ConnectedGamesSettings } from './ConnectedGamesSettings.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setToken(null);
});

const ROUTE = '/users/@me/settings/connected-games';

function show() {
  setToken('session');
  const memory = memoryLocation({ path: '/settings/connected-games', record: true });
  render(
    <Router hook={memory.hook}>
      <ConnectedGamesSettings />
    </Router>,
  );
  return memory;
}

const radio = (name: string) => screen.getByRole('radio', { name: new RegExp(`^${name}`, 'u') });

describe('ConnectedGamesSettings', () => {
  it('shows the setting and saves each choice with PATCH', async () => {
    const calls = fakeApi({
      [`GET ${ROUTE}`]: { status: 200, body: { allow_messages_from: 'friends' } },
      [`PATCH ${ROUTE}`]: { status: 200, body: { allow_messages_from: 'everyone' } },
    });
    const user = userEvent.setup();
    show();
    expect(
      await screen.findByRole('group', { name: 'Who can message me from connected games' }),
    ).toBeDefined();
    expect((radio('Friends') as HTMLInputElement).checked).toBe(true);
    expect((radio('Everyone') as HTMLInputElement).checked).toBe(false);

    await user.click(radio('Everyone'));
    await screen.findByText('Saved.');
    expect((radio('Everyone') as HTMLInputElement).checked).toBe(true);
    expect(calls).toEqual([
      { method: 'GET', path: ROUTE, body: undefined },
      { method: 'PATCH', path: ROUTE, body: { allow_messages_from: 'everyone' } },
    ]);
  });

  it('keeps the setting that holds when the server refuses a choice', async () => {
    let answer: Answer = { status: 200, body: { allow_messages_from: 'nobody' } };
    fakeApi({
      [`GET ${ROUTE}`]: { status: 200, body: { allow_messages_from: 'nobody' } },
      [`PATCH ${ROUTE}`]: () => answer,
    });
    const user = userEvent.setup();
    show();
    await screen.findByRole('group');
    answer = {
      status: 400,
      body: { code: 50035, message: 'Invalid Form Body' },
    };
    await user.click(radio('Friends'));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid Form Body');
    await waitFor(() => {
      expect((radio('Nobody') as HTMLInputElement).checked).toBe(true);
    });
    expect((radio('Friends') as HTMLInputElement).checked).toBe(false);
  });

  it('says why when the setting cannot be read, and leads back to the client', async () => {
    fakeApi({
      [`GET ${ROUTE}`]: { status: 401, body: { code: 0, message: '401: Unauthorized' } },
      'GET /users/@me': { status: 200, body: { id: '1' } },
    });
    const user = userEvent.setup();
    const memory = show();
    expect((await screen.findByRole('alert')).textContent).toBe('401: Unauthorized');
    expect(screen.queryByRole('group')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Back to Guildhall' }));
    expect(memory.history.at(-1)).toBe('/channels/@me');
  });
});
