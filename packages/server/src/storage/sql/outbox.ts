import type { Kysely, Selectable } from 'kysely';
import type {
  OutboxAttemptRecord,
  OutboxEventRecord,
  OutboxRepository,
  OutboxStatus,
} from '../types/outbox.js';
import type { StorageDialect } from '../types/storage.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { id, int, intOrNull } from './rows.js';
import type { Database, OutboxAttemptsTable, OutboxEventsTable } from './schema.js';

function toEvent(row: Selectable<OutboxEventsTable>): OutboxEventRecord {
  return {
    id: id(row.id),
    applicationId: id(row.application_id),
    eventType: row.event_type,
    event: row.event,
    status: row.status as OutboxStatus,
    attempts: int(row.attempts),
    createdAt: int(row.created_at),
    nextAttemptAt: int(row.next_attempt_at),
    giveUpAt: int(row.give_up_at),
    finishedAt: intOrNull(row.finished_at),
    lastError: row.last_error,
    targetUrl: row.target_url,
  };
}

function toAttempt(row: Selectable<OutboxAttemptsTable>): OutboxAttemptRecord {
  return {
    outboxId: id(row.outbox_id),
    attempt: int(row.attempt),
    startedAt: int(row.started_at),
    durationMs: int(row.duration_ms),
    httpStatus: intOrNull(row.http_status),
    error: row.error,
  };
}

export function createOutboxRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): OutboxRepository {
  return {
    async enqueue(event) {
      await conflictsAsStorageErrors(
        db
          .insertInto('outbox_events')
          .values({
            id: event.id,
            application_id: event.applicationId,
            event_type: event.eventType,
            event: event.event,
            created_at: event.createdAt,
            next_attempt_at: event.createdAt,
            give_up_at: event.giveUpAt,
            ...(event.targetUrl == null ? {} : { target_url: event.targetUrl }),
          })
          .execute(),
      );
    },

    async claimDue({ now, limit, leaseMs }) {
      // One statement: the due rows are picked and moved a lease ahead atomically. SQLite runs
      // one writer at a time; PostgreSQL skips the rows a concurrent claimer has locked.
      const rows = await db
        .updateTable('outbox_events')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: now + leaseMs }))
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('outbox_events')
            .select('id')
            .where('status', '=', 'pending')
            .where('next_attempt_at', '<=', now)
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(limit)
            .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
        )
        .returningAll()
        .execute();
      return rows.map(toEvent).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    },

    async finishAttempt({ attempt, next }) {
      const updated = await db
        .updateTable('outbox_events')
        .set(
          next.status === 'pending'
            ? { next_attempt_at: next.retryAt, last_error: attemptError(attempt) }
            : {
                status: next.status,
                finished_at: next.at,
                last_error: next.status === 'failed' ? attemptError(attempt) : null,
              },
        )
        .where('id', '=', attempt.outboxId)
        .where('attempts', '=', attempt.attempt)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await db
        .insertInto('outbox_attempts')
        .values({
          outbox_id: attempt.outboxId,
          attempt: attempt.attempt,
          started_at: attempt.startedAt,
          duration_ms: attempt.durationMs,
          http_status: attempt.httpStatus,
          error: attempt.error,
        })
        .execute();
      return true;
    },

    async findById(outboxId) {
      const row = await db
        .selectFrom('outbox_events')
        .selectAll()
        .where('id', '=', outboxId)
        .executeTakeFirst();
      return row ? toEvent(row) : null;
    },

    async listByApplication(applicationId, { limit, before }) {
      let query = db
        .selectFrom('outbox_events')
        .selectAll()
        .where('application_id', '=', applicationId);
      if (before !== undefined) query = query.where('id', '<', before);
      const rows = await query.orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toEvent);
    },

    async listAttempts(outboxIds) {
      if (outboxIds.length === 0) return [];
      const rows = await db
        .selectFrom('outbox_attempts')
        .selectAll()
        .where('outbox_id', 'in', outboxIds)
        .orderBy('outbox_id')
        .orderBy('attempt')
        .execute();
      return rows.map(toAttempt);
    },
  };
}

function attemptError(attempt: OutboxAttemptRecord): string {
  return attempt.error ?? `HTTP ${String(attempt.httpStatus)}`;
}
