import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import type { InviteRecord } from '../types/invites.js';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

/** The invite, target user, job and connection repositories, on every driver. */
export function describeInvitesContract(makeStorage: () => Promise<StorageFixture>): void {
  let fixture: StorageFixture;
  let storage: Storage;
  const clock = manualClock(Date.UTC(2026, 10, 22, 12));
  const nextId = createSnowflakeGenerator({ clock, workerId: 1 });
  let invite: InviteRecord;

  beforeEach(async () => {
    fixture = await makeStorage();
    storage = fixture.storage;
    const owner = await storage.users.create({
      id: nextId(),
      username: 'owner',
      createdAt: clock.now(),
    });
    const guild = await storage.guilds.create({
      id: nextId(),
      name: 'G',
      icon: null,
      description: null,
      ownerId: owner.id,
      features: [],
      preferredLocale: 'en-US',
      createdAt: clock.now(),
    });
    const channel = await storage.channels.create({
      id: nextId(),
      guildId: guild.id,
      type: 0,
      name: 'general',
      position: 0,
      parentId: null,
      topic: null,
      nsfw: false,
      rateLimitPerUser: 0,
      bitrate: null,
      userLimit: null,
      flags: 0,
      lastMessageId: null,
      createdAt: clock.now(),
    });
    invite = {
      code: 'AbCdEf1234',
      guildId: guild.id,
      channelId: channel.id,
      inviterId: owner.id,
      maxAge: 3600,
      maxUses: 5,
      uses: 0,
      temporary: true,
      targetType: null,
      targetUserId: null,
      targetApplicationId: null,
      roleIds: [nextId()],
      targeted: false,
      createdAt: clock.now(),
      expiresAt: clock.now() + 3_600_000,
    };
    expect(await storage.invites.create(invite)).toBe(true);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('creates invites once per code and reads them back by code, guild and channel', async () => {
    expect(await storage.invites.create({ ...invite, maxUses: 1 })).toBe(false);
    expect(await storage.invites.find(invite.code)).toEqual(invite);
    expect(await storage.invites.listByGuild(invite.guildId)).toEqual([invite]);
    expect(await storage.invites.listByChannel(invite.channelId)).toEqual([invite]);
    expect(await storage.invites.find('nope')).toBeNull();
  });

  it('counts uses and marks targeting', async () => {
    expect(await storage.invites.addUse(invite.code)).toBe(1);
    expect(await storage.invites.addUse(invite.code)).toBe(2);
    expect(await storage.invites.addUse('nope')).toBeNull();
    await storage.invites.setTargeted(invite.code);
    expect(await storage.invites.find(invite.code)).toMatchObject({ uses: 2, targeted: true });
    // Never past max_uses (5 here).
    for (const uses of [3, 4, 5]) expect(await storage.invites.addUse(invite.code)).toBe(uses);
    expect(await storage.invites.addUse(invite.code)).toBeNull();
    expect((await storage.invites.find(invite.code))?.uses).toBe(5);
  });

  it('keeps target users as a set, ordered by id (up to 2^63 - 1)', async () => {
    const big = '9223372036854775807';
    await storage.invites.addTargetUsers(invite.code, ['30', '4', big, '30']);
    await storage.invites.addTargetUsers(invite.code, ['4', '5']);
    expect(await storage.invites.listTargetUsers(invite.code)).toEqual(['4', '5', '30', big]);
    expect(await storage.invites.countTargetUsers(invite.code)).toBe(4);
    expect(await storage.invites.isTargetUser(invite.code, big)).toBe(true);
    await storage.invites.removeTargetUsers(invite.code, ['5', '999']);
    expect(await storage.invites.listTargetUsers(invite.code)).toEqual(['4', '30', big]);
    await storage.invites.clearTargetUsers(invite.code);
    expect(await storage.invites.countTargetUsers(invite.code)).toBe(0);
  });

  it('lets two transactions add the same many users in opposite orders at once', async () => {
    const ids = Array.from({ length: 1200 }, (_, i) => String(1_000_000 + i));
    const reversed = [...ids].reverse();
    await Promise.all(
      [ids, reversed].map((order) =>
        storage.transaction((tx) => tx.invites.addTargetUsers(invite.code, order)),
      ),
    );
    expect(await storage.invites.countTargetUsers(invite.code)).toBe(ids.length);
  });

  it('updates a job only while the same run owns it', async () => {
    const job = {
      code: invite.code,
      jobId: 'run-1',
      status: 1,
      totalUsers: 10,
      processedUsers: 0,
      createdAt: clock.now(),
      completedAt: null,
      errorMessage: null,
    };
    await storage.invites.putJob(job);
    expect(await storage.invites.updateJob(invite.code, 'run-1', { processedUsers: 5 })).toBe(true);
    await storage.invites.putJob({ ...job, jobId: 'run-2', totalUsers: 3 });
    expect(await storage.invites.updateJob(invite.code, 'run-1', { processedUsers: 10 })).toBe(
      false,
    );
    expect(
      await storage.invites.updateJob(invite.code, 'run-2', {
        status: 2,
        processedUsers: 3,
        completedAt: clock.now(),
      }),
    ).toBe(true);
    expect(await storage.invites.findJob(invite.code)).toEqual({
      ...job,
      jobId: 'run-2',
      status: 2,
      totalUsers: 3,
      processedUsers: 3,
      completedAt: clock.now(),
    });
  });

  it('stages a job’s ids in batches and leases the job to one owner at a time', async () => {
    const now = clock.now();
    const job = {
      code: invite.code,
      jobId: 'run-1',
      status: 1,
      totalUsers: 3,
      processedUsers: 0,
      createdAt: now,
      completedAt: null,
      errorMessage: null,
    };
    await storage.invites.putJob(job);
    await storage.invites.stageBatches(invite.code, 'run-1', [['1', '2'], ['3']]);
    expect(await storage.invites.nextBatch(invite.code, 'run-1')).toEqual({
      seq: 0,
      userIds: ['1', '2'],
    });
    expect(await storage.invites.nextBatch(invite.code, 'other')).toBeNull();
    await storage.invites.dropBatch(invite.code, 'run-1', 0);
    expect(await storage.invites.nextBatch(invite.code, 'run-1')).toEqual({
      seq: 1,
      userIds: ['3'],
    });
    expect(await storage.invites.listClaimableJobs(now)).toEqual([
      { code: invite.code, jobId: 'run-1' },
    ]);
    // Two owners claiming at once: exactly one wins.
    const lease = { code: invite.code, jobId: 'run-1', nowMs: now, untilMs: now + 1000 };
    const claims = await Promise.all([
      storage.invites.claimJob({ ...lease, owner: 'a' }),
      storage.invites.claimJob({ ...lease, owner: 'b' }),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const [winner, loser] = claims[0] ? ['a', 'b'] : ['b', 'a'];
    expect(await storage.invites.listClaimableJobs(now)).toEqual([]);
    expect(await storage.invites.claimJob({ ...lease, owner: winner })).toBe(true);
    expect(await storage.invites.claimJob({ ...lease, owner: loser })).toBe(false);
    expect(await storage.invites.claimJob({ ...lease, jobId: 'run-0', owner: winner })).toBe(false);
    // A lease that ran out, or was released, is anyone's.
    const later = { ...lease, nowMs: now + 1000, untilMs: now + 2000 };
    expect(await storage.invites.listClaimableJobs(now + 1000)).toHaveLength(1);
    expect(await storage.invites.claimJob({ ...later, owner: loser })).toBe(true);
    await storage.invites.releaseJob(invite.code, 'run-1', winner);
    expect(await storage.invites.claimJob({ ...later, owner: winner })).toBe(false);
    await storage.invites.releaseJob(invite.code, 'run-1', loser);
    expect(await storage.invites.listClaimableJobs(now)).toHaveLength(1);
    // A finished job is nobody's; a replacing upload drops the older staged ids.
    await storage.invites.updateJob(invite.code, 'run-1', { status: 2 });
    expect(await storage.invites.listClaimableJobs(now)).toEqual([]);
    expect(await storage.invites.claimJob({ ...lease, owner: winner })).toBe(false);
    await storage.invites.putJob({ ...job, jobId: 'run-2' });
    await storage.invites.stageBatches(invite.code, 'run-2', [['9']]);
    expect(await storage.invites.nextBatch(invite.code, 'run-1')).toBeNull();
    expect(await storage.invites.nextBatch(invite.code, 'run-2')).toEqual({
      seq: 0,
      userIds: ['9'],
    });
    await storage.invites.delete(invite.code);
    expect(await storage.invites.nextBatch(invite.code, 'run-2')).toBeNull();
  });

  it('deletes an invite with its target users and job', async () => {
    await storage.invites.addTargetUsers(invite.code, ['4']);
    await storage.invites.putJob({
      code: invite.code,
      jobId: 'run',
      status: 1,
      totalUsers: 1,
      processedUsers: 0,
      createdAt: clock.now(),
      completedAt: null,
      errorMessage: null,
    });
    expect(await storage.invites.delete(invite.code)).toBe(true);
    expect(await storage.invites.delete(invite.code)).toBe(false);
    expect(await storage.invites.listTargetUsers(invite.code)).toEqual([]);
    expect(await storage.invites.findJob(invite.code)).toBeNull();
    expect(await storage.invites.updateJob(invite.code, 'run', { status: 2 })).toBe(false);
  });

  it('stores connections per user, replacing one of the same type and id', async () => {
    const user = await storage.users.create({
      id: nextId(),
      username: 'ann',
      createdAt: clock.now(),
    });
    const connection = {
      userId: user.id,
      type: 'steam',
      id: '765',
      name: 'ann',
      verified: true,
      friendSync: false,
      showActivity: true,
      twoWayLink: false,
      visibility: 1,
      revoked: false,
      publisherKind: null,
      applicationIdentity: false,
      createdAt: clock.now(),
    };
    await storage.connections.put(connection);
    await storage.connections.put({ ...connection, type: 'github', id: 'ann' });
    await storage.connections.put({ ...connection, name: 'Ann', publisherKind: 'B' });
    expect(await storage.connections.listByUser(user.id)).toEqual([
      { ...connection, type: 'github', id: 'ann' },
      { ...connection, name: 'Ann', publisherKind: 'B' },
    ]);
  });
}
