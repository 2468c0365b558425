/**
 * What an invite's create checks before it writes: the guild's invites open, the roles it gives
 * and the target it names; and the codes new invites get.
 */
import { randomInt } from 'node:crypto';
import { ALL_PERMISSIONS, PermissionFlags as P } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Repositories } from '../../storage/index.js';
import type { GuildAccess } from '../access/index.js';
import { InviteTargetTypes, type CreateInviteInput } from './schemas.js';

/**
 * Refuses invites to a guild whose invites are paused (40006): by its INVITES_DISABLED feature
 * or, until the time they name, by its incident actions (PUT /guilds/{id}/incident-actions).
 */
export async function assertInvitesOpen(
  tx: Repositories,
  guildId: string,
  nowMs: number,
): Promise<void> {
  const [guild, incidents] = await Promise.all([
    tx.guilds.findById(guildId),
    tx.guildSettings.get(guildId, 'incident_actions'),
  ]);
  const until = incidents?.['invites_disabled_until'];
  if (
    guild?.features.includes('INVITES_DISABLED') === true ||
    (typeof until === 'number' && until > nowMs)
  ) {
    throw new ApiError('FEATURE_TEMPORARILY_DISABLED');
  }
}

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CODE_LENGTH = 10;

/** A new invite code: 10 letters and digits. */
export function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++)
    code += CODE_ALPHABET.charAt(randomInt(CODE_ALPHABET.length));
  return code;
}

/** Checks role_ids: MANAGE_ROLES, roles of this guild, assignable, below the caller. */
export function checkRoles(access: GuildAccess, roleIds: readonly string[]): void {
  if (roleIds.length === 0) return;
  access.require(P.MANAGE_ROLES);
  const byId = new Map(access.roles.map((role) => [role.id, role]));
  for (const roleId of roleIds) {
    const role = byId.get(roleId);
    // @everyone (the guild's id) is everyone's already; it cannot be given.
    if (role === undefined || role.id === access.guild.id) throw new ApiError('UNKNOWN_ROLE');
    if (role.managed) throw new ApiError('MISSING_PERMISSIONS');
    // Owner and administrators may give any role; others only roles below their highest.
    if (access.permissions !== ALL_PERMISSIONS && !access.outranks(role)) {
      throw new ApiError('MISSING_PERMISSIONS');
    }
  }
}

/** target_type needs its target: a user to stream (1) or an application (2). */
export async function checkTarget(repos: Repositories, input: CreateInviteInput) {
  const type = input.target_type ?? null;
  const userId = input.target_user_id ?? null;
  const applicationId = input.target_application_id ?? null;
  if (type === InviteTargetTypes.STREAM) {
    if (userId === null) {
      throw invalidField(['target_user_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    if ((await repos.users.findById(userId)) === null) throw new ApiError('UNKNOWN_USER');
  }
  if (type === InviteTargetTypes.EMBEDDED_APPLICATION) {
    if (applicationId === null) {
      throw invalidField(['target_application_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    if ((await repos.applications.findById(applicationId)) === null) {
      throw new ApiError('UNKNOWN_APPLICATION');
    }
  }
  return {
    targetType: type,
    targetUserId: type === InviteTargetTypes.STREAM ? userId : null,
    targetApplicationId: type === InviteTargetTypes.EMBEDDED_APPLICATION ? applicationId : null,
  };
}
