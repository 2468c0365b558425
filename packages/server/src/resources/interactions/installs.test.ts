import { GatewayIntentBits as I, PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useInteractionFixture } from '../../../test/support/interactionFixture.js';
import type { Person } from '../../../test/support/guildMembers.js';
import { APP_PERMISSIONS_WITHOUT_BOT } from './place.js';

describeDrivers('user-installed apps: $driver', (driver) => {
  const f = useInteractionFixture(driver);

  /** What the consent page records for a user install (oauth/authorize.ts). */
  const userInstall = async (person: Person) => {
    await f.server.app.storage.oauth.upsertAuthorization({
      id: String(BigInt(person.userId) + 1n),
      userId: person.userId,
      applicationId: f.guild.bot.applicationId,
      scopes: ['applications.commands'],
      integrationType: 1,
      createdAt: f.clock.now(),
      updatedAt: f.clock.now(),
    });
  };
  /** A guild of `owner` without the app's bot, with a text channel; returns both ids. */
  const guildWithoutBot = async (owner: Person) => {
    const { guild } = await f.server.app.services.guilds.create({
      ownerId: owner.userId,
      name: 'No bot here',
      channels: [{ name: 'general', type: 'text' }],
    });
    const channels = await f.server.app.storage.channels.listByGuild(guild.id);
    return { guildId: guild.id, channelId: channels.find((c) => c.type === 0)?.id ?? '' };
  };
  const invoke = (person: Person, command: Record<string, unknown>, channelId: string) =>
    f.call('POST', '/interactions', person.token, {
      type: 2,
      application_id: f.guild.bot.applicationId,
      channel_id: channelId,
      session_id: 's',
      data: { id: command['id'], name: command['name'], type: 1 },
    });

  it('authorizes by the user install where the bot is not, with what an app without a bot may do', async () => {
    const command = await f.command({
      name: 'anywhere',
      description: 'Works anywhere',
      integration_types: [1],
      contexts: [0, 1, 2],
    });
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const ann = await f.guild.join('ann');
    const elsewhere = await guildWithoutBot(ann);
    // Not installed by Ann: nothing authorizes the command there.
    expect((await invoke(ann, command, elsewhere.channelId)).json()).toMatchObject({ code: 50001 });
    expect(await f.unsettled()).toBe(0);

    await userInstall(ann);
    expect((await invoke(ann, command, elsewhere.channelId)).statusCode).toBe(204);
    const created = (await bot.dispatch('INTERACTION_CREATE')).d as Record<string, unknown>;
    expect(created).toMatchObject({
      guild_id: elsewhere.guildId,
      context: 0,
      authorizing_integration_owners: { '1': ann.userId },
      app_permissions: APP_PERMISSIONS_WITHOUT_BOT.toString(),
    });
    expect(created['authorizing_integration_owners']).not.toHaveProperty('0');

    // In the bot's guild both installations authorize it.
    expect((await invoke(ann, command, await f.channelId())).statusCode).toBe(204);
    const both = await bot.next(
      (frame) =>
        frame.t === 'INTERACTION_CREATE' &&
        (frame.d as { guild_id?: string }).guild_id === f.guild.guildId,
    );
    expect(both.d).toMatchObject({
      authorizing_integration_owners: { '0': f.guild.guildId, '1': ann.userId },
    });
  });

  it('needs USE_EXTERNAL_APPS for a user-installed app in a guild without its bot', async () => {
    const command = await f.command({
      name: 'external',
      description: 'A user app',
      integration_types: [1],
      contexts: [0, 2],
    });
    const ann = await f.guild.join('ann');
    const elsewhere = await guildWithoutBot(ann);
    const bob = await f.guild.join('bob');
    await f.server.app.storage.members.add({
      guildId: elsewhere.guildId,
      userId: bob.userId,
      nick: null,
      joinedAt: f.clock.now(),
      deaf: false,
      mute: false,
      flags: 0,
      roleIds: [],
    });
    await userInstall(bob);
    const everyone = await f.server.app.storage.roles.findById(
      elsewhere.guildId,
      elsewhere.guildId,
    );
    await f.server.app.storage.roles.update(elsewhere.guildId, elsewhere.guildId, {
      permissions: (everyone?.permissions ?? 0n) & ~P.USE_EXTERNAL_APPS,
    });
    const refused = await invoke(bob, command, elsewhere.channelId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50013 });
    expect(await f.unsettled()).toBe(0);
  });

  it('runs in a DM between people as a PRIVATE_CHANNEL interaction', async () => {
    const command = await f.command({
      name: 'dm',
      description: 'In any DM',
      integration_types: [1],
      contexts: [2],
    });
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const ann = await f.guild.join('ann');
    await userInstall(ann);
    const dm = await f.call('POST', '/users/@me/channels', ann.token, {
      recipient_id: f.guild.owner.userId,
    });
    const channelId = dm.json<{ id: string }>().id;
    expect((await invoke(ann, command, channelId)).statusCode).toBe(204);
    expect((await bot.dispatch('INTERACTION_CREATE')).d).toMatchObject({
      context: 2,
      channel: { id: channelId, type: 1, recipients: [{ id: f.guild.owner.userId }] },
      user: { id: ann.userId },
      authorizing_integration_owners: { '1': ann.userId },
    });
  });
});
