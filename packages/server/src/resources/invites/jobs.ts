import { randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import type { Repositories, Storage } from '../../storage/index.js';

/** TargetUsersJobStatusTypes (openapi.json). */
export const JobStatus = { UNSPECIFIED: 0, PROCESSING: 1, COMPLETED: 2, FAILED: 3 } as const;

/** Ids written per transaction; the event loop is free between batches. */
export const JOB_BATCH_SIZE = 1000;

const FAILED_MESSAGE = 'The target users could not be saved; upload the file again.';
const INTERRUPTED_MESSAGE = 'The server stopped before the job finished; upload the file again.';

/** Thrown inside a batch transaction to roll it back when a newer job owns the invite. */
class JobReplaced extends Error {}

const nextTurn = () =>
  new Promise<void>((resolve) => {
    setImmediate(resolve);
  });

/**
 * Replaces invites' target users from uploaded files in the background. The job's state lives in
 * the database (invite_target_jobs), so any node answers job-status; the ids being written live
 * in the memory of the node that accepted the upload. Each batch is one transaction that first
 * checks the job still owns the invite, so a newer upload (or the invite's deletion) stops an
 * older run without mixing their lists.
 */
export function createTargetUsersJobs(deps: { storage: Storage; clock: Clock }) {
  const { storage, clock } = deps;
  const running = new Map<string, Promise<void>>();
  let closed = false;

  const run = async (code: string, jobId: string, userIds: readonly string[]) => {
    try {
      for (let start = 0; start < userIds.length; start += JOB_BATCH_SIZE) {
        // Let requests waiting on the event loop in before each batch.
        await nextTurn();
        if (closed) {
          await storage.invites.updateJob(code, jobId, {
            status: JobStatus.FAILED,
            errorMessage: INTERRUPTED_MESSAGE,
          });
          return;
        }
        const batch = userIds.slice(start, start + JOB_BATCH_SIZE);
        await storage.transaction(async (tx) => {
          const owned = await tx.invites.updateJob(code, jobId, {
            processedUsers: start + batch.length,
          });
          if (!owned) throw new JobReplaced();
          await tx.invites.addTargetUsers(code, batch);
        });
      }
      await storage.invites.updateJob(code, jobId, {
        status: JobStatus.COMPLETED,
        completedAt: clock.now(),
      });
    } catch (err) {
      if (err instanceof JobReplaced) return;
      await storage.invites
        .updateJob(code, jobId, { status: JobStatus.FAILED, errorMessage: FAILED_MESSAGE })
        .catch(() => undefined);
    }
  };

  return {
    /**
     * Inside the caller's transaction: takes the invite's job over (first, so on PostgreSQL an
     * older run's open batch commits before the list is cleared), clears the list and marks the
     * invite as admitting only its target users. Returns the job id to pass to {@link start}.
     */
    async prepare(tx: Repositories, code: string, total: number): Promise<string> {
      const jobId = randomUUID();
      await tx.invites.putJob({
        code,
        jobId,
        status: JobStatus.PROCESSING,
        totalUsers: total,
        processedUsers: 0,
        createdAt: clock.now(),
        completedAt: null,
        errorMessage: null,
      });
      await tx.invites.clearTargetUsers(code);
      await tx.invites.setTargeted(code);
      return jobId;
    },

    /** After the preparing transaction commits: runs the job in the background. */
    start(code: string, jobId: string, userIds: readonly string[]): void {
      const job = run(code, jobId, userIds).finally(() => {
        if (running.get(jobId) === job) running.delete(jobId);
      });
      running.set(jobId, job);
    },

    /** Stops the running jobs after their current batch (each marked FAILED, to upload again). */
    async close(): Promise<void> {
      closed = true;
      await Promise.all(running.values());
    },
  };
}

export type TargetUsersJobs = ReturnType<typeof createTargetUsersJobs>;
