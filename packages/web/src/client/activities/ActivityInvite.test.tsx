/**
 * Activity invites in a conversation (jsdom): the card with the app's cover image (or the
 * inviter's own invite image), Join accepting the invite and launching the app's activity there,
 * the join secret kept for the frame's ACTIVITY_JOIN; a game without an activity is told apart;
 * Join only while the inviter's activity can be joined (its JOIN flag) when this person sees
 * it; Spectate beside Join when the inviter's activity can be spectated (its SPECTATE flag).
 */
import { ActivityFlags } from '@guildhall/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MessageActivityType, type APIMessage, type APIUser } from 'discord-api-types/v10';
import { answerFetch, json } from '../../test/fetch.js';
import { CHANNEL_ID, message, readyState, renderWithClient } from '../test/render.js';
import { ActivityInvite } from './ActivityInvite.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const APP_ID = '700000000000000007';
const BOB: APIUser = {
  id: '800000000000000008',
  username: 'bob',
  discriminator: '0',
  global_name: 'Bob',
  avatar: null,
};

function invite(extra: Partial<APIMessage> = {}): APIMessage {
  return message({
    author: BOB,
    content: '',
    activity: { type: MessageActivityType.Join, party_id: 'party-1' },
    application: { id: APP_ID, name: 'Tiles', icon: null, description: '', cover_image: 'c0ffee' },
    ...extra,
  });
}

describe('ActivityInvite', () => {
  it("shows the app's cover image and joins: the invite accepted, the activity launched", async () => {
    const calls = answerFetch((url) =>
      url.includes('/join')
        ? json(200, { secret: 's3cret', application_id: APP_ID, party_id: 'party-1' })
        : json(200, {
            application_id: APP_ID,
            instance_id: `i-9-pc-${CHANNEL_ID}`,
            launch_id: '9',
            location: { id: `pc-${CHANNEL_ID}`, kind: 'pc', channel_id: CHANNEL_ID },
            users: [],
            participants: [],
            launched_by: 'someone else',
            ended: false,
            activity_origin: 'http://x.activities.localhost',
          }),
    );
    const m = invite();
    const { store, container } = renderWithClient(<ActivityInvite message={m} />, readyState());
    const card = screen.getByRole('region', { name: 'Invite to Tiles' });
    expect(card.textContent).toContain('Bob invites you to join Tiles');
    expect(container.querySelector('img')?.getAttribute('src')).toBe(
      `/app-icons/${APP_ID}/c0ffee.png?size=512`,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Join' }));
    await waitFor(() => {
      expect(calls).toHaveLength(2);
    });
    expect(calls[0]?.[0]).toBe('/api/v10/users/@me/activities/party-1/join');
    expect(JSON.parse(calls[0]?.[1].body as string)).toEqual({
      user_id: BOB.id,
      channel_id: CHANNEL_ID,
      message_id: m.id,
    });
    expect(calls[1]?.[0]).toBe(`/api/v10/channels/${CHANNEL_ID}/activity-instances`);
    expect(store.get().activities.joins[APP_ID]).toEqual({
      applicationId: APP_ID,
      secret: 's3cret',
    });
  });

  it("prefers the inviter's own invite image; a game without an activity is joined on its device", async () => {
    answerFetch((url) =>
      url.includes('/join')
        ? json(200, { secret: 's', application_id: APP_ID, party_id: 'party-1' })
        : json(400, { code: 50035, message: 'Invalid Form Body' }),
    );
    const state = readyState();
    state.presences[BOB.id] = {
      status: 'online',
      activities: [
        {
          name: 'Tiles',
          type: 0,
          application_id: APP_ID,
          party: { id: 'party-1' },
          assets: { invite_cover_image: 'https://img.example/cover.png' },
          // ActivityFlags.JOIN: the inviter's activity holds a join secret (never shown).
          flags: ActivityFlags.JOIN,
        },
      ],
    };
    const { container } = renderWithClient(<ActivityInvite message={invite()} />, state);
    expect(container.querySelector('img')?.getAttribute('src')).toBe(
      'https://img.example/cover.png',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Join' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'Tiles on your device receives the invite',
    );
  });

  it("offers Spectate beside Join when the inviter's activity can be spectated", async () => {
    const calls = answerFetch(() =>
      json(200, { secret: 'w', application_id: APP_ID, party_id: 'party-1' }),
    );
    const state = readyState();
    const activity = {
      name: 'Tiles',
      type: 0,
      application_id: APP_ID,
      party: { id: 'party-1' },
      flags: ActivityFlags.JOIN,
    };
    state.presences[BOB.id] = { status: 'online', activities: [activity] };
    renderWithClient(<ActivityInvite message={invite()} />, state);
    expect(screen.getByRole('button', { name: 'Join' })).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Spectate' })).toBeNull();
    cleanup();

    // ActivityFlags.SPECTATE: the activity holds a spectate secret (never shown to others).
    const flags = ActivityFlags.JOIN | ActivityFlags.SPECTATE;
    state.presences[BOB.id] = { status: 'online', activities: [{ ...activity, flags }] };
    renderWithClient(<ActivityInvite message={invite()} />, state);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Spectate' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'Spectating: Tiles on your device receives it',
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[0]).toBe('/api/v10/users/@me/activities/party-1/spectate');
    expect(JSON.parse(calls[0]?.[1].body as string)).toEqual({ user_id: BOB.id });
  });

  it("offers Join unless the inviter's activity shows it cannot be joined (no JOIN flag)", () => {
    const state = readyState();
    const activity = { name: 'Tiles', type: 0, application_id: APP_ID, party: { id: 'party-1' } };
    // The join secret is gone (no JOIN flag): the server would refuse the join, so no Join.
    state.presences[BOB.id] = { status: 'online', activities: [activity] };
    renderWithClient(<ActivityInvite message={invite()} />, state);
    expect(screen.getByRole('region', { name: 'Invite to Tiles' })).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
    cleanup();
    state.presences[BOB.id] = {
      status: 'online',
      activities: [{ ...activity, flags: ActivityFlags.JOIN }],
    };
    renderWithClient(<ActivityInvite message={invite()} />, state);
    expect(screen.getByRole('button', { name: 'Join' })).not.toBeNull();
    cleanup();
    // An inviter whose presence this person does not see: the server decides.
    renderWithClient(<ActivityInvite message={invite()} />, readyState());
    expect(screen.getByRole('button', { name: 'Join' })).not.toBeNull();
  });

  it('is nothing for an ordinary message, and has no Join on your own invite', () => {
    const { container } = renderWithClient(<ActivityInvite message={message()} />, readyState());
    expect(container.textContent).toBe('');
    cleanup();
    renderWithClient(
      <ActivityInvite message={invite({ author: readyState().me ?? BOB })} />,
      readyState(),
    );
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
  });
});
