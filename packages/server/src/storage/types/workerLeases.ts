/** Snowflake worker slots leased by the processes sharing a database. */

/** A (worker id, process id) pair of the snowflake: the ids a process mints carry it. */
export interface WorkerSlot {
  /** 0–31. */
  workerId: number;
  /** 0–31. */
  processId: number;
}

export interface WorkerLeaseRecord extends WorkerSlot {
  /** Who holds the slot: unique per running process. */
  holder: string;
  /** Epoch ms; the slot is free from then on unless its holder renews it. */
  expiresAt: number;
}

/** The leases of snowflake worker slots (docs/operations.md, Worker ids). */
export interface WorkerLeaseRepository {
  /**
   * Takes the slot for `holder` (until `expiresAt`) when nobody holds it, its lease ended by
   * `nowMs`, or `holder` holds it already; one statement, so of two processes claiming one slot
   * only one gets it. Returns the lease that stands afterwards: `holder`'s when it got it.
   */
  claim(lease: WorkerLeaseRecord, nowMs: number): Promise<WorkerLeaseRecord>;
  /** The leases still live at `nowMs`. */
  listLive(nowMs: number): Promise<WorkerLeaseRecord[]>;
  /** Moves `holder`'s lease of the slot to `expiresAt`; false when it holds the slot no more. */
  renew(lease: WorkerLeaseRecord): Promise<boolean>;
  /** Ends `holder`'s lease of the slot (nothing when another holds it). */
  release(slot: WorkerSlot & { holder: string }): Promise<void>;
}
