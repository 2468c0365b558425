import { highestRolePosition } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type { MemberRecord } from '../../storage/index.js';
import type { GuildAccess } from '../access/index.js';

/** The position of a member's highest role (0 with @everyone only; the owner is above all). */
export function memberTopPosition(
  access: GuildAccess,
  member: Pick<MemberRecord, 'userId' | 'roleIds'>,
): number {
  return highestRolePosition({
    ...access.subject,
    member: { userId: member.userId, roleIds: member.roleIds, communicationDisabledUntil: null },
  });
}

/**
 * The platform's member hierarchy: one acts on (kicks, bans, times out, renames) only members
 * whose highest role is below one's own. The owner is above everyone and nobody acts on them.
 * @throws ApiError 50013 otherwise.
 */
export function assertAboveMember(
  access: GuildAccess,
  member: Pick<MemberRecord, 'userId' | 'roleIds'>,
): void {
  if (member.userId === access.guild.ownerId) throw new ApiError('MISSING_PERMISSIONS');
  if (access.isOwner) return;
  if (highestRolePosition(access.subject) <= memberTopPosition(access, member)) {
    throw new ApiError('MISSING_PERMISSIONS');
  }
}
