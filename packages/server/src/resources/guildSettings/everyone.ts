/** @module resources/guildSettings/everyone: what @everyone alone may do in a guild's channels. */
import { ChannelTypes, PermissionFlags as P, isVoiceChannelType } from '@guildhall/protocol';
import { channelPermissions, hasAll } from '../../domain/permissions.js';
import type { ChannelRecord, GuildRecord, Repositories } from '../../storage/index.js';

/** The guild's channels with the permissions a member holding no role has in each. */
export async function everyoneView(repos: Repositories, guild: GuildRecord, nowMs: number) {
  const [channels, roles] = await Promise.all([
    repos.channels.listByGuild(guild.id),
    repos.roles.listByGuild(guild.id),
  ]);
  const overwrites = await repos.overwrites.listByChannels(channels.map((c) => c.id));
  const subject = {
    guildId: guild.id,
    ownerId: guild.ownerId,
    roles: new Map(roles.map((role) => [role.id, role])),
    // Nobody: no id a user can hold, no roles beyond @everyone.
    member: { userId: '0', roleIds: [], communicationDisabledUntil: null },
    nowMs,
  };
  const permissionsIn = (channel: ChannelRecord) =>
    channelPermissions(subject, {
      type: channel.type,
      overwrites: overwrites
        .filter((o) => o.channelId === channel.id)
        .map((o) => ({ id: o.targetId, type: o.type, allow: o.allow, deny: o.deny })),
    });
  return {
    channels,
    /** Text channels where @everyone may read and post. */
    chattable: (channel: ChannelRecord) =>
      (channel.type === ChannelTypes.GUILD_TEXT ||
        channel.type === ChannelTypes.GUILD_ANNOUNCEMENT) &&
      hasAll(permissionsIn(channel), P.VIEW_CHANNEL | P.SEND_MESSAGES),
    /** Voice channels @everyone may see and join (the widget lists them). */
    joinableVoice: (channel: ChannelRecord) =>
      isVoiceChannelType(channel.type) &&
      hasAll(permissionsIn(channel), P.VIEW_CHANNEL | P.CONNECT),
  };
}
