import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { useCommandFixture } from '../../../test/support/commandFixture.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import type { CommandPermissionRecord } from '../../storage/index.js';
import { ApiError } from '../../errors/index.js';
import { resolveCommandForInvocation, type CommandInvocationPlace } from './invocation.js';

const ROLE_A = '1111111111111111';
const ROLE_B = '2222222222222222';
const MEMBER = P.VIEW_CHANNEL | P.SEND_MESSAGES | P.USE_APPLICATION_COMMANDS;

describeDrivers('command availability (resolveCommandForInvocation) on $driver', (driver) => {
  const fx = useCommandFixture(driver);
  let guildId: string;
  let channelId: string;
  let otherChannelId: string;
  let userId: string;

  beforeEach(async () => {
    guildId = fx.guild.guildId;
    const [channel] = await fx.app.storage.channels.listByGuild(guildId);
    channelId = channel?.id ?? '';
    otherChannelId = (BigInt(channelId) + 7n).toString();
    userId = (await fx.guild.join('member')).userId;
  });

  /** Makes a command through the route; returns its id. */
  const command = async (body: object, scope: 'global' | 'guild' = 'global') => {
    const path =
      scope === 'global'
        ? `/applications/${fx.appId}/commands`
        : `/applications/${fx.appId}/guilds/${guildId}/commands`;
    const res = await fx.call(`POST ${path}`, fx.bot, { payload: { description: 'd', ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const overwrite = (commandId: string, permissions: CommandPermissionRecord[]) =>
    fx.app.storage.commands.putPermissions({
      applicationId: fx.appId,
      guildId,
      commandId,
      permissions,
    });
  const place = (commandId: string, extra: Partial<CommandInvocationPlace> = {}) => ({
    applicationId: fx.appId,
    commandId,
    userId,
    guildId,
    channelId,
    context: 0 as const,
    authorizingIntegrationOwners: { '0': guildId },
    memberPermissions: MEMBER,
    memberRoleIds: [],
    channelNsfw: false,
    ...extra,
  });
  const resolve = (p: CommandInvocationPlace) => resolveCommandForInvocation(fx.app.storage, p);
  const allowed = async (p: CommandInvocationPlace) => {
    expect((await resolve(p)).id).toBe(p.commandId);
  };
  const refused = async (p: CommandInvocationPlace, code: number) => {
    const error = await resolve(p).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(code);
  };
  const dm = { guildId: null, context: 1 as const, memberPermissions: null };

  describe('which command, where', () => {
    it('finds only the application’s own commands, guild commands only in their guild', async () => {
      const global = await command({ name: 'g' });
      const local = await command({ name: 'l' }, 'guild');
      await allowed(place(global));
      await allowed(place(local));
      await refused(place('123'), 10063);
      await refused(place('nope'), 10063);
      await refused(place(global, { applicationId: fx.other.applicationId }), 10063);
      await refused(
        place(local, {
          guildId: fx.bareGuildId,
          authorizingIntegrationOwners: { '0': fx.bareGuildId },
        }),
        10063,
      );
      await refused(place(local, { ...dm, authorizingIntegrationOwners: { '0': '0' } }), 10063);
    });

    it('offers a command only in its contexts; unset contexts follow dm_permission', async () => {
      const plain = await command({ name: 'plain' });
      const noDm = await command({ name: 'nodm', dm_permission: false });
      const everywhere = await command({
        name: 'all',
        contexts: [0, 1, 2],
        integration_types: [0, 1],
      });
      const bot = { ...dm, authorizingIntegrationOwners: { '0': '0' } };
      await allowed(place(plain, bot));
      await refused(place(noDm, bot), 50001);
      await allowed(place(noDm));
      const group = { guildId: null, context: 2 as const, memberPermissions: null };
      await refused(
        place(plain, { ...group, authorizingIntegrationOwners: { '1': userId } }),
        50001,
      );
      await allowed(place(everywhere, { ...group, authorizingIntegrationOwners: { '1': userId } }));
    });

    it('needs an installation the command is made for', async () => {
      const userApp = await command({ name: 'mine', contexts: [0, 1, 2], integration_types: [1] });
      const guildApp = await command({ name: 'ours' });
      // A user install: only for that user.
      await allowed(place(userApp, { authorizingIntegrationOwners: { '1': userId } }));
      await refused(place(userApp, { authorizingIntegrationOwners: { '1': '42' } }), 50001);
      await refused(place(userApp), 50001);
      await refused(place(guildApp, { authorizingIntegrationOwners: { '1': userId } }), 50001);
      // A guild install counts where the bot is a member, for that guild.
      await refused(
        place(guildApp, {
          guildId: fx.bareGuildId,
          authorizingIntegrationOwners: { '0': fx.bareGuildId },
        }),
        50001,
      );
      await refused(
        place(guildApp, { authorizingIntegrationOwners: { '0': fx.bareGuildId } }),
        50001,
      );
    });

    it('keeps age-restricted commands to NSFW channels', async () => {
      const nsfw = await command({ name: 'spicy', nsfw: true });
      await refused(place(nsfw), 50001);
      await allowed(place(nsfw, { channelNsfw: true }));
    });
  });

  describe('default_member_permissions', () => {
    it('needs the bits; ADMINISTRATOR always passes; "0" is administrators only', async () => {
      const ban = await command({ name: 'ban', default_member_permissions: String(P.BAN_MEMBERS) });
      const admins = await command({ name: 'admins', default_member_permissions: '0' });
      await refused(place(ban), 50013);
      await allowed(place(ban, { memberPermissions: MEMBER | P.BAN_MEMBERS }));
      await allowed(place(ban, { memberPermissions: P.ADMINISTRATOR }));
      await refused(
        place(admins, { memberPermissions: MEMBER | P.BAN_MEMBERS | P.MANAGE_GUILD }),
        50013,
      );
      await allowed(place(admins, { memberPermissions: P.ADMINISTRATOR | MEMBER }));
      // Outside guilds it does not apply.
      await allowed(place(ban, { ...dm, authorizingIntegrationOwners: { '0': '0' } }));
    });
  });

  describe('guild overwrites', () => {
    it('a user overwrite beats roles, roles beat @everyone, and any allowed role allows', async () => {
      const id = await command({ name: 'mod', default_member_permissions: '0' });
      await overwrite(id, [
        { id: guildId, type: 1, permission: false },
        { id: ROLE_A, type: 1, permission: true },
        { id: ROLE_B, type: 1, permission: false },
      ]);
      await refused(place(id), 50013);
      await allowed(place(id, { memberRoleIds: [ROLE_A] }));
      await refused(place(id, { memberRoleIds: [ROLE_B] }), 50013);
      await allowed(place(id, { memberRoleIds: [ROLE_A, ROLE_B] }));
      await overwrite(id, [
        { id: ROLE_A, type: 1, permission: true },
        { id: userId, type: 2, permission: false },
      ]);
      await refused(place(id, { memberRoleIds: [ROLE_A] }), 50013);
      await overwrite(id, [
        { id: guildId, type: 1, permission: false },
        { id: userId, type: 2, permission: true },
      ]);
      // An overwrite for the member wins over default_member_permissions "0".
      await allowed(place(id));
      // Even an administrator is kept out by a denying overwrite.
      await overwrite(id, [{ id: userId, type: 2, permission: false }]);
      await refused(place(id, { memberPermissions: P.ADMINISTRATOR }), 50013);
    });

    it('a channel denial is final; a channel’s own overwrite beats "all channels"', async () => {
      const id = await command({ name: 'chan' });
      const allChannels = (BigInt(guildId) - 1n).toString();
      await overwrite(id, [
        { id: allChannels, type: 3, permission: false },
        { id: channelId, type: 3, permission: true },
      ]);
      await allowed(place(id));
      await refused(place(id, { channelId: otherChannelId }), 50013);
      await overwrite(id, [
        { id: channelId, type: 3, permission: false },
        { id: userId, type: 2, permission: true },
      ]);
      await refused(place(id), 50013);
      await allowed(place(id, { channelId: otherChannelId }));
    });

    it('command-level overwrites win over the application-wide ones, which apply when none does', async () => {
      const id = await command({ name: 'app' });
      const other = await command({ name: 'other' });
      await overwrite(fx.appId, [
        { id: guildId, type: 1, permission: false },
        { id: (BigInt(guildId) - 1n).toString(), type: 3, permission: false },
      ]);
      await refused(place(other), 50013);
      await overwrite(id, [
        { id: ROLE_A, type: 1, permission: true },
        { id: channelId, type: 3, permission: true },
      ]);
      await allowed(place(id, { memberRoleIds: [ROLE_A] }));
      // The command says nothing of this member: the application's @everyone denial applies.
      await refused(place(id), 50013);
      // The application-wide channel denial, where the command has no channel overwrite.
      await refused(place(id, { channelId: otherChannelId, memberRoleIds: [ROLE_A] }), 50013);
    });

    it('guild overwrites do not hold back a command the user installed for themselves', async () => {
      const id = await command({ name: 'both', integration_types: [0, 1], contexts: [0, 1, 2] });
      await overwrite(id, [{ id: guildId, type: 1, permission: false }]);
      await refused(place(id), 50013);
      await allowed(place(id, { authorizingIntegrationOwners: { '0': guildId, '1': userId } }));
      await allowed(place(id, { authorizingIntegrationOwners: { '1': userId } }));
    });
  });
});
