import { ALL_PERMISSIONS, PermissionFlags as P } from '@guildhall/protocol';
import { join } from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { fabricatedId, uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import { DiskBlobStore } from '../../blobs/index.js';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import type { Principal } from '../../http/authenticator.js';
import type { Storage } from '../../storage/index.js';
import { createMyGuildsService } from './myGuilds.js';

/**
 * GET /users/@me/guilds reads a whole page in a constant number of queries, and a guild the
 * caller leaves (or that is deleted) while the page is read is left out rather than failing it.
 */
describeDrivers('my guilds service on $driver', (driver) => {
  let server: TestServer;
  let ada: Awaited<ReturnType<typeof seedDeveloper>>;
  let bob: Awaited<ReturnType<typeof seedDeveloper>>;

  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    ada = await seedDeveloper(server.app, uniqueName('ada'), 'ada app');
    bob = await seedDeveloper(server.app, uniqueName('bob'), 'bob app');
  });

  /** The app's storage, counting repository calls and running `afterList` after the page read. */
  const instrumented = (afterList: () => Promise<void>) => {
    const calls: string[] = [];
    const base = server.app.storage;
    const wrap = <R extends object>(name: string, repo: R): R =>
      new Proxy(repo, {
        get(target, key, receiver) {
          const value: unknown = Reflect.get(target, key, receiver);
          if (typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            calls.push(`${name}.${String(key)}`);
            const result: unknown = await Reflect.apply(value, target, args);
            if (name === 'guilds' && key === 'listForUser') await afterList();
            return result;
          };
        },
      });
    const storage: Storage = new Proxy(base, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof key === 'string' && typeof value === 'object' && value !== null
          ? wrap(key, value)
          : value;
      },
    });
    const clock = manualClock(Date.now());
    const service = createMyGuildsService({
      storage,
      clock,
      ids: createSnowflakeGenerator({ clock, workerId: 3 }),
      blobs: new DiskBlobStore(join(server.app.config.dataDir, 'blobs')),
      authenticator: { forgetToken: () => undefined, forgetUser: () => undefined },
      revocations: { revoke: () => undefined },
    });
    return { calls, service };
  };

  const principalOf = async (userId: string): Promise<Principal> => {
    const user = await server.app.storage.users.findById(userId);
    if (user === null) throw new Error('seeded user missing');
    return { kind: 'session', user, applicationId: null, scopes: [], tokenHash: 'test' };
  };

  it('answers a page in a constant number of queries', async () => {
    const owned: string[] = [];
    for (let i = 0; i < 12; i++) {
      const { guild } = await server.app.services.guilds.create({
        ownerId: ada.userId,
        name: `G${i}`,
        channels: [],
      });
      owned.push(guild.id);
    }
    const { guild: bobs } = await server.app.services.guilds.create({
      ownerId: bob.userId,
      name: 'Bob',
      channels: [],
    });
    const kicker = await server.app.storage.roles.create({
      id: fabricatedId(bobs.id),
      guildId: bobs.id,
      name: 'kicker',
      permissions: P.KICK_MEMBERS,
      position: 1,
      color: 0,
      hoist: false,
      mentionable: false,
      managed: false,
      botUserId: null,
      flags: 0,
    });
    await server.app.storage.members.add({
      guildId: bobs.id,
      userId: ada.userId,
      nick: null,
      joinedAt: Date.now(),
      deaf: false,
      mute: false,
      flags: 0,
      roleIds: [kicker.id],
    });
    const everyone = (await server.app.storage.roles.listByGuild(bobs.id))[0]?.permissions ?? 0n;

    const { calls, service } = instrumented(() => Promise.resolve());
    const page = await service.list(await principalOf(ada.userId), {
      limit: 200,
      with_counts: true,
    });
    expect(page.map((g) => g.id)).toEqual([...owned, bobs.id]);
    expect(
      page.slice(0, 12).every((g) => g.owner && g.permissions === String(ALL_PERMISSIONS)),
    ).toBe(true);
    expect(page[12]).toMatchObject({
      owner: false,
      permissions: String(everyone | P.KICK_MEMBERS),
      approximate_member_count: 2,
    });
    expect([...calls].sort()).toEqual([
      'guilds.listForUser',
      'guilds.memberCounts',
      'members.findForUser',
      'roles.listByGuilds',
    ]);
  });

  it('skips a guild left or deleted while the page is read', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { guild } = await server.app.services.guilds.create({
        ownerId: bob.userId,
        name: `B${i}`,
        channels: [],
      });
      await server.app.storage.members.add({
        guildId: guild.id,
        userId: ada.userId,
        nick: null,
        joinedAt: Date.now(),
        deaf: false,
        mute: false,
        flags: 0,
        roleIds: [],
      });
      ids.push(guild.id);
    }
    const [left, kept, deleted] = ids as [string, string, string];
    const { service } = instrumented(async () => {
      await server.app.storage.members.remove(left, [ada.userId]);
      await server.app.storage.guilds.delete(deleted);
    });
    const page = await service.list(await principalOf(ada.userId), { limit: 200 });
    expect(page.map((g) => g.id)).toEqual([kept]);
    expect(page[0]).toMatchObject({ owner: false });
    expect(page[0]).not.toHaveProperty('approximate_member_count');
  });
});
