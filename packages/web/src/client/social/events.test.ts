import { describe, expect, it } from 'vitest';
import { ChannelType, type APIUser } from 'discord-api-types/v10';
import { createStore } from '../../lib/store.js';
import { subscribeSocial } from './events.js';
import { privateChannelsByActivity } from './privateChannels.js';
import { RelationshipType } from './relationships.js';
import { reduce } from '../state.js';
import { fakeGateway, socialState, user } from './testing.js';

const bob: APIUser = user('20', 'bob');
const cat: APIUser = user('30', 'cat');

/** The chat's reducer and the social one on one gateway, as the client runs them. */
function setup() {
  const gateway = fakeGateway();
  const store = createStore(socialState());
  gateway.on('*', (data, type) => {
    store.set((state) => reduce(state, { t: type, d: data }, Date.now()));
  });
  const off = subscribeSocial(gateway, store);
  return { gateway, store, off };
}

describe('relationship events', () => {
  it('RELATIONSHIP_ADD adds a row, and a new type replaces it', () => {
    const { gateway, store } = setup();
    gateway.dispatch('RELATIONSHIP_ADD', {
      id: bob.id,
      type: RelationshipType.PendingOutgoing,
      user: bob,
      nickname: null,
      is_spam_request: false,
      since: '2026-11-24T06:00:00.000Z',
    });
    expect(store.get().relationships[bob.id]).toEqual({
      id: bob.id,
      type: RelationshipType.PendingOutgoing,
      user: bob,
      nickname: null,
    });
    expect(store.get().users[bob.id]).toEqual(bob);
    gateway.dispatch('RELATIONSHIP_ADD', { id: bob.id, type: RelationshipType.Friend, user: bob });
    expect(store.get().relationships[bob.id]?.type).toBe(RelationshipType.Friend);
  });

  it('RELATIONSHIP_UPDATE changes the nickname', () => {
    const { gateway, store } = setup();
    gateway.dispatch('RELATIONSHIP_ADD', { id: bob.id, type: RelationshipType.Friend, user: bob });
    gateway.dispatch('RELATIONSHIP_UPDATE', {
      id: bob.id,
      type: RelationshipType.Friend,
      user: bob,
      nickname: 'Bobby',
    });
    expect(store.get().relationships[bob.id]?.nickname).toBe('Bobby');
    gateway.dispatch('RELATIONSHIP_UPDATE', {
      id: bob.id,
      type: RelationshipType.Friend,
      user: bob,
      nickname: null,
    });
    expect(store.get().relationships[bob.id]?.nickname).toBeNull();
  });

  it('RELATIONSHIP_REMOVE drops the row it names, not a newer one', () => {
    const { gateway, store } = setup();
    gateway.dispatch('RELATIONSHIP_ADD', { id: bob.id, type: RelationshipType.Friend, user: bob });
    gateway.dispatch('RELATIONSHIP_ADD', { id: cat.id, type: RelationshipType.Blocked, user: cat });
    // A late remove of cat's old request leaves the block in place.
    gateway.dispatch('RELATIONSHIP_REMOVE', {
      id: cat.id,
      type: RelationshipType.PendingIncoming,
      user: cat,
    });
    gateway.dispatch('RELATIONSHIP_REMOVE', {
      id: bob.id,
      type: RelationshipType.Friend,
      user: bob,
    });
    expect(Object.keys(store.get().relationships)).toEqual([cat.id]);
  });

  it("ignores game relationships (the friends list is the platform's)", () => {
    const { gateway, store } = setup();
    const game = { id: bob.id, type: 1, user: bob, application_id: '99' };
    gateway.dispatch('RELATIONSHIP_ADD', game);
    expect(store.get().relationships).toEqual({});
    gateway.dispatch('RELATIONSHIP_ADD', { id: bob.id, type: 1, user: bob });
    gateway.dispatch('RELATIONSHIP_REMOVE', game);
    expect(store.get().relationships[bob.id]?.type).toBe(1);
  });

  it("keeps READY's relationships, then follows the events", () => {
    const { gateway, store } = setup();
    gateway.dispatch('READY', {
      user: user('10', 'ada'),
      session_id: 's',
      relationships: [{ id: bob.id, type: RelationshipType.PendingIncoming, user: bob }],
      private_channels: [],
      presences: [],
    });
    gateway.dispatch('RELATIONSHIP_ADD', { id: bob.id, type: RelationshipType.Friend, user: bob });
    expect(store.get().relationships[bob.id]?.type).toBe(RelationshipType.Friend);
  });

  it('stops following the gateway once unsubscribed', () => {
    const { gateway, store, off } = setup();
    off();
    gateway.dispatch('RELATIONSHIP_ADD', { id: bob.id, type: 1, user: bob });
    expect(store.get().relationships).toEqual({});
  });
});

describe('private channel events (with the chat reducer)', () => {
  const dm = (id: string, last: string | null, who: APIUser) => ({
    id,
    type: ChannelType.DM,
    last_message_id: last,
    flags: 0,
    recipients: [who],
  });

  it('lists DMs by their last message, a new message moving one first', () => {
    const { gateway, store } = setup();
    gateway.dispatch('CHANNEL_CREATE', dm('100', '500', bob));
    gateway.dispatch('CHANNEL_CREATE', dm('200', '400', cat));
    gateway.dispatch('CHANNEL_CREATE', { id: '300', type: ChannelType.GuildText, guild_id: '1' });
    const order = () =>
      privateChannelsByActivity(store.get().channels, store.get().privateChannelIds).map(
        (c) => c.id,
      );
    expect(order()).toEqual(['100', '200']);
    gateway.dispatch('MESSAGE_CREATE', {
      id: '600',
      channel_id: '200',
      content: 'hi',
      author: cat,
    });
    expect(order()).toEqual(['200', '100']);
    // A guild channel's message changes nothing here.
    gateway.dispatch('MESSAGE_CREATE', {
      id: '700',
      channel_id: '300',
      content: 'hi',
      author: cat,
    });
    expect(order()).toEqual(['200', '100']);
    gateway.dispatch('CHANNEL_DELETE', { id: '200', type: ChannelType.DM });
    expect(order()).toEqual(['100']);
  });

  it('follows the members of a group DM', () => {
    const { gateway, store } = setup();
    gateway.dispatch('CHANNEL_CREATE', {
      id: '100',
      type: ChannelType.GroupDM,
      last_message_id: null,
      recipients: [bob],
      name: null,
      owner_id: '10',
    });
    gateway.dispatch('CHANNEL_RECIPIENT_ADD', { channel_id: '100', user: cat });
    const recipients = () =>
      (store.get().channels['100'] as { recipients: APIUser[] }).recipients.map((u) => u.id);
    expect(recipients()).toEqual([bob.id, cat.id]);
    gateway.dispatch('CHANNEL_RECIPIENT_REMOVE', { channel_id: '100', user: bob });
    expect(recipients()).toEqual([cat.id]);
  });
});
