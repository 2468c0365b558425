/**
 * Users through the SDK against a real server: the current user (and the deprecated
 * getCurrentUser's one warning), getUser, UserHandle, the user updated callback, and user
 * application profiles with their cached NoLock read.
 */
import { describe, expect, it } from 'vitest';
import {
  AvatarType,
  ErrorType,
  ExternalIdentityProviderType,
  LoggingSeverity,
  StatusType,
} from '../src/node.js';
import { describeDrivers, eventually, useSdkWorld } from './support.js';
import { fullPlayer, sdkError, shape, thrown } from './social-fixture.js';

describeDrivers('SDK users ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('the current user: null before READY, a live handle after', async () => {
    const adaP = await world().player('Ada');
    const ada = await world().client(adaP);
    const warnings: string[] = [];
    ada.addLogCallback((line, severity) => {
      if (severity === LoggingSeverity.Warning) warnings.push(line);
    }, LoggingSeverity.Warning);
    expect(ada.getCurrentUserV2()).toBeNull();
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- its deprecation is tested
    expect(thrown(() => ada.getCurrentUser()).type).toBe(ErrorType.ClientNotReady);

    const ready = await world().readyClient(adaP);
    const me = ready.getCurrentUserV2();
    expect(me?.id()).toBe(adaP.id);
    expect(me?.username()).toBe(`provisional_${adaP.id}`);
    expect(me?.globalName()).toBe('Ada');
    expect(me?.displayName()).toBe('Ada');
    expect(me?.isProvisional()).toBe(true);
    expect(me?.avatar()).toBeNull();
    expect(me?.avatarUrl(AvatarType.Gif, AvatarType.Webp)).toBeNull();
    // The SDK shows the player online once connected.
    expect(me?.status()).toBe(StatusType.Online);
    expect(me?.relationship().discordRelationshipType()).toBe(0);

    // Deprecated: works, and says so once.
    const readyWarnings: string[] = [];
    ready.addLogCallback((line) => readyWarnings.push(line), LoggingSeverity.Warning);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- its deprecation is tested
    expect(ready.getCurrentUser().id()).toBe(adaP.id);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- its deprecation is tested
    expect(ready.getCurrentUser().id()).toBe(adaP.id);
    expect(readyWarnings.filter((line) => line.includes('getCurrentUserV2'))).toHaveLength(1);
    expect(warnings.filter((line) => line.includes('getCurrentUserV2'))).toHaveLength(1);
  });

  it('getUser answers known users; the user updated callback follows friends', async () => {
    const adaP = await world().player('Ada');
    const bobP = await world().player('Bob');
    const ada = await world().readyClient(adaP);
    const bob = await world().readyClient(bobP);
    expect(ada.getUser(bobP.id)).toBeNull();
    expect(thrown(() => ada.getUser('bob')).type).toBe(ErrorType.ValidationError);
    const updated: string[] = [];
    ada.setUserUpdatedCallback((userId) => updated.push(userId));

    await bob.sendGameFriendRequestById(adaP.id);
    const handle = await eventually(() => ada.getUser(bobP.id) ?? undefined, 'Bob known');
    expect(handle.displayName()).toBe('Bob');
    expect(handle.status()).toBe(StatusType.Offline);
    await ada.acceptGameFriendRequest(bobP.id);
    await eventually(
      () => (handle.status() === StatusType.Online ? true : undefined),
      'Bob online (the handle reads live)',
    );
    expect(updated).toContain(bobP.id);
    const before = updated.length;
    await bob.setOnlineStatus(StatusType.Dnd);
    await eventually(() => (handle.status() === StatusType.Dnd ? true : undefined), 'Bob busy');
    expect(updated.length).toBe(before + 1);
    expect(handle.relationship().gameRelationshipType()).toBe(1);
    expect(handle.relationship().user()?.id()).toBe(bobP.id);
  });

  it('user application profiles: read from the platform, then without a request', async () => {
    const adaP = await world().player('Ada');
    const bobP = await world().player('Bob');
    const ada = await world().readyClient(adaP);
    const written = await world().api(
      'PATCH',
      `/applications/${world().dev.applicationId}/users/${bobP.id}/identities/tank-77/profile`,
      {
        auth: `Bot ${world().dev.botToken}`,
        json: { username: 'TankBob', metadata: { region: 'eu' } },
      },
    );
    expect(written.status).toBe(201);

    expect(ada.getUserApplicationProfilesNoLock(bobP.id)).toEqual([]);
    const profiles = await ada.getUserApplicationProfiles(bobP.id);
    const summary = (list: typeof profiles) =>
      list.map((p) => [
        p.providerType(),
        p.providerIssuedUserId(),
        p.username(),
        p.metadata(),
        p.applicationId(),
      ]);
    expect(summary(profiles)).toEqual([
      [ExternalIdentityProviderType.DiscordBot, 'player-Bob', 'Bob', '', world().dev.applicationId],
      [
        ExternalIdentityProviderType.None,
        'tank-77',
        'TankBob',
        '{"region":"eu"}',
        world().dev.applicationId,
      ],
    ]);
    expect(profiles[0]?.providerId()).toBeNull();
    expect(profiles[1]?.avatarHash()).toBe('');
    // NoLock answers what was read, with no request (the bot's change is not seen until then).
    await world().api(
      'PATCH',
      `/applications/${world().dev.applicationId}/users/${bobP.id}/identities/tank-77/profile`,
      { auth: `Bot ${world().dev.botToken}`, json: { username: 'TankBobby' } },
    );
    expect(summary(ada.getUserApplicationProfilesNoLock(bobP.id))).toEqual(summary(profiles));
    await ada.getUserApplicationProfiles(bobP.id);
    expect(ada.getUserApplicationProfilesNoLock(bobP.id)[1]?.username()).toBe('TankBobby');

    // Unknown user: the platform's error; a bad id never leaves the client.
    expect(shape(await sdkError(ada.getUserApplicationProfiles('123456789012345678')))).toEqual({
      type: ErrorType.HTTPError,
      status: 404,
      code: 10013,
    });
    expect((await sdkError(ada.getUserApplicationProfiles('x'))).type).toBe(
      ErrorType.ValidationError,
    );
    expect(thrown(() => ada.getUserApplicationProfilesNoLock('')).type).toBe(
      ErrorType.ValidationError,
    );
  });
});

describe('SDK users: a full account', () => {
  const world = useSdkWorld();

  it('is not provisional; its avatar has a CDN URL; USER_UPDATE reaches the handle', async () => {
    const adaP = await fullPlayer(world(), 'ada');
    const ada = await world().readyClient(adaP);
    const updated: string[] = [];
    ada.setUserUpdatedCallback((userId) => updated.push(userId));
    const me = ada.getCurrentUserV2();
    expect(me?.isProvisional()).toBe(false);
    expect(me?.username()).toBe(adaP.user.username);
    expect(me?.globalName()).toBeNull();
    expect(me?.displayName()).toBe(adaP.user.username);
    const changed = await world().api('PATCH', '/users/@me', {
      auth: adaP.session,
      json: { global_name: 'Ada L.', avatar: `data:image/png;base64,${PNG}` },
    });
    expect(changed.status).toBe(200);
    await eventually(() => (me?.avatar() === null ? undefined : true), 'the new avatar');
    expect(me?.displayName()).toBe('Ada L.');
    expect(updated).toEqual([adaP.id]);
    const hash = me?.avatar() ?? '';
    const url = me?.avatarUrl(AvatarType.Gif, AvatarType.Webp);
    expect(url).toBe(`${world().server.baseUrl}/avatars/${adaP.id}/${hash}.webp`);
    const image = await fetch(url ?? '');
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/webp']);
    expect(thrown(() => me?.avatarUrl(9 as AvatarType, 9 as AvatarType)).type).toBe(
      ErrorType.ValidationError,
    );
  });
});

/** A 1×1 PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
