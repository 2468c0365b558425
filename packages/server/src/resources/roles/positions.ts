import { ApiError } from '../../errors/index.js';
import type { RoleRecord } from '../../storage/index.js';
import type { GuildAccess } from '../access/index.js';
import type { RolePositionsInput } from './schemas.js';

function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The positions after PATCH /guilds/{id}/roles: the roles named move, the rest keep their order,
 * and every role but @everyone (always 0) is numbered from 1 without gaps. A role that moves up
 * lands above the role already at its target position, one that moves down below it.
 *
 * Hierarchy: a role may be moved only if it is below the caller's highest role, and only to a
 * position below it (the owner aside).
 * @throws ApiError 10011 for a role not in the guild, 50028 to move @everyone, 50013 above rank.
 * @returns the roles whose position changes, with their new position.
 */
export function planRolePositions(
  access: GuildAccess,
  input: RolePositionsInput,
): { role: RoleRecord; position: number }[] {
  const everyoneId = access.guild.id;
  const requested = new Map<string, number>();
  for (const item of input) {
    const role = access.roles.find((candidate) => candidate.id === item.id);
    if (role === undefined) throw new ApiError('UNKNOWN_ROLE');
    const position = item.position ?? role.position;
    if (role.id === everyoneId) {
      if (position !== 0) throw new ApiError('INVALID_ROLE');
      continue;
    }
    if (position === role.position) continue;
    if (!access.outranks(role) || !access.outranks({ ...role, position })) {
      throw new ApiError('MISSING_PERMISSIONS');
    }
    requested.set(role.id, position);
  }
  const ordered = access.roles
    .filter((role) => role.id !== everyoneId)
    .map((role) => {
      const target = requested.get(role.id);
      const bias = target === undefined ? 0 : target > role.position ? 1 : -1;
      return { role, desired: target ?? role.position, bias };
    })
    .sort(
      (a, b) =>
        a.desired - b.desired ||
        a.bias - b.bias ||
        a.role.position - b.role.position ||
        compareIds(a.role.id, b.role.id),
    );
  return ordered
    .map(({ role }, index) => ({ role, position: index + 1 }))
    .filter(({ role, position }) => role.position !== position);
}
