import { ApiError } from '../../errors/index.js';
import type { InviteRecord, Repositories } from '../../storage/index.js';

/** Codes the platform could have made: what a lookup accepts before touching the database. */
const CODE_PATTERN = /^[A-Za-z0-9-]{1,32}$/;

/** Whether an invite can no longer be used at `nowMs` (then it is an Unknown Invite). */
export function isExpired(invite: InviteRecord, nowMs: number): boolean {
  return invite.expiresAt !== null && invite.expiresAt <= nowMs;
}

/**
 * Loads a usable invite: a malformed, unknown or expired code is 10006 Unknown Invite.
 * @throws ApiError UNKNOWN_INVITE
 */
export async function findLiveInvite(
  repos: Repositories,
  code: string,
  nowMs: number,
): Promise<InviteRecord> {
  const invite = CODE_PATTERN.test(code) ? await repos.invites.find(code) : null;
  if (invite === null || isExpired(invite, nowMs)) throw new ApiError('UNKNOWN_INVITE');
  return invite;
}
