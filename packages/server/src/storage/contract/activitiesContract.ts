import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import type { ActivityConfigRecord, ActivityInstanceRecord } from '../types/activities.js';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

/** The activity repository (configs, instances, participants), on every driver. */
export function describeActivitiesContract(makeStorage: () => Promise<StorageFixture>): void {
  let fixture: StorageFixture;
  let storage: Storage;
  const clock = manualClock(Date.UTC(2026, 10, 24, 20));
  const nextId = createSnowflakeGenerator({ clock, workerId: 1 });
  let appId: string;
  let otherAppId: string;
  let ann: string;
  let bob: string;
  let guildId: string;
  let voiceId: string;

  const newApp = async (name: string, ownerId: string) =>
    (
      await storage.applications.create({
        id: nextId(),
        name,
        ownerId,
        botUserId: null,
        verifyKey: 'ab'.repeat(32),
        signingKey: 'key',
        clientSecretHash: 'hash',
        flags: 0n,
        redirectUris: [],
        createdAt: clock.now(),
      })
    ).id;
  const instance = (
    extra: Partial<ActivityInstanceRecord> = {},
  ): Omit<ActivityInstanceRecord, 'endedAt'> => {
    const launchId = nextId();
    return {
      id: `i-${launchId}-gc-${guildId}-${voiceId}`,
      applicationId: appId,
      launchId,
      locationKind: 'gc',
      channelId: voiceId,
      guildId,
      launchedBy: ann,
      createdAt: clock.now(),
      ...extra,
    };
  };

  beforeEach(async () => {
    fixture = await makeStorage();
    storage = fixture.storage;
    ann = (await storage.users.create({ id: nextId(), username: 'ann', createdAt: clock.now() }))
      .id;
    bob = (await storage.users.create({ id: nextId(), username: 'bob', createdAt: clock.now() }))
      .id;
    appId = await newApp('game', ann);
    otherAppId = await newApp('other', ann);
    guildId = (
      await storage.guilds.create({
        id: nextId(),
        name: 'g',
        icon: null,
        description: null,
        ownerId: ann,
        features: [],
        preferredLocale: 'en-US',
        createdAt: clock.now(),
      })
    ).id;
    voiceId = (
      await storage.channels.create({
        id: nextId(),
        guildId,
        type: 2,
        name: 'voice',
        position: 0,
        parentId: null,
        topic: null,
        nsfw: false,
        rateLimitPerUser: 0,
        bitrate: 64000,
        userLimit: null,
        flags: 0,
        lastMessageId: null,
        createdAt: clock.now(),
      })
    ).id;
  });
  afterEach(() => fixture.dispose());

  it('saves, replaces and reads a config; url mappings are null without one', async () => {
    expect(await storage.activities.urlMappings(appId)).toBeNull();
    expect(await storage.activities.findConfig(appId)).toBeNull();
    const config: ActivityConfigRecord = {
      applicationId: appId,
      urlMappings: [
        { prefix: '/', target: '127.0.0.1:5173' },
        { prefix: '/api', target: 'api.example.test/v1' },
      ],
      supportedPlatforms: ['web', 'android'],
      defaultOrientationLockState: 2,
      tabletDefaultOrientationLockState: null,
      requiresAgeGate: true,
      updatedAt: clock.now(),
    };
    await storage.activities.saveConfig(config);
    expect(await storage.activities.findConfig(appId)).toEqual(config);
    expect(await storage.activities.urlMappings(appId)).toEqual(config.urlMappings);
    expect(await storage.activities.urlMappings(otherAppId)).toBeNull();

    const replaced = { ...config, urlMappings: [], requiresAgeGate: false, updatedAt: 5 };
    await storage.activities.saveConfig(replaced);
    expect(await storage.activities.findConfig(appId)).toEqual(replaced);
    expect(await storage.activities.urlMappings(appId)).toEqual([]);
  });

  it('keeps one live instance per application and channel', async () => {
    const first = instance();
    expect(await storage.activities.createInstance(first)).toBe(true);
    expect(await storage.activities.createInstance(instance())).toBe(false);
    const other = instance({ applicationId: otherAppId });
    expect(await storage.activities.createInstance(other)).toBe(true);
    expect(await storage.activities.findInstance(first.id)).toEqual({ ...first, endedAt: null });
    expect(await storage.activities.findLiveInstance(appId, voiceId)).toEqual({
      ...first,
      endedAt: null,
    });
    expect((await storage.activities.listLiveInstances(voiceId)).map((i) => i.id)).toEqual([
      first.id,
      other.id,
    ]);
    expect(await storage.activities.findInstance('i-1-pc-2')).toBeNull();
  });

  it('adds and removes participants, and ends an instance only once it is empty', async () => {
    const live = instance();
    await storage.activities.createInstance(live);
    const join = (userId: string) =>
      storage.activities.addParticipant({ instanceId: live.id, userId, joinedAt: clock.now() });
    expect(await join(ann)).toBe(true);
    expect(await join(ann)).toBe(false);
    clock.advance(1_000);
    expect(await join(bob)).toBe(true);
    expect((await storage.activities.listParticipants(live.id)).map((p) => p.userId)).toEqual([
      ann,
      bob,
    ]);
    expect((await storage.activities.listLiveInstancesOfUser(bob)).map((i) => i.id)).toEqual([
      live.id,
    ]);

    expect(await storage.activities.removeParticipant(live.id, ann)).toBe(true);
    expect(await storage.activities.removeParticipant(live.id, ann)).toBe(false);
    expect(await storage.activities.endIfEmpty(live.id, clock.now())).toBe(false);
    expect(await storage.activities.removeParticipant(live.id, bob)).toBe(true);
    expect(await storage.activities.endIfEmpty(live.id, clock.now())).toBe(true);
    expect(await storage.activities.endIfEmpty(live.id, clock.now())).toBe(false);
    expect((await storage.activities.findInstance(live.id))?.endedAt).toBe(clock.now());
    expect(await storage.activities.findLiveInstance(appId, voiceId)).toBeNull();
    expect(await storage.activities.listLiveInstances(voiceId)).toEqual([]);
    expect(await storage.activities.listLiveInstancesOfUser(bob)).toEqual([]);

    // The channel is free for a new launch once the last one ended.
    expect(await storage.activities.createInstance(instance())).toBe(true);
  });
}
