import { randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import type { Repositories, Storage } from '../../storage/index.js';

/** TargetUsersJobStatusTypes (openapi.json). */
export const JobStatus = { UNSPECIFIED: 0, PROCESSING: 1, COMPLETED: 2, FAILED: 3 } as const;

/** Ids written per transaction; the event loop is free between batches. */
export const JOB_BATCH_SIZE = 1000;

/** How long a node's claim on a job lasts without a batch renewing it. */
export const JOB_LEASE_MS = 30_000;

/** How often a running node looks for jobs whose node stopped (their lease ran out). */
const SWEEP_INTERVAL_MS = JOB_LEASE_MS / 2;

const FAILED_MESSAGE = 'The target users could not be saved; upload the file again.';

const nextTurn = () =>
  new Promise<void>((resolve) => {
    setImmediate(resolve);
  });

function batchesOf(userIds: readonly string[]): string[][] {
  const batches: string[][] = [];
  for (let i = 0; i < userIds.length; i += JOB_BATCH_SIZE) {
    batches.push(userIds.slice(i, i + JOB_BATCH_SIZE));
  }
  return batches;
}

/**
 * Replaces invites' target users from uploaded files in the background, durably. The transaction
 * that accepts an upload writes the job (invite_target_jobs) and stages its ids in batches
 * (invite_target_job_batches); a node then claims the job with a lease and moves one staged batch
 * per transaction into the list, renewing the lease and counting progress in that transaction.
 * A node that stops releases its leases; one that crashes lets them run out. Jobs left PROCESSING
 * are resumed by {@link TargetUsersJobs.resume} (at start, and on a timer) on whichever node
 * claims them first; the claim is one conditional UPDATE, so two nodes never run one job. A newer
 * upload (or the invite's deletion) replaces the job row, and the older run's next claim fails.
 */
export function createTargetUsersJobs(deps: { storage: Storage; clock: Clock }) {
  const { storage, clock } = deps;
  /** This node's name on the leases it holds. */
  const owner = randomUUID();
  const running = new Map<string, Promise<void>>();
  let sweep: NodeJS.Timeout | null = null;
  let closed = false;

  /** One batch in one transaction; false once the job is done or no longer this node's. */
  const step = (code: string, jobId: string): Promise<boolean> =>
    storage.transaction(async (tx) => {
      const now = clock.now();
      const claim = { code, jobId, owner, nowMs: now, untilMs: now + JOB_LEASE_MS };
      if (!(await tx.invites.claimJob(claim))) return false;
      const batch = await tx.invites.nextBatch(code, jobId);
      if (batch === null) {
        await tx.invites.updateJob(code, jobId, {
          status: JobStatus.COMPLETED,
          completedAt: now,
        });
        return false;
      }
      const job = await tx.invites.findJob(code);
      await tx.invites.addTargetUsers(code, batch.userIds);
      await tx.invites.dropBatch(code, jobId, batch.seq);
      await tx.invites.updateJob(code, jobId, {
        processedUsers: (job?.processedUsers ?? 0) + batch.userIds.length,
      });
      return true;
    });

  const run = async (code: string, jobId: string) => {
    try {
      for (;;) {
        // Let requests waiting on the event loop in before each batch.
        await nextTurn();
        if (closed) {
          await storage.invites.releaseJob(code, jobId, owner);
          return;
        }
        if (!(await step(code, jobId))) return;
      }
    } catch {
      await storage
        .transaction(async (tx) => {
          const failed = { status: JobStatus.FAILED, errorMessage: FAILED_MESSAGE };
          if (await tx.invites.updateJob(code, jobId, failed)) {
            await tx.invites.stageBatches(code, jobId, []);
          }
        })
        .catch(() => undefined);
    }
  };

  /** Runs the job here unless this node runs it already (its first step claims it). */
  const launch = (code: string, jobId: string) => {
    if (closed || running.has(jobId)) return;
    const job = run(code, jobId).finally(() => {
      running.delete(jobId);
    });
    running.set(jobId, job);
  };

  const resumeOnce = async () => {
    for (const job of await storage.invites.listClaimableJobs(clock.now())) {
      launch(job.code, job.jobId);
    }
  };

  return {
    /**
     * Inside the caller's transaction: takes the invite's job over (first, so on PostgreSQL an
     * older run's open batch commits before the list is cleared), stages the ids, clears the list
     * and marks the invite as admitting only its target users. Returns the job id to pass to
     * {@link start}.
     */
    async prepare(tx: Repositories, code: string, userIds: readonly string[]): Promise<string> {
      const jobId = randomUUID();
      await tx.invites.putJob({
        code,
        jobId,
        status: JobStatus.PROCESSING,
        totalUsers: userIds.length,
        processedUsers: 0,
        createdAt: clock.now(),
        completedAt: null,
        errorMessage: null,
      });
      await tx.invites.stageBatches(code, jobId, batchesOf(userIds));
      await tx.invites.clearTargetUsers(code);
      await tx.invites.setTargeted(code);
      return jobId;
    },

    /** After the preparing transaction commits: runs the job here in the background. */
    start(code: string, jobId: string): void {
      launch(code, jobId);
    },

    /**
     * Runs here the jobs no node holds (left PROCESSING by a stopped node), now and then every
     * {@link SWEEP_INTERVAL_MS} until {@link close}. Errors go to `onError`; it never rejects.
     */
    async resume(onError: (err: unknown) => void): Promise<void> {
      const once = () => resumeOnce().catch(onError);
      if (sweep === null && !closed) {
        sweep = setInterval(() => void once(), SWEEP_INTERVAL_MS);
        sweep.unref();
      }
      await once();
    },

    /** Stops the running jobs after their current batch, releasing them to the next node. */
    async close(): Promise<void> {
      closed = true;
      if (sweep !== null) clearInterval(sweep);
      await Promise.all(running.values());
    },
  };
}

export type TargetUsersJobs = ReturnType<typeof createTargetUsersJobs>;
