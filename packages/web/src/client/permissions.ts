import {
  ChannelType,
  OverwriteType,
  PermissionFlagsBits,
  type APIChannel,
  type APIGuild,
  type APIGuildMember,
} from 'discord-api-types/v10';

const ALL = (1n << 64n) - 1n;

/**
 * A member's server-wide permissions: @everyone and the member's roles; ADMINISTRATOR and
 * ownership grant everything. Only decides what the client offers: the API checks again.
 */
export function guildPermissions(input: {
  guild: APIGuild;
  member: Pick<APIGuildMember, 'roles'> | undefined;
  userId: string;
}): bigint {
  const { guild, member, userId } = input;
  if (guild.owner_id === userId) return ALL;
  const held = new Set(member?.roles ?? []);
  let base = 0n;
  for (const role of guild.roles) {
    if (role.id === guild.id || held.has(role.id)) base |= BigInt(role.permissions);
  }
  return (base & PermissionFlagsBits.Administrator) !== 0n ? ALL : base;
}

/**
 * A member's permissions in a channel, computed as the platform does: @everyone and the
 * member's roles, ADMINISTRATOR and ownership grant everything, then the channel's overwrites
 * (@everyone, roles, the member). Only decides what the client offers: the API checks again.
 */
export function channelPermissions(input: {
  guild: APIGuild;
  member: Pick<APIGuildMember, 'roles'> | undefined;
  userId: string;
  channel: APIChannel;
}): bigint {
  const { guild, member, userId, channel } = input;
  const base = guildPermissions({ guild, member, userId });
  if (base === ALL) return ALL;
  const held = new Set(member?.roles ?? []);
  const overwrites =
    'permission_overwrites' in channel ? (channel.permission_overwrites ?? []) : [];
  let perms = base;
  const everyone = overwrites.find((o) => o.id === guild.id);
  if (everyone !== undefined) perms = (perms & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type === OverwriteType.Role && held.has(o.id)) {
      allow |= BigInt(o.allow);
      deny |= BigInt(o.deny);
    }
  }
  perms = (perms & ~deny) | allow;
  const own = overwrites.find((o) => o.type === OverwriteType.Member && o.id === userId);
  if (own !== undefined) perms = (perms & ~BigInt(own.deny)) | BigInt(own.allow);
  return perms;
}

/** Whether the current user may do `flag` in a channel; DMs: what a participant may do. */
export function can(
  flag: bigint,
  input: {
    guild: APIGuild | undefined;
    member: Pick<APIGuildMember, 'roles'> | undefined;
    userId: string | null;
    channel: APIChannel;
  },
): boolean {
  const { guild, member, userId, channel } = input;
  if (channel.type === ChannelType.DM || channel.type === ChannelType.GroupDM) {
    // In a DM a participant may manage nothing of others' (pins: yes, as the platform allows).
    return flag !== PermissionFlagsBits.ManageMessages;
  }
  if (guild === undefined || userId === null) return false;
  return (channelPermissions({ guild, member, userId, channel }) & flag) === flag;
}
