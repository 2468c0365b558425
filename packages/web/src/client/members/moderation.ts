import { PermissionFlagsBits, type APIGuild, type APIGuildMember } from 'discord-api-types/v10';
import { guildPermissions } from '../permissions.js';

/** What a person may do to another member from the member list. */
export type MemberAction = 'roles' | 'timeout' | 'kick' | 'ban';

/** The permission each action needs, as the API checks it. */
const NEEDS: Record<MemberAction, bigint> = {
  roles: PermissionFlagsBits.ManageRoles,
  timeout: PermissionFlagsBits.ModerateMembers,
  kick: PermissionFlagsBits.KickMembers,
  ban: PermissionFlagsBits.BanMembers,
};

/** The position of a member's highest role (@everyone's 0 when they have none). */
export function highestPosition(
  guild: APIGuild,
  member: Pick<APIGuildMember, 'roles'> | undefined,
) {
  const held = new Set(member?.roles ?? []);
  let top = 0;
  for (const role of guild.roles) if (held.has(role.id) && role.position > top) top = role.position;
  return top;
}

/**
 * The actions `meId` is offered on `targetId`, as the API would allow them: never on oneself or
 * the owner; the permission each needs; and, unless the person owns the guild, only on a member
 * whose highest role is below their own (the role hierarchy). Roles are offered on oneself too
 * (the roles below one's own). Only decides what the client offers: the API checks again.
 */
export function memberActions(input: {
  guild: APIGuild;
  me: Pick<APIGuildMember, 'roles'> | undefined;
  meId: string;
  target: Pick<APIGuildMember, 'roles'>;
  targetId: string;
}): MemberAction[] {
  const { guild, me, meId, target, targetId } = input;
  if (targetId === guild.owner_id) return [];
  const perms = guildPermissions({ guild, member: me, userId: meId });
  const owner = meId === guild.owner_id;
  const above = owner || highestPosition(guild, me) > highestPosition(guild, target);
  return (Object.keys(NEEDS) as MemberAction[]).filter((action) => {
    if ((perms & NEEDS[action]) === 0n) return false;
    if (action === 'roles') return targetId === meId || above;
    return targetId !== meId && above;
  });
}

/** The roles `meId` may give or take: below their highest (any, for the owner), not managed. */
export function assignableRoles(
  guild: APIGuild,
  me: Pick<APIGuildMember, 'roles'> | undefined,
  meId: string,
) {
  const top = meId === guild.owner_id ? Infinity : highestPosition(guild, me);
  return guild.roles
    .filter((role) => role.id !== guild.id && !role.managed && role.position < top)
    .sort((a, b) => b.position - a.position);
}

/** Timeout lengths the client offers, as the platform's client does. */
export const TIMEOUTS: readonly { label: string; seconds: number }[] = [
  { label: '60 seconds', seconds: 60 },
  { label: '5 minutes', seconds: 5 * 60 },
  { label: '10 minutes', seconds: 10 * 60 },
  { label: '1 hour', seconds: 60 * 60 },
  { label: '1 day', seconds: 24 * 60 * 60 },
  { label: '1 week', seconds: 7 * 24 * 60 * 60 },
];

/** How much of a banned member's recent messages a ban deletes. */
export const BAN_HISTORY: readonly { label: string; seconds: number }[] = [
  { label: "Don't delete any", seconds: 0 },
  { label: 'Previous hour', seconds: 60 * 60 },
  { label: 'Previous 24 hours', seconds: 24 * 60 * 60 },
  { label: 'Previous 7 days', seconds: 7 * 24 * 60 * 60 },
];
