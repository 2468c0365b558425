/** The durable outbox of webhook events and their delivery attempts. */

export type OutboxStatus = 'pending' | 'delivered' | 'failed';

/** A webhook event waiting in (or done with) the durable outbox; times are epoch ms. */
export interface OutboxEventRecord {
  id: string;
  applicationId: string;
  eventType: string;
  /** The event object `{type, timestamp, data}` as JSON text, exactly as the envelope holds it. */
  event: string;
  status: OutboxStatus;
  /** Attempts started so far (a claim counts one). */
  attempts: number;
  createdAt: number;
  /** When a worker may next claim it (a claim moves it one lease ahead). */
  nextAttemptAt: number;
  /** After this, a failed attempt marks the event failed instead of scheduling another. */
  giveUpAt: number;
  finishedAt: number | null;
  lastError: string | null;
  /** Where it goes instead of the app's URL (a lobby's override_event_webhooks_url). */
  targetUrl: string | null;
}

export type NewOutboxEvent = Pick<
  OutboxEventRecord,
  'id' | 'applicationId' | 'eventType' | 'event' | 'createdAt' | 'giveUpAt'
> & { targetUrl?: string | null };

/** One delivery attempt: an HTTP status when the app answered, else the error. */
export interface OutboxAttemptRecord {
  outboxId: string;
  attempt: number;
  startedAt: number;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
}

/** The outcome of an attempt, and what becomes of the event. */
export interface OutboxAttemptResult {
  attempt: OutboxAttemptRecord;
  next: { status: 'delivered' | 'failed'; at: number } | { status: 'pending'; retryAt: number };
}

export interface OutboxRepository {
  /** Writes a pending event, due at once. Call it inside the transaction of the change. */
  enqueue(event: NewOutboxEvent): Promise<void>;
  /**
   * Claims up to `limit` pending events due at `now`, oldest due first: each gets one more
   * attempt and is moved `leaseMs` ahead, so an event whose worker died is claimed again after
   * the lease. One statement; on PostgreSQL rows another claimer holds are skipped
   * (FOR UPDATE SKIP LOCKED), so concurrent claimers never get the same row.
   */
  claimDue(options: { now: number; limit: number; leaseMs: number }): Promise<OutboxEventRecord[]>;
  /**
   * Records an attempt and the event's next state, only if the attempt is still the event's
   * latest claim (false when the lease ran out and another claim superseded it).
   */
  finishAttempt(result: OutboxAttemptResult): Promise<boolean>;
  findById(id: string): Promise<OutboxEventRecord | null>;
  /** The application's events, newest first, below `before` when given. */
  listByApplication(
    applicationId: string,
    options: { limit: number; before?: string },
  ): Promise<OutboxEventRecord[]>;
  /** The attempts of the given events, by event id then attempt. */
  listAttempts(outboxIds: readonly string[]): Promise<OutboxAttemptRecord[]>;
}
