import type { Kysely, Selectable } from 'kysely';
import type { InviteRecord, InviteRepository, InviteTargetJobRecord } from '../types/invites.js';
import { bool, flag, id, idOrNull, int, intOrNull, jsonArray } from './rows.js';
import type { Database, InviteTargetJobsTable, InvitesTable } from './schema.js';

/** Rows per statement when adding or removing many target users (well under both drivers' limits). */
const CHUNK = 500;
/** Staged batches per statement (each a JSON array of up to a job batch of ids). */
const STAGED_ROWS = 20;
/** TargetUsersJobStatusTypes PROCESSING (resources/invites/jobs.ts JobStatus). */
const JOB_PROCESSING = 1;

function toInvite(row: Selectable<InvitesTable>): InviteRecord {
  return {
    code: row.code,
    guildId: id(row.guild_id),
    channelId: id(row.channel_id),
    inviterId: idOrNull(row.inviter_id),
    maxAge: int(row.max_age),
    maxUses: int(row.max_uses),
    uses: int(row.uses),
    temporary: bool(row.temporary),
    targetType: intOrNull(row.target_type),
    targetUserId: idOrNull(row.target_user_id),
    targetApplicationId: idOrNull(row.target_application_id),
    roleIds: jsonArray(row.role_ids),
    targeted: bool(row.targeted),
    createdAt: int(row.created_at),
    expiresAt: intOrNull(row.expires_at),
  };
}

function toJob(row: Selectable<InviteTargetJobsTable>): InviteTargetJobRecord {
  return {
    code: row.code,
    jobId: row.job_id,
    status: int(row.status),
    totalUsers: int(row.total_users),
    processedUsers: int(row.processed_users),
    createdAt: int(row.created_at),
    completedAt: intOrNull(row.completed_at),
    errorMessage: row.error_message,
  };
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export function createInviteRepository(db: Kysely<Database>): InviteRepository {
  const list = async (column: 'guild_id' | 'channel_id', value: string) => {
    const rows = await db
      .selectFrom('invites')
      .selectAll()
      .where(column, '=', value)
      .orderBy('created_at')
      .orderBy('code')
      .execute();
    return rows.map(toInvite);
  };

  return {
    async create(invite) {
      const result = await db
        .insertInto('invites')
        .values({
          code: invite.code,
          guild_id: invite.guildId,
          channel_id: invite.channelId,
          inviter_id: invite.inviterId,
          max_age: invite.maxAge,
          max_uses: invite.maxUses,
          uses: invite.uses,
          temporary: flag(invite.temporary),
          target_type: invite.targetType,
          target_user_id: invite.targetUserId,
          target_application_id: invite.targetApplicationId,
          role_ids: JSON.stringify(invite.roleIds),
          targeted: flag(invite.targeted),
          created_at: invite.createdAt,
          expires_at: invite.expiresAt,
        })
        .onConflict((oc) => oc.column('code').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async find(code) {
      const row = await db
        .selectFrom('invites')
        .selectAll()
        .where('code', '=', code)
        .executeTakeFirst();
      return row ? toInvite(row) : null;
    },
    listByGuild: (guildId) => list('guild_id', guildId),
    listByChannel: (channelId) => list('channel_id', channelId),
    async addUse(code) {
      // One statement decides: on PostgreSQL a concurrent use waits for the row and re-checks
      // the condition against the count it committed.
      const result = await db
        .updateTable('invites')
        .set((eb) => ({ uses: eb('uses', '+', 1) }))
        .where('code', '=', code)
        .where((eb) => eb.or([eb('max_uses', '=', 0), eb('uses', '<', eb.ref('max_uses'))]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      const row = await db
        .selectFrom('invites')
        .select('uses')
        .where('code', '=', code)
        .executeTakeFirst();
      return row ? int(row.uses) : null;
    },
    async setTargeted(code) {
      await db.updateTable('invites').set({ targeted: 1 }).where('code', '=', code).execute();
    },
    async delete(code) {
      const result = await db.deleteFrom('invites').where('code', '=', code).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listTargetUsers(code) {
      const rows = await db
        .selectFrom('invite_target_users')
        .select('user_id')
        .where('code', '=', code)
        .orderBy('user_id')
        .execute();
      return rows.map((row) => id(row.user_id));
    },
    async isTargetUser(code, userId) {
      const row = await db
        .selectFrom('invite_target_users')
        .select('user_id')
        .where('code', '=', code)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },
    async countTargetUsers(code) {
      const row = await db
        .selectFrom('invite_target_users')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('code', '=', code)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async addTargetUsers(code, userIds) {
      // In one order everywhere, so that a job's batch and a bulk-add writing the same users at
      // once on PostgreSQL wait for each other instead of deadlocking.
      for (const chunk of chunks([...new Set(userIds)].sort())) {
        await db
          .insertInto('invite_target_users')
          .values(chunk.map((userId) => ({ code, user_id: userId })))
          .onConflict((oc) => oc.columns(['code', 'user_id']).doNothing())
          .execute();
      }
    },
    async removeTargetUsers(code, userIds) {
      for (const chunk of chunks(userIds)) {
        await db
          .deleteFrom('invite_target_users')
          .where('code', '=', code)
          .where('user_id', 'in', chunk)
          .execute();
      }
    },
    async clearTargetUsers(code) {
      await db.deleteFrom('invite_target_users').where('code', '=', code).execute();
    },
    async putJob(job) {
      const values = {
        job_id: job.jobId,
        status: job.status,
        total_users: job.totalUsers,
        processed_users: job.processedUsers,
        created_at: job.createdAt,
        completed_at: job.completedAt,
        error_message: job.errorMessage,
      };
      const row = { ...values, lease_owner: null, lease_until: null };
      await db
        .insertInto('invite_target_jobs')
        .values({ code: job.code, ...row })
        .onConflict((oc) => oc.column('code').doUpdateSet(row))
        .execute();
    },
    async stageBatches(code, jobId, batches) {
      await db.deleteFrom('invite_target_job_batches').where('code', '=', code).execute();
      const rows = batches.map((userIds, seq) => ({
        code,
        job_id: jobId,
        seq,
        user_ids: JSON.stringify(userIds),
      }));
      for (let i = 0; i < rows.length; i += STAGED_ROWS) {
        await db
          .insertInto('invite_target_job_batches')
          .values(rows.slice(i, i + STAGED_ROWS))
          .execute();
      }
    },
    async nextBatch(code, jobId) {
      const row = await db
        .selectFrom('invite_target_job_batches')
        .select(['seq', 'user_ids'])
        .where('code', '=', code)
        .where('job_id', '=', jobId)
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst();
      return row ? { seq: int(row.seq), userIds: jsonArray(row.user_ids) } : null;
    },
    async dropBatch(code, jobId, seq) {
      await db
        .deleteFrom('invite_target_job_batches')
        .where('code', '=', code)
        .where('job_id', '=', jobId)
        .where('seq', '=', seq)
        .execute();
    },
    async claimJob(claim) {
      const result = await db
        .updateTable('invite_target_jobs')
        .set({ lease_owner: claim.owner, lease_until: claim.untilMs })
        .where('code', '=', claim.code)
        .where('job_id', '=', claim.jobId)
        .where('status', '=', JOB_PROCESSING)
        .where((eb) =>
          eb.or([
            eb('lease_until', 'is', null),
            eb('lease_until', '<=', claim.nowMs),
            eb('lease_owner', '=', claim.owner),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async releaseJob(code, jobId, owner) {
      await db
        .updateTable('invite_target_jobs')
        .set({ lease_owner: null, lease_until: null })
        .where('code', '=', code)
        .where('job_id', '=', jobId)
        .where('lease_owner', '=', owner)
        .execute();
    },
    async listClaimableJobs(nowMs) {
      const rows = await db
        .selectFrom('invite_target_jobs')
        .select(['code', 'job_id'])
        .where('status', '=', JOB_PROCESSING)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowMs)]))
        .orderBy('created_at')
        .execute();
      return rows.map((row) => ({ code: row.code, jobId: row.job_id }));
    },
    async findJob(code) {
      const row = await db
        .selectFrom('invite_target_jobs')
        .selectAll()
        .where('code', '=', code)
        .executeTakeFirst();
      return row ? toJob(row) : null;
    },
    async updateJob(code, jobId, patch) {
      const result = await db
        .updateTable('invite_target_jobs')
        .set({
          ...(patch.status === undefined ? {} : { status: patch.status }),
          ...(patch.processedUsers === undefined ? {} : { processed_users: patch.processedUsers }),
          ...(patch.completedAt === undefined ? {} : { completed_at: patch.completedAt }),
          ...(patch.errorMessage === undefined ? {} : { error_message: patch.errorMessage }),
        })
        .where('code', '=', code)
        .where('job_id', '=', jobId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
