import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Store } from '../../lib/store.js';
import type { ClientState } from '../state.js';
import { FriendsView } from './FriendsView.js';
import { RelationshipType } from './relationships.js';
import { fakeApi, renderInClient, socialState, user, type Answer } from './testing.js';

const bob = user('20', 'bob');
const cat = user('30', 'cat');
const dan = user('40', 'dan');
const eve = user('50', 'eve');
const fay = user('60', 'fay');

const wire = [
  { id: bob.id, type: RelationshipType.Friend, user: bob, nickname: 'Bobby' },
  { id: cat.id, type: RelationshipType.Friend, user: cat, nickname: null },
  { id: dan.id, type: RelationshipType.PendingIncoming, user: dan, nickname: null },
  { id: eve.id, type: RelationshipType.PendingOutgoing, user: eve, nickname: null },
  { id: fay.id, type: RelationshipType.Blocked, user: fay, nickname: null },
];

const LIST: Answer = { status: 200, body: wire };

let current: Store<ClientState> | null = null;

function store(): Store<ClientState> {
  if (current === null) throw new Error('nothing rendered');
  return current;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderFriends() {
  const rendered = renderInClient(<FriendsView />, {
    path: '/channels/@me',
    state: socialState({ presences: { [bob.id]: { status: 'online', activities: [] } } }),
  });
  current = rendered.store;
  return rendered.location;
}

const row = (name: string) => screen.getByRole('listitem', { name });

describe('FriendsView', () => {
  it('shows online friends, all friends, requests and blocks in their tabs', async () => {
    fakeApi({ 'GET /users/@me/relationships': LIST });
    renderFriends();
    const ui = userEvent.setup();
    // Online: only Bobby (bob, online); his status dot is named.
    expect(await screen.findByRole('listitem', { name: 'Bobby' })).toBeDefined();
    expect(screen.getByRole('tab', { name: 'Online' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('listitem', { name: 'cat' })).toBeNull();
    expect(within(row('Bobby')).getByRole('img', { name: 'Online' })).toBeDefined();

    await ui.click(screen.getByRole('tab', { name: 'All' }));
    expect(screen.getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual([
      'Bobby',
      'cat',
    ]);
    expect(within(row('cat')).getByRole('img', { name: 'Offline' })).toBeDefined();

    await ui.click(screen.getByRole('tab', { name: 'Pending' }));
    expect(within(row('dan')).getByText('Incoming Friend Request')).toBeDefined();
    expect(within(row('eve')).getByText('Outgoing Friend Request')).toBeDefined();
    expect(within(row('dan')).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(within(row('eve')).queryByRole('button', { name: 'Accept' })).toBeNull();

    // Arrow keys move between tabs.
    await ui.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Blocked' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Blocked' }));
    expect(within(row('fay')).getByRole('button', { name: 'Unblock' })).toBeDefined();
  });

  it('accepts, ignores and cancels requests with the routes that do it', async () => {
    const calls = fakeApi({
      'GET /users/@me/relationships': LIST,
      [`PUT /users/@me/relationships/${dan.id}`]: { status: 204 },
      [`DELETE /users/@me/relationships/${dan.id}`]: { status: 204 },
      [`DELETE /users/@me/relationships/${eve.id}`]: { status: 204 },
      [`DELETE /users/@me/relationships/${fay.id}`]: { status: 204 },
    });
    renderFriends();
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('tab', { name: 'Pending' }));
    const changes = () => calls.filter((c) => c.method !== 'GET');

    await ui.click(
      within(await screen.findByRole('listitem', { name: 'dan' })).getByRole('button', {
        name: 'Accept',
      }),
    );
    await ui.click(within(row('dan')).getByRole('button', { name: 'Ignore' }));
    await ui.click(within(row('eve')).getByRole('button', { name: 'Cancel' }));
    await ui.click(screen.getByRole('tab', { name: 'Blocked' }));
    await ui.click(within(row('fay')).getByRole('button', { name: 'Unblock' }));
    await vi.waitFor(() => {
      expect(changes()).toEqual([
        { method: 'PUT', path: `/users/@me/relationships/${dan.id}`, body: {} },
        { method: 'DELETE', path: `/users/@me/relationships/${dan.id}`, body: undefined },
        { method: 'DELETE', path: `/users/@me/relationships/${eve.id}`, body: undefined },
        { method: 'DELETE', path: `/users/@me/relationships/${fay.id}`, body: undefined },
      ]);
    });
  });

  it('keeps keyboard focus in the list when a row goes', async () => {
    let ignored = false;
    fakeApi({
      'GET /users/@me/relationships': () => ({
        status: 200,
        body: ignored ? wire.filter((r) => r.id !== dan.id) : wire,
      }),
      [`DELETE /users/@me/relationships/${dan.id}`]: () => {
        ignored = true;
        return { status: 204 };
      },
    });
    renderFriends();
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('tab', { name: 'Pending' }));
    await screen.findByRole('listitem', { name: 'dan' });
    within(row('dan')).getByRole('button', { name: 'Ignore' }).focus();
    await ui.keyboard('{Enter}');
    await vi.waitFor(() => {
      expect(screen.queryByRole('listitem', { name: 'dan' })).toBeNull();
    });
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Pending — 1' }));
  });

  it("blocks, removes and names friends, and shows the API's refusal in the row", async () => {
    const calls = fakeApi({
      'GET /users/@me/relationships': LIST,
      [`PUT /users/@me/relationships/${cat.id}`]: { status: 204 },
      [`PATCH /users/@me/relationships/${cat.id}`]: { status: 204 },
      [`DELETE /users/@me/relationships/${bob.id}`]: {
        status: 429,
        body: { message: 'You are being rate limited.', retry_after: 1, global: false },
      },
    });
    renderFriends();
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('tab', { name: 'All' }));
    await ui.click(
      within(await screen.findByRole('listitem', { name: 'cat' })).getByRole('button', {
        name: 'Block',
      }),
    );
    await ui.click(within(row('cat')).getByRole('button', { name: 'Edit Nickname' }));
    await ui.type(within(row('cat')).getByLabelText('Nickname'), 'Kitty{Enter}');
    await ui.click(within(row('Bobby')).getByRole('button', { name: 'Remove Friend' }));
    expect(await within(row('Bobby')).findByRole('alert')).toHaveProperty(
      'textContent',
      'You are being rate limited.',
    );
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([
      { method: 'PUT', path: `/users/@me/relationships/${cat.id}`, body: { type: 2 } },
      { method: 'PATCH', path: `/users/@me/relationships/${cat.id}`, body: { nickname: 'Kitty' } },
      { method: 'DELETE', path: `/users/@me/relationships/${bob.id}`, body: undefined },
    ]);
  });

  it('opens the DM of a friend and goes to it', async () => {
    const calls = fakeApi({
      'GET /users/@me/relationships': LIST,
      'POST /users/@me/channels': {
        status: 200,
        body: { id: '900', type: 1, last_message_id: null, flags: 0, recipients: [bob] },
      },
    });
    const location = renderFriends();
    const ui = userEvent.setup();
    await ui.click(
      within(await screen.findByRole('listitem', { name: 'Bobby' })).getByRole('button', {
        name: 'Message',
      }),
    );
    await vi.waitFor(() => {
      expect(location.history.at(-1)).toBe('/channels/@me/900');
    });
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      path: '/users/@me/channels',
      body: { recipient_id: bob.id },
    });
    const state = store().get();
    expect(state.privateChannelIds).toEqual(['900']);
  });
});

describe('Add Friend', () => {
  async function request(username: string) {
    renderFriends();
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('tab', { name: 'Add Friend' }));
    await ui.type(screen.getByLabelText('Username'), username);
    await ui.click(screen.getByRole('button', { name: 'Send Friend Request' }));
  }

  it("shows the API's error under the field", async () => {
    const calls = fakeApi({
      'GET /users/@me/relationships': LIST,
      'POST /users/@me/relationships': {
        status: 400,
        body: { code: 80004, message: 'No users with DiscordTag exist' },
      },
    });
    await request('nobody');
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'No users with DiscordTag exist',
    );
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      path: '/users/@me/relationships',
      body: { username: 'nobody' },
    });
  });

  it('says the request was sent and lists it as pending', async () => {
    let sent = false;
    const grace = user('70', 'grace');
    fakeApi({
      'GET /users/@me/relationships': () => ({
        status: 200,
        body: sent
          ? [...wire, { id: grace.id, type: RelationshipType.PendingOutgoing, user: grace }]
          : wire,
      }),
      'POST /users/@me/relationships': () => {
        sent = true;
        return { status: 204 };
      },
    });
    await request('  grace ');
    expect(await screen.findByText('Your friend request to grace was sent.')).toBeDefined();
    expect(screen.getByLabelText('Username')).toHaveProperty('value', '');
    await vi.waitFor(() => {
      expect(store().get().relationships[grace.id]?.type).toBe(RelationshipType.PendingOutgoing);
    });
  });
});
