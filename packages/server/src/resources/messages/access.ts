import { ChannelTypes, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { channelPermissions, hasAll, type PermissionSubject } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type {
  ChannelRecord,
  GuildRecord,
  MemberRecord,
  Repositories,
  RoleRecord,
} from '../../storage/index.js';

/** Channel types that hold messages here. */
export const MESSAGE_CHANNEL_TYPES = new Set<number>([
  ChannelTypes.GUILD_TEXT,
  ChannelTypes.GUILD_ANNOUNCEMENT,
  ChannelTypes.GUILD_VOICE,
  ChannelTypes.GUILD_STAGE_VOICE,
]);

/** A message channel with the caller's permissions in it, loaded once per request. */
export interface MessageChannelAccess {
  channel: ChannelRecord & { guildId: string };
  guild: GuildRecord;
  member: MemberRecord;
  /** The guild's roles by id. */
  roles: ReadonlyMap<string, RoleRecord>;
  subject: PermissionSubject;
  permissions: bigint;
  /** Whether the caller holds every bit. */
  has(bits: bigint): boolean;
  /** 50001 without VIEW_CHANNEL, then 50013 unless every bit is held. */
  require(bits: bigint): void;
}

/**
 * Loads a guild channel, its guild, the caller's membership, the guild's roles and the channel's
 * overwrites in one statement. Takes no lock: posting a message must not serialise a guild.
 * Unknown or malformed channel ids, and channels that hold no messages, are 10003; a guild the
 * caller is not in is 50001.
 */
export async function loadMessageChannel(
  repos: Repositories,
  request: { channelId: string; userId: string; nowMs: number },
): Promise<MessageChannelAccess> {
  const context = isSnowflake(request.channelId)
    ? await repos.channels.findAccessContext(request.channelId, request.userId)
    : null;
  if (context === null) throw new ApiError('UNKNOWN_CHANNEL');
  const { channel, guild, member, roles, overwrites } = context;
  if (member === null) throw new ApiError('MISSING_ACCESS');
  const roleMap = new Map(roles.map((role) => [role.id, role]));
  const subject: PermissionSubject = {
    guildId: guild.id,
    ownerId: guild.ownerId,
    roles: roleMap,
    member: {
      userId: member.userId,
      roleIds: member.roleIds,
      communicationDisabledUntil: member.communicationDisabledUntil,
    },
    nowMs: request.nowMs,
  };
  const permissions = channelPermissions(subject, {
    type: channel.type,
    overwrites: overwrites.map((o) => ({
      id: o.targetId,
      type: o.type,
      allow: o.allow,
      deny: o.deny,
    })),
  });
  return {
    channel,
    guild,
    member,
    roles: roleMap,
    subject,
    permissions,
    has: (bits) => hasAll(permissions, bits),
    require(bits) {
      if (!hasAll(permissions, P.VIEW_CHANNEL)) throw new ApiError('MISSING_ACCESS');
      if (!hasAll(permissions, bits)) throw new ApiError('MISSING_PERMISSIONS');
    },
  };
}

/** Whether the member is timed out now. */
export function isTimedOut(access: MessageChannelAccess): boolean {
  const until = access.member.communicationDisabledUntil;
  return until !== null && until > access.subject.nowMs;
}
