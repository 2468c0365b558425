/**
 * Relationships through the SDK against a real server: game friends between provisional players,
 * platform-wide ("Discord") friends between full accounts, both scopes of one pair, blocks, the
 * friends list's groups and their callback, and the failures.
 */
import { describe, expect, it } from 'vitest';
import {
  Activity,
  AuthorizationTokenType,
  ErrorType,
  RelationshipGroupType,
  RelationshipType,
  StatusType,
  type Client,
} from '../src/node.js';
import { connectReady, describeDrivers, eventually, useSdkWorld } from './support.js';
import { fullPlayer, groups, sdkError, shape, thrown } from './social-fixture.js';

const { OnlinePlayingGame, OnlineElsewhere, Offline } = RelationshipGroupType;

/** Both sides' types of a client's relationship with a user: [discord, game]. */
const types = (client: Client, userId: string) => {
  const handle = client.getRelationshipHandle(userId);
  return [handle.discordRelationshipType(), handle.gameRelationshipType()];
};

describeDrivers('SDK relationships ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('game friends: request, the other side’s callbacks and handles, accept, groups', async () => {
    const adaP = await world().player('Ada');
    const bobP = await world().player('Bob');
    const ada = await world().readyClient(adaP);
    const bob = await world().readyClient(bobP);
    const bobCreated: [string, boolean][] = [];
    bob.setRelationshipCreatedCallback((userId, isDiscord) => bobCreated.push([userId, isDiscord]));
    const adaGroups: string[] = [];
    ada.setRelationshipGroupsUpdatedCallback((userId) => adaGroups.push(userId));

    // By username: a provisional account's is `provisional_<id>`.
    await ada.sendGameFriendRequest(bobP.user.username);
    await eventually(() => (bobCreated.length > 0 ? true : undefined), 'Bob hears of the request');
    expect(bobCreated).toEqual([[adaP.id, false]]);
    expect(types(bob, adaP.id)).toEqual([RelationshipType.None, RelationshipType.PendingIncoming]);
    expect(types(ada, bobP.id)).toEqual([RelationshipType.None, RelationshipType.PendingOutgoing]);
    const request = bob.getRelationshipHandle(adaP.id);
    expect(request.user()?.displayName()).toBe('Ada');
    expect(request.user()?.isProvisional()).toBe(true);
    expect(request.isSpamRequest()).toBe(false);
    // A request is not a friend: no group holds it, and the groups did not change.
    expect(groups(ada)).toEqual([[], [], []]);
    expect(adaGroups).toEqual([]);
    expect(bob.getRelationships().map((r) => r.id())).toEqual([adaP.id]);

    await bob.acceptGameFriendRequest(adaP.id);
    // Bob is connected (online, no rich presence): Ada sees him online elsewhere.
    await eventually(
      () => (groups(ada)[OnlineElsewhere]?.includes(bobP.id) ? true : undefined),
      'Bob online elsewhere for Ada',
    );
    expect(types(ada, bobP.id)).toEqual([RelationshipType.None, RelationshipType.Friend]);
    expect(bobCreated).toEqual([
      [adaP.id, false],
      [adaP.id, false],
    ]);
    // Friend (Offline: no presence yet), then online: two changes, each once.
    expect(adaGroups).toEqual([bobP.id, bobP.id]);
    expect(ada.getUser(bobP.id)?.status()).toBe(StatusType.Online);
    expect(ada.searchFriendsByUsername('bo').map((u) => u.id())).toEqual([bobP.id]);
    expect(ada.searchFriendsByUsername('zed')).toEqual([]);

    // Bob plays: his rich presence of this game moves him to OnlinePlayingGame, once.
    const activity = new Activity();
    activity.setState('In the lobby');
    await bob.updateRichPresence(activity);
    await eventually(
      () => (groups(ada)[OnlinePlayingGame]?.includes(bobP.id) ? true : undefined),
      'Bob playing for Ada',
    );
    expect(groups(ada)).toEqual([[bobP.id], [], []]);
    expect(adaGroups).toHaveLength(3);
    // A new state is a new dispatch, not a new group: no callback.
    activity.setState('In a match');
    await bob.updateRichPresence(activity);
    await eventually(
      () => (ada.getUser(bobP.id)?.gameActivity()?.state() === 'In a match' ? true : undefined),
      'the new state',
    );
    expect(adaGroups).toHaveLength(3);

    bob.clearRichPresence();
    await eventually(
      () => (groups(ada)[OnlineElsewhere]?.includes(bobP.id) ? true : undefined),
      'Bob back elsewhere',
    );
    expect(adaGroups).toHaveLength(4);

    bob.disconnect();
    await eventually(
      () => (groups(ada)[Offline]?.includes(bobP.id) ? true : undefined),
      'Bob offline',
    );
    expect(adaGroups).toHaveLength(5);
    expect(ada.getUser(bobP.id)?.status()).toBe(StatusType.Offline);
  });

  it('Discord and game friends of one pair: each scope on its own, then both removed', async () => {
    const adaP = await fullPlayer(world(), 'ada');
    const bobP = await fullPlayer(world(), 'bob');
    const ada = await world().readyClient(adaP);
    const bob = await world().readyClient(bobP);
    const adaDeleted: [string, boolean][] = [];
    ada.setRelationshipDeletedCallback((userId, isDiscord) => adaDeleted.push([userId, isDiscord]));

    await ada.sendDiscordFriendRequest(bobP.user.username);
    await eventually(
      () => (types(bob, adaP.id)[0] === RelationshipType.PendingIncoming ? true : undefined),
      'the Discord request',
    );
    // A new account sharing no guild with Bob: the platform flags the request.
    expect(bob.getRelationshipHandle(adaP.id).isSpamRequest()).toBe(true);
    expect(bob.getRelationshipHandle(adaP.id).user()?.isProvisional()).toBe(false);
    await bob.acceptDiscordFriendRequest(adaP.id);
    await eventually(
      () => (types(ada, bobP.id)[0] === RelationshipType.Friend ? true : undefined),
      'Discord friends',
    );
    expect(types(ada, bobP.id)).toEqual([RelationshipType.Friend, RelationshipType.None]);
    expect(bob.getRelationshipHandle(adaP.id).isSpamRequest()).toBe(false);

    // A game friendship beside it, by id.
    await bob.sendGameFriendRequestById(adaP.id);
    await eventually(
      () => (types(ada, bobP.id)[1] === RelationshipType.PendingIncoming ? true : undefined),
      'the game request',
    );
    await ada.acceptGameFriendRequest(bobP.id);
    await eventually(
      () => (types(bob, adaP.id)[1] === RelationshipType.Friend ? true : undefined),
      'game friends',
    );
    expect(types(bob, adaP.id)).toEqual([RelationshipType.Friend, RelationshipType.Friend]);

    await ada.removeGameFriend(bobP.id);
    await eventually(
      () => (types(bob, adaP.id)[1] === RelationshipType.None ? true : undefined),
      'game friendship gone',
    );
    expect(types(ada, bobP.id)).toEqual([RelationshipType.Friend, RelationshipType.None]);
    expect(adaDeleted).toEqual([[bobP.id, false]]);
    // Still a friend (platform-wide friends are friends in every game): in a group.
    expect(groups(ada).flat()).toEqual([bobP.id]);

    await ada.removeDiscordAndGameFriend(bobP.id);
    await eventually(
      () => (bob.getRelationships().length === 0 ? true : undefined),
      'no relationship',
    );
    expect(adaDeleted).toEqual([
      [bobP.id, false],
      [bobP.id, true],
    ]);
    expect(groups(ada)).toEqual([[], [], []]);
  });

  it('an activity of no game (a person’s own client) is online elsewhere, not playing', async () => {
    const adaP = await fullPlayer(world(), 'ada');
    const bobP = await fullPlayer(world(), 'bob');
    const ada = await world().readyClient(adaP);
    const bob = await world().readyClient(bobP);
    await ada.sendDiscordFriendRequestById(bobP.id);
    await eventually(
      () => (types(bob, adaP.id)[0] === RelationshipType.PendingIncoming ? true : undefined),
      'request',
    );
    await bob.acceptDiscordFriendRequest(adaP.id);
    await eventually(
      () => (groups(ada)[OnlineElsewhere]?.includes(bobP.id) ? true : undefined),
      'Bob online',
    );
    bob.disconnect();
    await eventually(
      () => (groups(ada)[Offline]?.includes(bobP.id) ? true : undefined),
      'Bob offline',
    );
    // Bob's web client: a session token, whose activities name no application. Its one op 3
    // (after READY) carries the activity set before connecting.
    const web = await world().client(null);
    await web.updateToken(AuthorizationTokenType.User, bobP.session);
    const activity = new Activity();
    activity.setName('Some other game');
    await web.updateRichPresence(activity);
    await connectReady(web);
    expect(web.getCurrentUserV2()?.gameActivity()).toBeNull();
    await eventually(
      () => (ada.getUser(bobP.id)?.status() === StatusType.Online ? true : undefined),
      'Bob online again',
    );
    expect(ada.getUser(bobP.id)?.gameActivity()).toBeNull();
    expect(groups(ada)).toEqual([[], [bobP.id], []]);
  });

  it('rejects and cancels requests in both scopes', async () => {
    const adaP = await fullPlayer(world(), 'ada');
    const bobP = await fullPlayer(world(), 'bob');
    const ada = await world().readyClient(adaP);
    const bob = await world().readyClient(bobP);

    await ada.sendDiscordFriendRequestById(bobP.id);
    await ada.sendGameFriendRequest(bobP.user.username);
    await eventually(
      () =>
        types(bob, adaP.id).join() ===
        [RelationshipType.PendingIncoming, RelationshipType.PendingIncoming].join()
          ? true
          : undefined,
      'both requests',
    );
    await bob.rejectDiscordFriendRequest(adaP.id);
    await ada.cancelGameFriendRequest(bobP.id);
    await eventually(
      () =>
        ada.getRelationships().length === 0 && bob.getRelationships().length === 0
          ? true
          : undefined,
      'both gone',
    );
    // Nothing pending any more: accepting is refused before any request.
    const error = await sdkError(bob.acceptGameFriendRequest(adaP.id));
    expect(error.type).toBe(ErrorType.ValidationError);
    expect(error.message).toMatch(/no friend request from/);
    await ada.sendGameFriendRequestById(bobP.id);
    await eventually(
      () => (types(bob, adaP.id)[1] === RelationshipType.PendingIncoming ? true : undefined),
      'a new request',
    );
    await bob.rejectGameFriendRequest(adaP.id);
    // The legacy tag form: discriminator "0".
    await ada.sendDiscordFriendRequest(`${bobP.user.username}#0`);
    await eventually(
      () => (types(ada, bobP.id)[0] === RelationshipType.PendingOutgoing ? true : undefined),
      'outgoing',
    );
    await ada.cancelDiscordFriendRequest(bobP.id);
    await eventually(() => (bob.getRelationships().length === 0 ? true : undefined), 'cancelled');
  });

  it('blocks and unblocks, platform-wide for people and in the game for provisional players', async () => {
    const adaP = await world().player('Ada');
    const bobP = await world().player('Bob');
    const ada = await world().readyClient(adaP);
    const bob = await world().readyClient(bobP);
    await ada.sendGameFriendRequestById(bobP.id);
    await eventually(
      () => (types(bob, adaP.id)[1] === RelationshipType.PendingIncoming ? true : undefined),
      'request',
    );
    await bob.acceptGameFriendRequest(adaP.id);
    await eventually(
      () => (ada.getUser(bobP.id)?.status() === StatusType.Online ? true : undefined),
      'friends, online',
    );
    const bobDeleted: string[] = [];
    bob.setRelationshipDeletedCallback((userId) => bobDeleted.push(userId));

    await ada.blockUser(bobP.id);
    await eventually(
      () => (types(ada, bobP.id)[1] === RelationshipType.Blocked ? true : undefined),
      'blocked',
    );
    expect(ada.getUser(bobP.id)?.status()).toBe(StatusType.Blocked);
    expect(groups(ada)).toEqual([[], [], []]);
    await eventually(() => (bobDeleted.length > 0 ? true : undefined), 'Bob loses Ada');
    expect(bob.getRelationships()).toEqual([]);
    // Bob no longer sees Ada's presence.
    expect(bob.getUser(adaP.id)?.status()).toBe(StatusType.Offline);
    // A blocked user's request is refused by the platform.
    expect(shape(await sdkError(bob.sendGameFriendRequestById(adaP.id)))).toEqual({
      type: ErrorType.HTTPError,
      status: 400,
      code: 80001,
    });

    await ada.unblockUser(bobP.id);
    await eventually(() => (ada.getRelationships().length === 0 ? true : undefined), 'unblocked');
    expect(ada.getUser(bobP.id)?.status()).toBe(StatusType.Offline);
    expect((await sdkError(ada.unblockUser(bobP.id))).type).toBe(ErrorType.ValidationError);

    // People block platform-wide.
    const catP = await fullPlayer(world(), 'cat');
    const danP = await fullPlayer(world(), 'dan');
    const cat = await world().readyClient(catP);
    await world().readyClient(danP);
    await cat.blockUser(danP.id);
    await eventually(
      () => (types(cat, danP.id)[0] === RelationshipType.Blocked ? true : undefined),
      'Discord block',
    );
    await cat.unblockUser(danP.id);
    await eventually(() => (cat.getRelationships().length === 0 ? true : undefined), 'lifted');
  });

  it('fails with the platform’s errors and checks arguments first', async () => {
    const adaP = await world().player('Ada');
    const bobP = await world().player('Bob');
    const ada = await world().readyClient(adaP);
    await world().readyClient(bobP);

    // No such user.
    expect(shape(await sdkError(ada.sendGameFriendRequestById('123456789012345678')))).toEqual({
      type: ErrorType.HTTPError,
      status: 404,
      code: 10013,
    });
    expect(shape(await sdkError(ada.sendGameFriendRequest('nobody_here')))).toEqual({
      type: ErrorType.HTTPError,
      status: 400,
      code: 80004,
    });
    // Oneself.
    expect((await sdkError(ada.sendGameFriendRequestById(adaP.id))).code).toBe(80003);
    // A provisional account has no platform-wide relationships.
    expect(shape(await sdkError(ada.sendDiscordFriendRequestById(bobP.id)))).toEqual({
      type: ErrorType.HTTPError,
      status: 403,
      code: 50001,
    });
    // Arguments are checked before any request.
    expect((await sdkError(ada.sendGameFriendRequestById('bob'))).type).toBe(
      ErrorType.ValidationError,
    );
    expect((await sdkError(ada.sendDiscordFriendRequest('  '))).type).toBe(
      ErrorType.ValidationError,
    );
    expect((await sdkError(ada.sendGameFriendRequest('x'.repeat(33)))).type).toBe(
      ErrorType.ValidationError,
    );
    expect((await sdkError(ada.removeGameFriend(bobP.id))).type).toBe(ErrorType.ValidationError);
    expect((await sdkError(ada.removeDiscordAndGameFriend(bobP.id))).type).toBe(
      ErrorType.ValidationError,
    );
    expect((await sdkError(ada.cancelDiscordFriendRequest(bobP.id))).type).toBe(
      ErrorType.ValidationError,
    );
    expect(thrown(() => ada.getRelationshipsByGroup(7 as RelationshipGroupType)).type).toBe(
      ErrorType.ValidationError,
    );
    expect(thrown(() => ada.getRelationshipHandle('x')).type).toBe(ErrorType.ValidationError);
    // A handle of a stranger: no relationship either side.
    expect(types(ada, bobP.id)).toEqual([RelationshipType.None, RelationshipType.None]);
  });
});

describe('SDK relationships before connecting', () => {
  const world = useSdkWorld();

  it('holds no relationship and no group', async () => {
    const client = await world().client(await world().player('Ada'));
    expect(client.getRelationships()).toEqual([]);
    expect(groups(client)).toEqual([[], [], []]);
  });
});
