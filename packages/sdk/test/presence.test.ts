/**
 * Rich presence and activity invites through the SDK against a real server: what a friend's
 * client sees, party privacy changes, invites sent as DMs and accepted (with ACTIVITY_JOIN on the
 * player's other device), join requests answered with an invite, and the checks of Activity's
 * setters.
 */
import { describe, expect, it } from 'vitest';
import {
  Activity,
  ActivityActionTypes,
  ActivityAssets,
  ActivityButton,
  ActivityGamePlatforms,
  ActivityInvite,
  ActivityParty,
  ActivityPartyPrivacy,
  ActivitySecrets,
  ActivityTimestamps,
  ActivityTypes,
  ErrorType,
  StatusDisplayTypes,
  StatusType,
  type Client,
} from '../src/node.js';
import {
  connectReady,
  describeDrivers,
  eventually,
  useSdkWorld,
  type Player,
  type SdkWorld,
} from './support.js';
import { sdkError, shape, thrown } from './social-fixture.js';

/** Two ready players who are game friends. */
async function friends(world: SdkWorld) {
  const adaP = await world.player('Ada');
  const bobP = await world.player('Bob');
  const ada = await world.readyClient(adaP);
  const bob = await world.readyClient(bobP);
  await ada.sendGameFriendRequestById(bobP.id);
  await eventually(
    () => (bob.getRelationshipHandle(adaP.id).gameRelationshipType() === 3 ? true : undefined),
    'the request',
  );
  await bob.acceptGameFriendRequest(adaP.id);
  await eventually(
    () =>
      ada.getUser(bobP.id)?.status() === StatusType.Online &&
      bob.getUser(adaP.id)?.status() === StatusType.Online
        ? true
        : undefined,
    'friends online',
  );
  return { adaP, bobP, ada, bob };
}

/** A party activity with a join secret. */
function partyActivity(partyId: string, privacy: ActivityPartyPrivacy): Activity {
  const activity = new Activity();
  activity.setName('Tiny Tanks');
  activity.setState('In a party');
  const party = new ActivityParty();
  party.setId(partyId);
  party.setCurrentSize(1);
  party.setMaxSize(4);
  party.setPrivacy(privacy);
  activity.setParty(party);
  const secrets = new ActivitySecrets();
  secrets.setJoin(`secret-of-${partyId}`);
  activity.setSecrets(secrets);
  return activity;
}

const seen = (client: Client, player: Player) => client.getUser(player.id)?.gameActivity() ?? null;

describeDrivers('SDK rich presence and invites ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('a friend’s client sees the rich presence, party privacy changes and the status', async () => {
    const { adaP, bobP, ada, bob } = await friends(world());
    const bobUpdated: string[] = [];
    bob.setUserUpdatedCallback((userId) => bobUpdated.push(userId));

    const activity = partyActivity('party-1', ActivityPartyPrivacy.Private);
    activity.setType(ActivityTypes.Competing);
    activity.setDetails('Ranked, desert map');
    activity.setDetailsUrl('https://tanks.example/match/1');
    activity.setStatusDisplayType(StatusDisplayTypes.Details);
    const assets = new ActivityAssets();
    assets.setLargeImage('desert');
    assets.setLargeText('Desert');
    assets.setInviteCoverImage('cover');
    activity.setAssets(assets);
    const timestamps = new ActivityTimestamps();
    timestamps.setStart(1764000000000);
    activity.setTimestamps(timestamps);
    const button = new ActivityButton();
    button.setLabel('Watch');
    button.setUrl('https://tanks.example/watch/1');
    activity.addButton(button);
    await ada.updateRichPresence(activity);

    const shown = await eventually(() => seen(bob, adaP) ?? undefined, 'Ada’s activity');
    expect(shown.name()).toBe('Tiny Tanks');
    expect(shown.type()).toBe(ActivityTypes.Competing);
    expect(shown.state()).toBe('In a party');
    expect(shown.details()).toBe('Ranked, desert map');
    expect(shown.detailsUrl()).toBe('https://tanks.example/match/1');
    expect(shown.statusDisplayType()).toBe(StatusDisplayTypes.Details);
    expect(shown.applicationId()).toBe(world().dev.applicationId);
    expect(shown.assets()?.largeImage()).toBe('desert');
    expect(shown.assets()?.inviteCoverImage()).toBe('cover');
    expect(shown.timestamps()?.start()).toBe(1764000000000);
    expect(shown.party()?.id()).toBe('party-1');
    expect([shown.party()?.currentSize(), shown.party()?.maxSize()]).toEqual([1, 4]);
    expect(shown.party()?.privacy()).toBe(ActivityPartyPrivacy.Private);
    // Nobody else sees the secrets; buttons arrive as labels with their URLs.
    expect(shown.secrets()).toBeNull();
    expect(shown.getButtons().map((b) => [b.label(), b.url()])).toEqual([
      ['Watch', 'https://tanks.example/watch/1'],
    ]);
    expect(bobUpdated).toContain(adaP.id);
    // The player's own view of themself.
    expect(ada.getCurrentUserV2()?.gameActivity()?.party()?.id()).toBe('party-1');

    // The party goes public and grows: a new op 3, which the friend sees.
    const party = activity.party();
    party?.setPrivacy(ActivityPartyPrivacy.Public);
    party?.setCurrentSize(2);
    await ada.updateRichPresence(activity);
    await eventually(
      () =>
        seen(bob, adaP)?.party()?.privacy() === ActivityPartyPrivacy.Public ? true : undefined,
      'the public party',
    );
    expect(seen(bob, adaP)?.party()?.currentSize()).toBe(2);

    await bob.setOnlineStatus(StatusType.Idle);
    await eventually(
      () => (ada.getUser(bobP.id)?.status() === StatusType.Idle ? true : undefined),
      'Bob idle',
    );
    await bob.setOnlineStatus(StatusType.Invisible);
    await eventually(
      () => (ada.getUser(bobP.id)?.status() === StatusType.Offline ? true : undefined),
      'Bob invisible (offline to others)',
    );
    expect(bob.getCurrentUserV2()?.status()).toBe(StatusType.Invisible);
    expect((await sdkError(bob.setOnlineStatus(StatusType.Blocked))).type).toBe(
      ErrorType.ValidationError,
    );

    ada.clearRichPresence();
    await eventually(() => (seen(bob, adaP) === null ? true : undefined), 'cleared');
    expect(bob.getUser(adaP.id)?.status()).toBe(StatusType.Online);
  });

  it('an invite: sent as a DM, accepted with the join secret, ACTIVITY_JOIN on the other device', async () => {
    const { adaP, bobP, ada, bob } = await friends(world());
    // Bob's game on a second device: the same account, another session.
    const bob2 = await world().readyClient(bobP);
    const created: ActivityInvite[] = [];
    const created2: ActivityInvite[] = [];
    const updated: ActivityInvite[] = [];
    const joins: string[] = [];
    const joins2: [string, string][] = [];
    bob.setActivityInviteCreatedCallback((invite) => created.push(invite));
    bob.setActivityInviteUpdatedCallback((invite) => updated.push(invite));
    bob.setActivityJoinCallback((secret) => joins.push(secret));
    bob2.setActivityInviteCreatedCallback((invite) => created2.push(invite));
    bob2.setActivityJoinWithApplicationCallback((applicationId, secret) =>
      joins2.push([applicationId, secret]),
    );

    // Without a party there is nothing to invite to.
    expect((await sdkError(ada.sendActivityInvite(bobP.id, 'come'))).type).toBe(
      ErrorType.ValidationError,
    );
    await ada.updateRichPresence(partyActivity('party-7', ActivityPartyPrivacy.Private));
    await eventually(() => seen(bob, adaP) ?? undefined, 'the party');
    await ada.sendActivityInvite(bobP.id, 'Join my tank');
    const invite = await eventually(() => created[0], 'the invite');
    expect(invite.senderId()).toBe(adaP.id);
    expect(invite.partyId()).toBe('party-7');
    expect(invite.applicationId()).toBe(world().dev.applicationId);
    expect(invite.channelId()).not.toBe('');
    expect(invite.messageId()).not.toBe('');
    expect(invite.isValid()).toBe(true);
    // Bob's other device got the DM too.
    await eventually(() => created2[0], 'the invite on the other device');
    created2.length = 0;

    expect(await bob.acceptActivityInvite(invite)).toBe('secret-of-party-7');
    await eventually(() => joins[0], 'the join on this device');
    expect(joins).toEqual(['secret-of-party-7']);
    // The other device hears of the accepted invite and joins too.
    const elsewhere = await eventually(() => created2[0], 'the invite accepted elsewhere');
    expect([elsewhere.senderId(), elsewhere.partyId(), elsewhere.messageId()]).toEqual([
      adaP.id,
      'party-7',
      invite.messageId(),
    ]);
    await eventually(() => joins2[0], 'the join on the other device');
    expect(joins2).toEqual([[world().dev.applicationId, 'secret-of-party-7']]);
    // This device made the accept: no second "created".
    expect(created).toHaveLength(1);

    // Ada leaves the party: the invite is no longer valid.
    await ada.updateRichPresence(partyActivity('party-8', ActivityPartyPrivacy.Private));
    const stale = await eventually(() => updated[0], 'the invite update');
    expect(stale.messageId()).toBe(invite.messageId());
    expect(stale.isValid()).toBe(false);
    // The platform refuses the old party: Ada's activity no longer holds it.
    expect(shape(await sdkError(bob.acceptActivityInvite(invite)))).toEqual({
      type: ErrorType.HTTPError,
      status: 400,
      code: 50039,
    });
  });

  it('a join request: Bob asks, Ada’s game gets a JoinRequest invite and replies, Bob joins', async () => {
    const { adaP, bobP, ada, bob } = await friends(world());
    const adaInvites: ActivityInvite[] = [];
    const bobInvites: ActivityInvite[] = [];
    ada.setActivityInviteCreatedCallback((invite) => adaInvites.push(invite));
    bob.setActivityInviteCreatedCallback((invite) => bobInvites.push(invite));
    // No party seen yet: nothing to ask to join.
    expect((await sdkError(bob.sendActivityJoinRequest(adaP.id))).type).toBe(
      ErrorType.ValidationError,
    );
    await ada.updateRichPresence(partyActivity('party-9', ActivityPartyPrivacy.Private));
    await eventually(() => seen(bob, adaP) ?? undefined, 'the party');
    await bob.sendActivityJoinRequest(adaP.id);
    const request = await eventually(() => adaInvites[0], 'the join request');
    expect(request.type()).toBe(ActivityActionTypes.JoinRequest);
    expect(request.senderId()).toBe(bobP.id);
    expect(request.partyId()).toBe('party-9');
    // Only a JoinRequest is answered this way.
    expect((await sdkError(ada.sendActivityJoinRequestReply(new ActivityInvite()))).type).toBe(
      ErrorType.ValidationError,
    );
    await ada.sendActivityJoinRequestReply(request);
    const invite = await eventually(() => bobInvites[0], 'the invite');
    expect(invite.type()).toBe(ActivityActionTypes.Join);
    expect(await bob.acceptActivityInvite(invite)).toBe('secret-of-party-9');
  });

  it('supported platforms, and a parent application only as the operator linked it', async () => {
    const { adaP, ada, bob } = await friends(world());
    const parent = await world().server.app.services.applications.create(world().dev.userId, {
      name: 'publisher hub',
    });
    const parentId = parent.application.id;
    const activity = partyActivity('party-p', ActivityPartyPrivacy.Public);
    activity.setSupportedPlatforms(ActivityGamePlatforms.Desktop | ActivityGamePlatforms.Android);
    activity.setParentApplicationId(parentId);
    await ada.updateRichPresence(activity);
    const shown = await eventually(
      () => (seen(bob, adaP)?.party()?.id() === 'party-p' ? seen(bob, adaP) : undefined),
      'Ada’s activity',
    );
    expect(shown?.supportedPlatforms()).toBe(
      ActivityGamePlatforms.Desktop | ActivityGamePlatforms.Android,
    );
    // No approved link from that parent: the platform drops it.
    expect(shown?.parentApplicationId()).toBeNull();

    await world().server.app.services.provisional.linkChild(parentId, world().dev.applicationId);
    activity.party()?.setId('party-q');
    await ada.updateRichPresence(activity);
    const linked = await eventually(
      () => (seen(bob, adaP)?.party()?.id() === 'party-q' ? seen(bob, adaP) : undefined),
      'the linked activity',
    );
    expect(linked?.parentApplicationId()).toBe(parentId);
    expect(new Activity().supportedPlatforms()).toBe(ActivityGamePlatforms.Desktop);
    expect(
      thrown(() => {
        activity.setSupportedPlatforms(0);
      }),
    ).toMatchObject({
      type: ErrorType.ValidationError,
    });
  });

  it('a stranger joins a public party only', async () => {
    const adaP = await world().player('Ada');
    const catP = await world().player('Cat');
    const ada = await world().readyClient(adaP);
    const cat = await world().readyClient(catP);
    await ada.updateRichPresence(partyActivity('party-9', ActivityPartyPrivacy.Private));
    // An invite the game learnt of elsewhere (a lobby, a server message).
    const invite = new ActivityInvite();
    invite.setSenderId(adaP.id);
    invite.setPartyId('party-9');
    // The op 3 and the accept go different ways: retry until the server holds the presence.
    const refused = await eventually(async () => {
      const error = await sdkError(cat.acceptActivityInvite(invite));
      return error.code === 50039 ? undefined : error;
    }, 'the private party refused');
    expect(shape(refused)).toEqual({ type: ErrorType.HTTPError, status: 403, code: 50001 });

    await ada.updateRichPresence(partyActivity('party-9', ActivityPartyPrivacy.Public));
    const secret = await eventually(
      () => cat.acceptActivityInvite(invite).catch(() => undefined),
      'the public party joined',
    );
    expect(secret).toBe('secret-of-party-9');
  });
});

describe('SDK rich presence without a second player', () => {
  const world = useSdkWorld();

  it('names an activity after the application when the game leaves the name empty', async () => {
    const adaP = await world().player('Ada');
    const ada = await world().readyClient(adaP);
    const activity = new Activity();
    activity.setState('Exploring');
    await ada.updateRichPresence(activity);
    expect(ada.getCurrentUserV2()?.gameActivity()?.name()).toBe('dev app');
    // The gateway took it (an invalid op 3 closes the connection with 4001).
    const { body } = await world().api<{ application: { name: string } }>('GET', '/oauth2/@me', {
      auth: `Bearer ${adaP.token}`,
    });
    expect(body.application.name).toBe('dev app');
    expect(ada.getStatus()).toBe(3);
  });

  it('keeps the rich presence set before connecting and publishes it at READY', async () => {
    const { adaP, ada, bob } = await friends(world());
    ada.disconnect();
    await eventually(
      () => (bob.getUser(adaP.id)?.status() === StatusType.Offline ? true : undefined),
      'Ada offline',
    );
    const later = await world().client(adaP);
    await later.updateRichPresence(partyActivity('early', ActivityPartyPrivacy.Public));
    expect(seen(bob, adaP)).toBeNull();
    await connectReady(later);
    const shown = await eventually(() => seen(bob, adaP) ?? undefined, 'the kept activity');
    expect(shown.party()?.id()).toBe('early');
    expect(bob.getUser(adaP.id)?.status()).toBe(StatusType.Online);
  });

  it('checks the platform’s limits in the setters', () => {
    const activity = new Activity();
    const failures = [
      () => {
        activity.setName('x'.repeat(129));
      },
      () => {
        activity.setType(ActivityTypes.HangStatus);
      },
      () => {
        activity.setType(9 as ActivityTypes);
      },
      () => {
        activity.setState('s'.repeat(129));
      },
      () => {
        activity.setDetailsUrl('ftp://tanks.example');
      },
      () => {
        activity.setStateUrl('not a url');
      },
      () => {
        activity.setStatusDisplayType(3 as StatusDisplayTypes);
      },
      () => {
        new ActivityAssets().setLargeUrl(`https://x.example/${'a'.repeat(250)}`);
      },
      () => {
        new ActivityParty().setCurrentSize(-1);
      },
      () => {
        new ActivityParty().setPrivacy(2 as ActivityPartyPrivacy);
      },
      () => {
        new ActivitySecrets().setJoin('j'.repeat(129));
      },
      () => {
        new ActivityButton().setLabel('b'.repeat(33));
      },
      () => {
        new ActivityButton().setLabel('');
      },
      () => {
        new ActivityTimestamps().setStart(1.5);
      },
      () => {
        activity.addButton(new ActivityButton());
      },
      () => {
        new ActivityInvite().setSenderId('someone');
      },
    ];
    for (const failure of failures) expect(thrown(failure).type).toBe(ErrorType.ValidationError);
    const button = new ActivityButton();
    button.setLabel('Go');
    button.setUrl('https://tanks.example');
    activity.addButton(button);
    activity.addButton(button);
    expect(
      thrown(() => {
        activity.addButton(button);
      }).message,
    ).toMatch(/at most 2/);
    const copy = new Activity();
    expect(copy.equals(activity)).toBe(false);
    copy.addButton(button);
    copy.addButton(button);
    expect(copy.equals(activity)).toBe(true);
  });

  it('checks a party’s sizes when publishing, before anything is sent', async () => {
    const ada = await world().readyClient(await world().player('Ada'));
    const activity = new Activity();
    activity.setName('Tiny Tanks');
    const party = new ActivityParty();
    party.setId('p');
    party.setCurrentSize(5);
    party.setMaxSize(4);
    activity.setParty(party);
    expect((await sdkError(ada.updateRichPresence(activity))).type).toBe(ErrorType.ValidationError);
    expect(ada.getStatus()).toBe(3);
  });
});
