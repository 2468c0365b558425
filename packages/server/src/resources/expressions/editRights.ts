import { hasAll } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type { GuildAccess } from '../access/index.js';

/** The two permissions of a split pair (spec, Permission bits: CREATE_* split from MANAGE_*). */
export interface SplitPermission {
  create: bigint;
  manage: bigint;
}

/**
 * Editing or deleting an emoji, sticker or scheduled event. The caller's own need the CREATE_ or
 * the MANAGE_ permission; others' need MANAGE_ (spec, Permissions: "editing others' still needs
 * the MANAGE_ permission"). Throws 50013 otherwise.
 */
export function requireEditRights(
  access: GuildAccess,
  creatorId: string | null,
  split: SplitPermission,
): void {
  const own = creatorId !== null && creatorId === access.subject.member.userId;
  const allowed =
    hasAll(access.permissions, split.manage) || (own && hasAll(access.permissions, split.create));
  if (!allowed) throw new ApiError('MISSING_PERMISSIONS');
}

/** Whether the caller holds either permission of the pair (who may see an expression's creator). */
export function holdsEither(access: GuildAccess, split: SplitPermission): boolean {
  return hasAll(access.permissions, split.create) || hasAll(access.permissions, split.manage);
}

/** What every mutation carries besides its fields: the X-Audit-Log-Reason for its entry. */
export interface Mutation {
  reason: string | null;
}
