/** Guild invites, their target users and the jobs that replace them. */

/** A guild invite. `expiresAt` is null for one that never expires (max_age 0). */
export interface InviteRecord {
  code: string;
  guildId: string;
  channelId: string;
  inviterId: string | null;
  maxAge: number;
  maxUses: number;
  uses: number;
  temporary: boolean;
  targetType: number | null;
  targetUserId: string | null;
  targetApplicationId: string | null;
  /** Roles given to whoever accepts. */
  roleIds: string[];
  /** Whether only the invite's target users may accept it. */
  targeted: boolean;
  createdAt: number;
  expiresAt: number | null;
}

/** The asynchronous job that replaces an invite's target users from an uploaded file. */
export interface InviteTargetJobRecord {
  code: string;
  /** The run owning the job; a newer upload takes the row over and older runs stop. */
  jobId: string;
  /** 0 UNSPECIFIED, 1 PROCESSING, 2 COMPLETED, 3 FAILED. */
  status: number;
  totalUsers: number;
  processedUsers: number;
  createdAt: number;
  completedAt: number | null;
  errorMessage: string | null;
}

/** A batch of ids staged for a target-users job. */
export interface InviteTargetJobBatch {
  seq: number;
  userIds: string[];
}

export interface InviteTargetJobClaim {
  code: string;
  jobId: string;
  owner: string;
  nowMs: number;
  untilMs: number;
}

export interface InviteRepository {
  /** Creates an invite; false (nothing written) when the code is taken. */
  create(invite: InviteRecord): Promise<boolean>;
  find(code: string): Promise<InviteRecord | null>;
  /** By creation time, oldest first. */
  listByGuild(guildId: string): Promise<InviteRecord[]>;
  listByChannel(channelId: string): Promise<InviteRecord[]>;
  /** Adds one use; returns the new count, or null when the invite is gone or used up. */
  addUse(code: string): Promise<number | null>;
  /** Marks the invite as admitting only its target users. */
  setTargeted(code: string): Promise<void>;
  /** Returns whether it existed. */
  delete(code: string): Promise<boolean>;
  /** Target user ids, ascending. */
  listTargetUsers(code: string): Promise<string[]>;
  isTargetUser(code: string, userId: string): Promise<boolean>;
  countTargetUsers(code: string): Promise<number>;
  /** Adds users (ones already listed are skipped). */
  addTargetUsers(code: string, userIds: readonly string[]): Promise<void>;
  removeTargetUsers(code: string, userIds: readonly string[]): Promise<void>;
  clearTargetUsers(code: string): Promise<void>;
  /** Creates or replaces the invite's job (with no lease: any node may claim it). */
  putJob(job: InviteTargetJobRecord): Promise<void>;
  /** Replaces the ids staged for the invite's job (every job's) with these batches, in order. */
  stageBatches(code: string, jobId: string, batches: readonly (readonly string[])[]): Promise<void>;
  /** The job's first staged batch, or null when none is left. */
  nextBatch(code: string, jobId: string): Promise<InviteTargetJobBatch | null>;
  dropBatch(code: string, jobId: string, seq: number): Promise<void>;
  /**
   * Takes or renews the lease of a PROCESSING job for `owner` until `untilMs`, when the job is
   * still `jobId`'s and its lease is free, run out at `nowMs`, or already the owner's. Returns
   * whether it did: one conditional UPDATE, so of two nodes claiming at once only one wins.
   */
  claimJob(claim: InviteTargetJobClaim): Promise<boolean>;
  /** Frees the owner's lease of the job (its node stops; another may take the job at once). */
  releaseJob(code: string, jobId: string, owner: string): Promise<void>;
  /** PROCESSING jobs whose lease is free or has run out at `nowMs`. */
  listClaimableJobs(nowMs: number): Promise<{ code: string; jobId: string }[]>;
  findJob(code: string): Promise<InviteTargetJobRecord | null>;
  /**
   * Updates the job only while `jobId` still owns it; returns whether it did (false: the job
   * was replaced or the invite deleted).
   */
  updateJob(
    code: string,
    jobId: string,
    patch: Partial<
      Pick<InviteTargetJobRecord, 'status' | 'processedUsers' | 'completedAt' | 'errorMessage'>
    >,
  ): Promise<boolean>;
}
