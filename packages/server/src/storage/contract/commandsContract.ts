import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import type { ApplicationCommandRecord } from '../types/commands.js';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

/** The command repository (commands by scope, per-guild permissions), on every driver. */
export function describeCommandsContract(makeStorage: () => Promise<StorageFixture>): void {
  let fixture: StorageFixture;
  let storage: Storage;
  const clock = manualClock(Date.UTC(2026, 10, 24, 12));
  const nextId = createSnowflakeGenerator({ clock, workerId: 1 });
  let appId: string;
  let otherAppId: string;
  let guildId: string;

  const newApp = async (name: string) => {
    const owner = await storage.users.create({
      id: nextId(),
      username: `${name}-owner`,
      createdAt: clock.now(),
    });
    const app = await storage.applications.create({
      id: nextId(),
      name,
      ownerId: owner.id,
      botUserId: null,
      verifyKey: 'ab'.repeat(32),
      signingKey: 'key',
      clientSecretHash: 'hash',
      flags: 0n,
      redirectUris: [],
      createdAt: clock.now(),
    });
    return app;
  };
  const command = (extra: Partial<ApplicationCommandRecord> = {}): ApplicationCommandRecord => ({
    id: nextId(),
    applicationId: appId,
    guildId: null,
    type: 1,
    name: 'ping',
    nameLocalizations: { fr: 'ping-fr' },
    description: 'Replies\nwith pong',
    descriptionLocalizations: null,
    options: [
      {
        type: 3,
        name: 'text',
        description: 'What to say',
        required: true,
        choices: [{ name: 'two lines', value: 'a\nb' }],
      },
    ],
    defaultMemberPermissions: '8',
    dmPermission: true,
    contexts: [0, 2],
    integrationTypes: [0, 1],
    nsfw: false,
    handler: null,
    version: nextId(),
    createdAt: clock.now(),
    ...extra,
  });

  beforeEach(async () => {
    fixture = await makeStorage();
    storage = fixture.storage;
    const app = await newApp('game');
    appId = app.id;
    otherAppId = (await newApp('other')).id;
    const guild = await storage.guilds.create({
      id: nextId(),
      name: 'g',
      icon: null,
      description: null,
      ownerId: app.ownerId,
      features: [],
      preferredLocale: 'en-US',
      createdAt: clock.now(),
    });
    guildId = guild.id;
  });
  afterEach(() => fixture.dispose());

  it('stores a command as given, by scope, and replaces and deletes it', async () => {
    const global = command();
    const inGuild = command({ guildId, name: 'guildy', contexts: null, nameLocalizations: null });
    const others = command({ applicationId: otherAppId });
    for (const c of [global, inGuild, others]) await storage.commands.create(c);
    expect(await storage.commands.findById(appId, global.id)).toEqual(global);
    expect(await storage.commands.findById(appId, inGuild.id)).toEqual(inGuild);
    expect(await storage.commands.findById(appId, others.id)).toBeNull();
    expect(await storage.commands.listByScope(appId, null)).toEqual([global]);
    expect(await storage.commands.listByScope(appId, guildId)).toEqual([inGuild]);

    const replaced: ApplicationCommandRecord = {
      ...global,
      name: 'pong',
      options: [],
      contexts: null,
      defaultMemberPermissions: null,
      nsfw: true,
      version: nextId(),
    };
    await storage.commands.replace(replaced);
    expect(await storage.commands.findById(appId, global.id)).toEqual(replaced);

    expect(await storage.commands.delete(appId, global.id)).toBe(true);
    expect(await storage.commands.delete(appId, global.id)).toBe(false);
    expect(await storage.commands.listByScope(appId, null)).toEqual([]);
  });

  it('keeps permissions per guild and command, replaces them, and drops them with the command', async () => {
    const c = command();
    await storage.commands.create(c);
    const everyone = { id: guildId, type: 1, permission: false };
    const allChannels = { id: (BigInt(guildId) - 1n).toString(), type: 3, permission: true };
    const overwrites = [everyone, allChannels];
    await storage.commands.putPermissions({
      applicationId: appId,
      guildId,
      commandId: c.id,
      permissions: overwrites,
    });
    await storage.commands.putPermissions({
      applicationId: appId,
      guildId,
      commandId: appId,
      permissions: [everyone],
    });
    expect(await storage.commands.findPermissions(appId, guildId, c.id)).toEqual({
      applicationId: appId,
      guildId,
      commandId: c.id,
      permissions: overwrites,
    });
    expect(
      (await storage.commands.listPermissions(appId, guildId)).map((p) => p.commandId).sort(),
    ).toEqual([appId, c.id].sort());
    expect(await storage.commands.listPermissions(otherAppId, guildId)).toEqual([]);

    await storage.commands.putPermissions({
      applicationId: appId,
      guildId,
      commandId: c.id,
      permissions: [allChannels],
    });
    expect((await storage.commands.findPermissions(appId, guildId, c.id))?.permissions).toEqual([
      overwrites[1],
    ]);
    await storage.commands.putPermissions({
      applicationId: appId,
      guildId,
      commandId: c.id,
      permissions: [],
    });
    expect(await storage.commands.findPermissions(appId, guildId, c.id)).toBeNull();

    await storage.commands.putPermissions({
      applicationId: appId,
      guildId,
      commandId: c.id,
      permissions: overwrites,
    });
    await storage.commands.clearPermissions(appId, c.id);
    expect(await storage.commands.findPermissions(appId, guildId, c.id)).toBeNull();
    await storage.commands.putPermissions({
      applicationId: appId,
      guildId,
      commandId: c.id,
      permissions: overwrites,
    });
    await storage.commands.delete(appId, c.id);
    expect(await storage.commands.findPermissions(appId, guildId, c.id)).toBeNull();
    // The application-wide overwrites stay.
    expect(await storage.commands.findPermissions(appId, guildId, appId)).not.toBeNull();
  });

  it('deletes a guild’s commands and permissions with the guild', async () => {
    const c = command({ guildId });
    await storage.commands.create(c);
    await storage.commands.putPermissions({
      applicationId: appId,
      guildId,
      commandId: c.id,
      permissions: [{ id: guildId, type: 1, permission: true }],
    });
    await storage.guilds.delete(guildId);
    expect(await storage.commands.findById(appId, c.id)).toBeNull();
    expect(await storage.commands.listPermissions(appId, guildId)).toEqual([]);
  });

  it('lets a transaction lock the application’s commands', async () => {
    await storage.transaction(async (tx) => {
      await tx.commands.lock(appId);
      await tx.commands.create(command());
    });
    expect(await storage.commands.listByScope(appId, null)).toHaveLength(1);
  });
}
