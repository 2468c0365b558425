import { ALL_PERMISSIONS, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { hasAll } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type { ChannelRecord, OverwriteRecord, Repositories } from '../../storage/index.js';
import { loadGuildAccess, type GuildAccess } from '../access/index.js';

/** A guild channel with the caller's access to it. */
export interface ChannelAccess {
  channel: ChannelRecord & { guildId: string };
  overwrites: OverwriteRecord[];
  guild: GuildAccess;
  /** The caller's permissions in this channel. */
  permissions: bigint;
  /**
   * Throws 50001 when the caller cannot see the channel, then 50013 unless it holds every bit
   * in the channel.
   */
  require(bits: bigint): void;
}

/**
 * Loads a guild channel and the caller's permissions in it. An unknown or malformed id is 10003
 * (so is a channel outside any guild: private channels have no routes yet); a guild the caller is
 * not in is 50001.
 */
export async function loadChannelAccess(
  repos: Repositories,
  request: { channelId: string; userId: string; nowMs: number },
): Promise<ChannelAccess> {
  const found = isSnowflake(request.channelId)
    ? await repos.channels.findById(request.channelId)
    : null;
  if (found?.guildId == null) throw new ApiError('UNKNOWN_CHANNEL');
  const channel = { ...found, guildId: found.guildId };
  const [guild, overwrites] = await Promise.all([
    loadGuildAccess(repos, {
      guildId: channel.guildId,
      userId: request.userId,
      nowMs: request.nowMs,
    }),
    repos.overwrites.listByChannel(channel.id),
  ]);
  const permissions = guild.inChannel(channel, overwrites);
  return {
    channel,
    overwrites,
    guild,
    permissions,
    require(bits) {
      if (!hasAll(permissions, P.VIEW_CHANNEL)) throw new ApiError('MISSING_ACCESS');
      if (!hasAll(permissions, bits)) throw new ApiError('MISSING_PERMISSIONS');
    },
  };
}

/**
 * What a caller may put in overwrites (the platform's rule for channel create, modify and
 * overwrite edits): only bits it holds itself (`held`), and MANAGE_ROLES only as an
 * administrator. The owner and administrators may grant anything.
 */
export function assertGrantable(
  guild: GuildAccess,
  held: bigint,
  overwrites: readonly { allow: bigint; deny: bigint }[],
): void {
  if (guild.permissions === ALL_PERMISSIONS) return;
  for (const overwrite of overwrites) {
    const bits = overwrite.allow | overwrite.deny;
    if ((bits & P.MANAGE_ROLES) !== 0n || (bits & ~held) !== 0n) {
      throw new ApiError('MISSING_PERMISSIONS');
    }
  }
}

/** Checks that each overwrite targets a role of the guild (type 0) or one of its members (1). */
export async function assertOverwriteTargets(
  repos: Repositories,
  guild: GuildAccess,
  overwrites: readonly { id: string; type: 0 | 1 }[],
): Promise<void> {
  const roleIds = new Set(guild.roles.map((role) => role.id));
  for (const overwrite of overwrites) {
    if (overwrite.type === 0) {
      if (!roleIds.has(overwrite.id)) throw new ApiError('UNKNOWN_ROLE');
    } else if ((await repos.members.find(guild.guild.id, overwrite.id)) === null) {
      throw new ApiError('UNKNOWN_MEMBER');
    }
  }
}
