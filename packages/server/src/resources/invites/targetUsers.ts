import { PermissionFlags as P } from '@guildhall/protocol';
import type { Clock } from '../../domain/clock.js';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { InviteRecord, Repositories, Storage } from '../../storage/index.js';
import type { AccessFor } from '../access/index.js';
import type { TargetUsersJobs } from './jobs.js';
import { findLiveInvite } from './lookup.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The invite's target users (docs/platform-notes.md#invite-routes): reading (the CSV, the job
 * status) is for the inviter or holders of MANAGE_GUILD or VIEW_AUDIT_LOG; changing them for the
 * inviter or MANAGE_GUILD.
 */
export function createTargetUserOperations(deps: {
  storage: Storage;
  clock: Clock;
  jobs: TargetUsersJobs;
  accessFor: AccessFor;
}) {
  const { storage, clock, jobs, accessFor } = deps;

  const authorize = async (
    repos: Repositories,
    request: { principal: Principal; code: string; write: boolean },
  ): Promise<InviteRecord> => {
    const invite = await findLiveInvite(repos, request.code, clock.now());
    if (invite.inviterId === request.principal.user.id) return invite;
    const access = await accessFor(repos, request.principal, invite.guildId);
    const allowed = request.write ? [P.MANAGE_GUILD] : [P.MANAGE_GUILD, P.VIEW_AUDIT_LOG];
    if (!allowed.some((bit) => (access.permissions & bit) === bit)) {
      throw new ApiError('MISSING_PERMISSIONS');
    }
    return invite;
  };

  /** Adds or removes users in place, in one transaction. */
  const change = async (
    principal: Principal,
    request: { code: string; add: boolean; userIds: readonly string[] },
  ) => {
    await storage.transaction(async (tx) => {
      const invite = await authorize(tx, { principal, code: request.code, write: true });
      if (request.add) {
        await tx.invites.addTargetUsers(invite.code, request.userIds);
        await tx.invites.setTargeted(invite.code);
      } else {
        await tx.invites.removeTargetUsers(invite.code, request.userIds);
      }
    });
  };

  return {
    /**
     * GET /invites/{code}/target-users: `user_id` then one id per line.
     * @throws ApiError 10129 when the invite has no target users.
     */
    async targetUsersCsv(principal: Principal, code: string): Promise<string> {
      const invite = await authorize(storage, { principal, code, write: false });
      const userIds = await storage.invites.listTargetUsers(invite.code);
      if (userIds.length === 0) throw new ApiError('UNKNOWN_INVITE_TARGET_USERS');
      return `user_id\n${userIds.join('\n')}\n`;
    },

    /**
     * PUT /invites/{code}/target-users: replaces the whole list as a background job; answers at
     * once (its progress is at job-status).
     */
    async replaceTargetUsers(principal: Principal, code: string, userIds: readonly string[]) {
      const { invite, jobId } = await storage.transaction(async (tx) => {
        const found = await authorize(tx, { principal, code, write: true });
        return { invite: found, jobId: await jobs.prepare(tx, found.code, userIds) };
      });
      jobs.start(invite.code, jobId);
    },

    /**
     * GET /invites/{code}/target-users/job-status.
     * @throws ApiError 10124 when no file was ever uploaded for the invite.
     */
    async jobStatus(principal: Principal, code: string) {
      const invite = await authorize(storage, { principal, code, write: false });
      const job = await storage.invites.findJob(invite.code);
      if (job === null) throw new ApiError('UNKNOWN_INVITE_TARGET_USERS_JOB');
      return {
        status: job.status,
        total_users: job.totalUsers,
        processed_users: job.processedUsers,
        created_at: iso(job.createdAt),
        completed_at: iso(job.completedAt),
        error_message: job.errorMessage,
      };
    },

    addTargetUsers: (principal: Principal, code: string, userIds: readonly string[]) =>
      change(principal, { code, add: true, userIds }),

    removeTargetUsers: (principal: Principal, code: string, userIds: readonly string[]) =>
      change(principal, { code, add: false, userIds }),
  };
}
