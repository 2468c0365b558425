import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChannelType, type APIChannel } from 'discord-api-types/v10';
import type { Store } from '../../lib/store.js';
import type { ClientState } from '../state.js';
import { HomeSidebar } from './HomeSidebar.js';
import { RelationshipType } from './relationships.js';
import { fakeApi, renderInClient, socialState, user } from './testing.js';

const bob = user('20', 'bob');
const cat = user('30', 'cat');
const dan = user('40', 'dan');

const channels = {
  '100': { id: '100', type: ChannelType.DM, last_message_id: '500', recipients: [bob] },
  '200': { id: '200', type: ChannelType.DM, last_message_id: '800', recipients: [cat] },
  '300': {
    id: '300',
    type: ChannelType.GroupDM,
    last_message_id: '700',
    recipients: [bob, cat],
    name: null,
    owner_id: '10',
  },
} as unknown as Record<string, APIChannel>;

let current: Store<ClientState> | null = null;

function store(): Store<ClientState> {
  if (current === null) throw new Error('nothing rendered');
  return current;
}

function renderSidebar(path: string) {
  const rendered = renderInClient(<HomeSidebar />, {
    path,
    state: socialState({
      channels,
      privateChannelIds: ['100', '200', '300'],
      presences: { [cat.id]: { status: 'dnd', activities: [] } },
      relationships: {
        [bob.id]: { id: bob.id, type: RelationshipType.Friend, user: bob, nickname: null },
        [cat.id]: { id: cat.id, type: RelationshipType.Friend, user: cat, nickname: 'Kitty' },
        [dan.id]: { id: dan.id, type: RelationshipType.PendingIncoming, user: dan, nickname: null },
      },
    }),
  });
  current = rendered.store;
  return rendered.location;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('HomeSidebar', () => {
  it('lists the DMs newest first with names and presence, and the Friends link', () => {
    renderSidebar('/channels/@me/100');
    const nav = screen.getByRole('navigation', { name: 'Direct Messages' });
    const friends = within(nav).getByRole('link', { name: 'Friends' });
    expect(friends.getAttribute('aria-current')).toBeNull();
    expect(screen.getByText('1 pending friend request')).toBeDefined();
    const links = within(within(nav).getByRole('list')).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('aria-labelledby'))).not.toContain(null);
    expect(within(nav).getByRole('link', { name: 'Kitty' }).getAttribute('href')).toBe(
      '/channels/@me/200',
    );
    expect(
      within(nav).getByRole('link', { name: 'bob, Kitty', description: '3 Members' }),
    ).toBeDefined();
    expect(within(nav).getByRole('link', { name: 'bob', description: 'Offline' })).toBeDefined();
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/channels/@me/200',
      '/channels/@me/300',
      '/channels/@me/100',
    ]);
    expect(links[2]?.getAttribute('aria-current')).toBe('page');
    const kitty = within(nav).getByRole('link', { name: 'Kitty' });
    expect(within(kitty).getByRole('img', { name: 'Do Not Disturb' })).toBeDefined();
  });

  it('closes a DM through the API, and goes home when it was open', async () => {
    const calls = fakeApi({ 'DELETE /channels/100': { status: 200, body: channels['100'] } });
    const location = renderSidebar('/channels/@me/100');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close DM with bob' }));
    await vi.waitFor(() => {
      expect(location.history.at(-1)).toBe('/channels/@me');
    });
    expect(calls).toEqual([{ method: 'DELETE', path: '/channels/100', body: undefined }]);
    expect(store().get().privateChannelIds).toEqual(['200', '300']);
    expect(screen.queryByRole('link', { name: 'bob' })).toBeNull();
  });

  it('asks before leaving a group DM', async () => {
    const calls = fakeApi({ 'DELETE /channels/300': { status: 200, body: channels['300'] } });
    renderSidebar('/channels/@me');
    const ui = userEvent.setup();
    const leave = screen.getByRole('button', { name: 'Leave Group bob, Kitty' });
    await ui.click(leave);
    const dialog = screen.getByRole('dialog', { name: "Leave 'bob, Kitty'" });
    await ui.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(leave);
    expect(calls).toEqual([]);
    await ui.click(leave);
    await ui.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Leave Group' }));
    await vi.waitFor(() => {
      expect(store().get().privateChannelIds).toEqual(['100', '200']);
    });
    expect(dialog.isConnected).toBe(false);
    expect(calls).toEqual([{ method: 'DELETE', path: '/channels/300', body: undefined }]);
  });

  it('creates a DM with a friend, or a group DM with several', async () => {
    const calls = fakeApi({
      'POST /users/@me/channels': () => {
        const body = calls.at(-1)?.body as { recipient_id?: string };
        return {
          status: 200,
          body:
            body.recipient_id === undefined
              ? { id: '950', type: 3, last_message_id: null, recipients: [bob, cat], name: null }
              : { id: '900', type: 1, last_message_id: null, recipients: [bob] },
        };
      },
    });
    const location = renderSidebar('/channels/@me');
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: 'Create DM' }));
    let dialog = screen.getByRole('dialog', { name: 'Select Friends' });
    // Friends only: dan's request is not one.
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(2);
    await ui.click(within(dialog).getByRole('checkbox', { name: /bob/ }));
    await ui.click(within(dialog).getByRole('button', { name: 'Create DM' }));
    await vi.waitFor(() => {
      expect(location.history.at(-1)).toBe('/channels/@me/900');
    });
    expect(calls.at(-1)?.body).toEqual({ recipient_id: bob.id });

    await ui.click(screen.getByRole('button', { name: 'Create DM' }));
    dialog = screen.getByRole('dialog', { name: 'Select Friends' });
    await ui.click(within(dialog).getByRole('checkbox', { name: /bob/ }));
    await ui.click(within(dialog).getByRole('checkbox', { name: /Kitty/ }));
    await ui.click(within(dialog).getByRole('button', { name: 'Create Group DM' }));
    await vi.waitFor(() => {
      expect(location.history.at(-1)).toBe('/channels/@me/950');
    });
    expect(calls.at(-1)?.body).toEqual({ recipients: [bob.id, cat.id] });
    expect(store().get().privateChannelIds.slice(0, 2)).toEqual(['950', '900']);
  });
});
