import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import { StorageConflictError } from '../errors.js';
import type { Storage } from '../types/storage.js';

/** A storage under test and how to dispose of it. */
export interface StorageFixture {
  storage: Storage;
  dispose(): Promise<void>;
}

/**
 * The one suite every driver passes: the drizzle-style shared contract, declared in the caller's
 * suite (one per driver, `describeDrivers` in storage.test.ts). Each test gets a fresh
 * database from `makeStorage`.
 */
export function describeStorageContract(makeStorage: () => Promise<StorageFixture>): void {
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

  const newUser = (username: string, extra: { bot?: boolean; email?: string } = {}) =>
    storage.users.create({ id: nextId(), username, createdAt: clock.now(), ...extra });

  it('creates and reads users, with ids above 2^53 kept exactly', async () => {
    const user = await newUser('ada', { email: 'ada@example.test' });
    expect(BigInt(user.id)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    expect(user).toMatchObject({ username: 'ada', bot: false, verified: false, flags: 0 });
    expect(await storage.users.findById(user.id)).toEqual(user);
    expect((await storage.users.findByEmail('ada@example.test'))?.id).toBe(user.id);
    expect((await storage.users.findByUsername('ada'))?.id).toBe(user.id);
    expect(await storage.users.findById('1')).toBeNull();
  });

  it('refuses a second human with the same username or email, but not a bot', async () => {
    await newUser('grace', { email: 'g@example.test' });
    await expect(newUser('grace')).rejects.toBeInstanceOf(StorageConflictError);
    await expect(newUser('other', { email: 'g@example.test' })).rejects.toBeInstanceOf(
      StorageConflictError,
    );
    await expect(newUser('grace', { bot: true })).resolves.toMatchObject({ bot: true });
  });

  it('updates only the fields given', async () => {
    const user = await newUser('linus');
    const updated = await storage.users.update(user.id, { globalName: 'Linus', accentColor: 5 });
    expect(updated).toMatchObject({ username: 'linus', globalName: 'Linus', accentColor: 5 });
    expect(await storage.users.update('1', { globalName: 'x' })).toBeNull();
  });

  it('stores applications with wide flag bitsets and JSON lists', async () => {
    const owner = await newUser('owner');
    const bot = await newUser('bot', { bot: true });
    const app = await storage.applications.create({
      id: nextId(),
      name: 'App',
      ownerId: owner.id,
      botUserId: bot.id,
      verifyKey: 'ab'.repeat(32),
      signingKey: 'key',
      clientSecretHash: 'hash',
      flags: (1n << 40n) | (1n << 18n),
      redirectUris: ['http://127.0.0.1/callback'],
      createdAt: clock.now(),
    });
    expect(app.flags).toBe((1n << 40n) | (1n << 18n));
    expect(await storage.applications.findByBotUserId(bot.id)).toEqual(app);
    const updated = await storage.applications.update(app.id, {
      name: 'Renamed',
      redirectUris: [],
    });
    expect(updated).toMatchObject({ name: 'Renamed', redirectUris: [], botUserId: bot.id });
    expect(await storage.applications.listByOwner(owner.id)).toHaveLength(1);
  });

  it('lists the applications whose bot is a member of a guild', async () => {
    const owner = await newUser('installer');
    const makeApp = async (name: string) => {
      const bot = await newUser(`${name}-bot`, { bot: true });
      return storage.applications.create({
        id: nextId(),
        name,
        ownerId: owner.id,
        botUserId: bot.id,
        verifyKey: 'cd'.repeat(32),
        signingKey: 'key',
        clientSecretHash: 'hash',
        createdAt: clock.now(),
      });
    };
    const [inGuild, elsewhere] = [await makeApp('In'), await makeApp('Out')];
    const guildId = nextId();
    await storage.guilds.create({
      id: guildId,
      name: 'Installs',
      icon: null,
      description: null,
      ownerId: owner.id,
      features: [],
      preferredLocale: 'en-US',
      createdAt: clock.now(),
    });
    const join = (userId: string) =>
      storage.members.add({
        guildId,
        userId,
        nick: null,
        joinedAt: clock.now(),
        deaf: false,
        mute: false,
        flags: 0,
        roleIds: [],
      });
    await join(owner.id);
    await join(inGuild.botUserId ?? '');
    const listed = await storage.applications.listInstalledInGuild(guildId);
    expect(listed.map((app) => app.id)).toEqual([inGuild.id]);
    expect(listed.map((app) => app.id)).not.toContain(elsewhere.id);
    await storage.members.remove(guildId, [inGuild.botUserId ?? '']);
    expect(await storage.applications.listInstalledInGuild(guildId)).toEqual([]);
  });

  it('finds, deletes and bulk-deletes tokens by hash', async () => {
    const user = await newUser('tok');
    const base = { userId: user.id, applicationId: null, createdAt: clock.now() };
    await storage.tokens.create({
      ...base,
      hash: 'h1',
      kind: 'session',
      scopes: [],
      expiresAt: null,
    });
    await storage.tokens.create({
      ...base,
      hash: 'h2',
      kind: 'session',
      scopes: ['identify', 'guilds'],
      expiresAt: clock.now() + 1000,
    });
    await storage.tokens.create({
      ...base,
      hash: 'h3',
      kind: 'bot',
      scopes: [],
      expiresAt: null,
    });
    expect(await storage.tokens.findByHash('h2')).toMatchObject({
      scopes: ['identify', 'guilds'],
      expiresAt: clock.now() + 1000,
    });
    expect(await storage.tokens.setExpiry('h2', clock.now() + 5000)).toBe(true);
    expect(await storage.tokens.setExpiry('unknown', clock.now() + 5000)).toBe(false);
    expect((await storage.tokens.findByHash('h2'))?.expiresAt).toBe(clock.now() + 5000);
    expect(await storage.tokens.delete('h1')).toBe(true);
    expect(await storage.tokens.delete('h1')).toBe(false);
    expect(await storage.tokens.deleteFor({ userId: user.id, kind: 'session' })).toEqual(['h2']);
    expect(await storage.tokens.findByHash('h3')).not.toBeNull();
  });

  it('commits a transaction whole, or rolls it back whole', async () => {
    const kept = await storage.transaction(async (tx) => {
      const user = await tx.users.create({ id: nextId(), username: 'kept', createdAt: 0 });
      await tx.tokens.create({
        hash: 'kept-token',
        kind: 'session',
        userId: user.id,
        applicationId: null,
        scopes: [],
        createdAt: 0,
        expiresAt: null,
      });
      return user;
    });
    expect(await storage.users.findById(kept.id)).not.toBeNull();

    const lostId = nextId();
    await expect(
      storage.transaction(async (tx) => {
        await tx.users.create({ id: lostId, username: 'lost', createdAt: 0 });
        await tx.tokens.create({
          hash: 'kept-token',
          kind: 'session',
          userId: lostId,
          applicationId: null,
          scopes: [],
          createdAt: 0,
          expiresAt: null,
        });
      }),
    ).rejects.toBeInstanceOf(StorageConflictError);
    expect(await storage.users.findById(lostId)).toBeNull();
  });

  it('lets transactions on one guild take turns once it is locked', async () => {
    const owner = await newUser('locker');
    const guildId = nextId();
    await storage.guilds.create({
      id: guildId,
      name: 'Locked',
      icon: null,
      description: null,
      ownerId: owner.id,
      features: [],
      preferredLocale: 'en-US',
      createdAt: clock.now(),
    });
    const order: string[] = [];
    const gate = new EventTarget();
    const released = new Promise((resolve) => {
      gate.addEventListener('release', resolve, { once: true });
    });
    const release = () => gate.dispatchEvent(new Event('release'));
    const first = storage.transaction(async (tx) => {
      expect(tx.inTransaction).toBe(true);
      await tx.guilds.lock(guildId);
      order.push('first locked');
      await released;
      order.push('first done');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = storage.transaction(async (tx) => {
      await tx.guilds.lock(guildId);
      order.push('second locked');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first locked', 'first done', 'second locked']);
    expect(storage.inTransaction).toBe(false);
  });

  it('answers a ping', async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
  });
}
