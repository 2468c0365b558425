import { isSnowflake } from '@guildhall/protocol';
import {
  basePermissions,
  channelPermissions,
  hasAll,
  outranksRole,
  type PermissionRole,
  type PermissionSubject,
} from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type {
  ChannelRecord,
  GuildRecord,
  OverwriteRecord,
  Repositories,
  RoleRecord,
} from '../../storage/index.js';

/** What a caller may do in one guild: loaded once per request, checked by every guild route. */
export interface GuildAccess {
  guild: GuildRecord;
  roles: RoleRecord[];
  subject: PermissionSubject;
  /** Guild-level permissions of the caller. */
  permissions: bigint;
  isOwner: boolean;
  /** Throws 50013 Missing Permissions unless the caller holds every bit. */
  require(bits: bigint): void;
  /** The caller's permissions in a channel with these overwrites. */
  inChannel(channel: Pick<ChannelRecord, 'type'>, overwrites: readonly OverwriteRecord[]): bigint;
  /** Whether the caller's highest role is above this one (the owner outranks every role). */
  outranks(role: PermissionRole): boolean;
}

/**
 * Loads the guild and the caller's membership. An unknown or malformed guild id is 10004; a
 * guild the caller is not in is 50001 Missing Access.
 */
export async function loadGuildAccess(
  repos: Repositories,
  request: { guildId: string; userId: string; nowMs: number },
): Promise<GuildAccess> {
  // In a transaction, later changes to this guild wait for this one (PostgreSQL row lock).
  if (repos.inTransaction && isSnowflake(request.guildId)) await repos.guilds.lock(request.guildId);
  const guild = isSnowflake(request.guildId) ? await repos.guilds.findById(request.guildId) : null;
  if (guild === null) throw new ApiError('UNKNOWN_GUILD');
  const [member, roles] = await Promise.all([
    repos.members.find(guild.id, request.userId),
    repos.roles.listByGuild(guild.id),
  ]);
  if (member === null) throw new ApiError('MISSING_ACCESS');
  const subject: PermissionSubject = {
    guildId: guild.id,
    ownerId: guild.ownerId,
    roles: new Map(roles.map((role) => [role.id, role])),
    member: {
      userId: member.userId,
      roleIds: member.roleIds,
      communicationDisabledUntil: member.communicationDisabledUntil,
    },
    nowMs: request.nowMs,
  };
  const permissions = basePermissions(subject);
  return {
    guild,
    roles,
    subject,
    permissions,
    isOwner: guild.ownerId === request.userId,
    require(bits) {
      if (!hasAll(permissions, bits)) throw new ApiError('MISSING_PERMISSIONS');
    },
    inChannel(channel, overwrites) {
      return channelPermissions(subject, {
        type: channel.type,
        overwrites: overwrites.map((o) => ({
          id: o.targetId,
          type: o.type,
          allow: o.allow,
          deny: o.deny,
        })),
      });
    },
    outranks: (role) => outranksRole(subject, role),
  };
}
