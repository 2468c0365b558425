import { PermissionFlags } from '@guildhall/protocol';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import { StorageConflictError } from '../errors.js';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

/**
 * The guild aggregate on every driver: guilds, roles, channels (with a channel's permission
 * context in one read), overwrites and members.
 */
export function describeGuildsContract(makeStorage: () => Promise<StorageFixture>): void {
  let fixture: StorageFixture;
  let storage: Storage;
  const clock = manualClock(Date.UTC(2026, 10, 22, 12));
  const nextId = createSnowflakeGenerator({ clock, workerId: 1 });

  beforeEach(async () => {
    fixture = await makeStorage();
    storage = fixture.storage;
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  const newUser = (username: string) =>
    storage.users.create({ id: nextId(), username, createdAt: clock.now() });

  it('keeps guilds, roles, channels and members together', async () => {
    const owner = await newUser('guildowner');
    const guildId = nextId();
    await storage.guilds.create({
      id: guildId,
      name: 'Guild',
      icon: null,
      description: null,
      ownerId: owner.id,
      features: ['COMMUNITY'],
      preferredLocale: 'en-US',
      createdAt: clock.now(),
    });
    const everyone = {
      id: guildId,
      guildId,
      name: '@everyone',
      permissions: PermissionFlags.VIEW_CHANNEL | PermissionFlags.PIN_MESSAGES,
      position: 0,
      color: 0,
      hoist: false,
      mentionable: false,
      managed: false,
      botUserId: null,
      flags: 0,
    };
    await storage.roles.create(everyone);
    const mod = await storage.roles.create({
      ...everyone,
      id: nextId(),
      name: 'mod',
      position: 1,
    });
    const channelBase = {
      guildId,
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
    };
    const text = await storage.channels.create({
      ...channelBase,
      id: nextId(),
      type: 0,
      name: 'general',
    });
    await storage.channels.create({
      ...channelBase,
      id: nextId(),
      type: 2,
      name: 'voice',
      position: 1,
      bitrate: 64000,
    });
    await storage.members.add({
      guildId,
      userId: owner.id,
      nick: null,
      joinedAt: clock.now(),
      deaf: false,
      mute: false,
      flags: 0,
      roleIds: [mod.id],
    });

    expect((await storage.guilds.findById(guildId))?.features).toEqual(['COMMUNITY']);
    expect((await storage.roles.listByGuild(guildId)).map((r) => r.name)).toEqual([
      '@everyone',
      'mod',
    ]);
    expect((await storage.roles.listByGuild(guildId))[0]?.permissions).toBe(everyone.permissions);
    expect((await storage.channels.listByGuild(guildId)).map((c) => c.name)).toEqual([
      'general',
      'voice',
    ]);
    expect(await storage.channels.findById(text.id)).toEqual(text);
    expect((await storage.members.find(guildId, owner.id))?.roleIds).toEqual([mod.id]);
    expect((await storage.guilds.listForUser(owner.id)).map((g) => g.id)).toEqual([guildId]);
    expect(await storage.guilds.countForUser(owner.id)).toBe(1);
    await expect(
      storage.members.add({
        guildId,
        userId: owner.id,
        nick: null,
        joinedAt: 0,
        deaf: false,
        mute: false,
        flags: 0,
        roleIds: [],
      }),
    ).rejects.toBeInstanceOf(StorageConflictError);
  });

  it("reads a channel's permission context in one call, as the separate reads give it", async () => {
    const owner = await newUser('contextowner');
    const other = await newUser('contextother');
    const guildId = nextId();
    await storage.guilds.create({
      id: guildId,
      name: 'Context',
      icon: null,
      description: 'a guild',
      ownerId: owner.id,
      features: ['COMMUNITY', 'NEWS'],
      preferredLocale: 'en-US',
      createdAt: clock.now(),
    });
    const everyone = {
      id: guildId,
      guildId,
      name: '@everyone',
      permissions: PermissionFlags.VIEW_CHANNEL | (1n << 50n),
      position: 0,
      color: 0,
      hoist: false,
      mentionable: false,
      managed: false,
      botUserId: null,
      flags: 0,
    };
    await storage.roles.create(everyone);
    const roleIds = [nextId(), nextId()];
    await storage.roles.create({ ...everyone, id: roleIds[1] ?? '', name: 'b', position: 1 });
    await storage.roles.create({
      ...everyone,
      id: roleIds[0] ?? '',
      name: 'a',
      position: 2,
      color: 0xff00ff,
      hoist: true,
      botUserId: other.id,
      unicodeEmoji: '🦊',
    });
    const channel = await storage.channels.create({
      id: nextId(),
      guildId,
      type: 0,
      name: 'general',
      position: 0,
      parentId: null,
      topic: 'topic',
      nsfw: true,
      rateLimitPerUser: 5,
      bitrate: null,
      userLimit: null,
      flags: 0,
      lastMessageId: null,
      createdAt: clock.now(),
    });
    await storage.overwrites.put({
      channelId: channel.id,
      targetId: owner.id,
      type: 1,
      allow: 1n << 51n,
      deny: 0n,
    });
    await storage.overwrites.put({
      channelId: channel.id,
      targetId: guildId,
      type: 0,
      allow: 0n,
      deny: PermissionFlags.SEND_MESSAGES,
    });
    await storage.members.add({
      guildId,
      userId: owner.id,
      nick: 'nick',
      joinedAt: clock.now(),
      deaf: false,
      mute: true,
      flags: 2,
      roleIds,
      communicationDisabledUntil: clock.now() + 60_000,
    });

    const context = await storage.channels.findAccessContext(channel.id, owner.id);
    expect(context).toEqual({
      channel: await storage.channels.findById(channel.id),
      guild: await storage.guilds.findById(guildId),
      member: await storage.members.find(guildId, owner.id),
      roles: await storage.roles.listByGuild(guildId),
      overwrites: await storage.overwrites.listByChannel(channel.id),
    });
    expect(context?.member?.roleIds).toEqual([...roleIds].sort());
    expect(context?.roles.map((r) => r.name)).toEqual(['@everyone', 'b', 'a']);
    expect(context?.overwrites.map((o) => o.allow | o.deny)).toContain(1n << 51n);

    const outsider = await storage.channels.findAccessContext(channel.id, other.id);
    expect(outsider?.member).toBeNull();
    expect(outsider?.roles).toHaveLength(3);
    expect(await storage.channels.findAccessContext(nextId(), owner.id)).toBeNull();
    expect(
      await storage.transaction((tx) => tx.channels.findAccessContext(channel.id, owner.id)),
    ).toEqual(context);
  });

  it('pages members by user id', async () => {
    const owner = await newUser('pager');
    const guildId = nextId();
    await storage.guilds.create({
      id: guildId,
      name: 'G',
      icon: null,
      description: null,
      ownerId: owner.id,
      features: [],
      preferredLocale: 'en-US',
      createdAt: clock.now(),
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const user = await newUser(`member${i}`);
      ids.push(user.id);
      await storage.members.add({
        guildId,
        userId: user.id,
        nick: null,
        joinedAt: clock.now(),
        deaf: false,
        mute: false,
        flags: 0,
        roleIds: [],
      });
    }
    const first = await storage.members.listByGuild(guildId, { limit: 2 });
    expect(first.map((m) => m.userId)).toEqual(ids.slice(0, 2));
    const rest = await storage.members.listByGuild(guildId, { limit: 10, after: ids[1] ?? '' });
    expect(rest.map((m) => m.userId)).toEqual(ids.slice(2));
  });

  it("batches a user's memberships and the roles of many guilds", async () => {
    const user = await newUser('batcher');
    const other = await newUser('bystander');
    // Position 0 is @everyone, whose id is the guild's.
    const role = (guildId: string, position: number, permissions: bigint) =>
      storage.roles.create({
        id: position === 0 ? guildId : nextId(),
        guildId,
        name: position === 0 ? '@everyone' : `r${position}`,
        permissions,
        position,
        color: 0,
        hoist: false,
        mentionable: false,
        managed: false,
        botUserId: null,
        flags: 0,
      });
    const join = (guildId: string, userId: string, extra: { roleIds: string[]; until?: number }) =>
      storage.members.add({
        guildId,
        userId,
        nick: null,
        joinedAt: clock.now(),
        deaf: false,
        mute: false,
        flags: 0,
        roleIds: extra.roleIds,
        communicationDisabledUntil: extra.until ?? null,
      });
    const guildIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const guildId = nextId();
      guildIds.push(guildId);
      await storage.guilds.create({
        id: guildId,
        name: `G${i}`,
        icon: null,
        description: null,
        ownerId: other.id,
        features: [],
        preferredLocale: 'en-US',
        createdAt: clock.now(),
      });
      await role(guildId, 0, PermissionFlags.VIEW_CHANNEL);
    }
    const [g0, g1, g2] = guildIds as [string, string, string];
    const mod0 = await role(g0, 1, PermissionFlags.KICK_MEMBERS);
    const admin0 = await role(g0, 2, PermissionFlags.ADMINISTRATOR);
    const mod1 = await role(g1, 1, PermissionFlags.BAN_MEMBERS);
    await join(g0, user.id, { roleIds: [admin0.id, mod0.id] });
    await join(g1, user.id, { roleIds: [], until: clock.now() + 1000 });
    await join(g0, other.id, { roleIds: [mod0.id] });
    await join(g1, other.id, { roleIds: [mod1.id] });
    await join(g2, other.id, { roleIds: [] });

    // Only the asked-for guilds the user is in, each with the user's own roles.
    const members = await storage.members.findForUser(user.id, [g2, g1, g0]);
    expect(members.map((m) => [m.guildId, m.userId])).toEqual([
      [g0, user.id],
      [g1, user.id],
    ]);
    expect(members[0]).toEqual(await storage.members.find(g0, user.id));
    expect(members[0]?.roleIds).toEqual([mod0.id, admin0.id].sort());
    expect(members[1]).toMatchObject({
      roleIds: [],
      communicationDisabledUntil: clock.now() + 1000,
    });
    expect(await storage.members.findForUser(user.id, [g2])).toEqual([]);
    expect(await storage.members.findForUser(user.id, [])).toEqual([]);

    // The roles of exactly the asked-for guilds, as listByGuild gives them, guild by guild.
    const roles = await storage.roles.listByGuilds([g1, g0]);
    expect(roles).toEqual([
      ...(await storage.roles.listByGuild(g0)),
      ...(await storage.roles.listByGuild(g1)),
    ]);
    expect(roles.map((r) => r.id)).toEqual([g0, mod0.id, admin0.id, g1, mod1.id]);
    expect(roles.find((r) => r.id === admin0.id)?.permissions).toBe(PermissionFlags.ADMINISTRATOR);
    expect(await storage.roles.listByGuilds([])).toEqual([]);

    // A membership that is gone is simply absent.
    await storage.members.remove(g0, [user.id]);
    expect((await storage.members.findForUser(user.id, guildIds)).map((m) => m.guildId)).toEqual([
      g1,
    ]);
  });
}
