/**
 * Who answered a scheduled event (interested, per occurrence or for the whole event) and the
 * exceptions that move or cancel one occurrence: the scheduled event user repository of
 * migration 0034 on both drivers.
 */
import type { Kysely, Selectable } from 'kysely';
import type {
  ScheduledEventExceptionRecord,
  ScheduledEventUserRecord,
  ScheduledEventUserRepository,
} from '../types/voiceExpressions.js';
import { bool, flag, id, int, intOrNull } from './rows.js';
import type { Database } from './schema.js';
import type {
  ScheduledEventExceptionsTable,
  ScheduledEventUsersTable,
} from './voiceExpressionsSchema.js';

/** The exception id column of an answer to the whole event. */
const WHOLE_EVENT = '0';

function toException(
  row: Selectable<ScheduledEventExceptionsTable>,
): ScheduledEventExceptionRecord {
  return {
    id: id(row.id),
    eventId: id(row.event_id),
    originalStartTime: int(row.original_start_time),
    scheduledStartTime: intOrNull(row.scheduled_start_time),
    scheduledEndTime: intOrNull(row.scheduled_end_time),
    isCanceled: bool(row.is_canceled),
  };
}

function toEventUser(row: Selectable<ScheduledEventUsersTable>): ScheduledEventUserRecord {
  const exceptionId = id(row.exception_id);
  return {
    eventId: id(row.event_id),
    exceptionId: exceptionId === WHOLE_EVENT ? null : exceptionId,
    userId: id(row.user_id),
    response: int(row.response),
    createdAt: int(row.created_at),
  };
}

export function createScheduledEventUserRepository(
  db: Kysely<Database>,
): ScheduledEventUserRepository {
  const findException = async (exceptionId: string) => {
    const row = await db
      .selectFrom('scheduled_event_exceptions')
      .selectAll()
      .where('id', '=', exceptionId)
      .executeTakeFirst();
    return row === undefined ? null : toException(row);
  };
  return {
    async putUser(user) {
      const exceptionId = user.exceptionId ?? WHOLE_EVENT;
      const existing = await db
        .selectFrom('scheduled_event_users')
        .select('response')
        .where('event_id', '=', user.eventId)
        .where('exception_id', '=', exceptionId)
        .where('user_id', '=', user.userId)
        .executeTakeFirst();
      if (existing !== undefined && int(existing.response) === user.response) return false;
      await db
        .insertInto('scheduled_event_users')
        .values({
          event_id: user.eventId,
          exception_id: exceptionId,
          user_id: user.userId,
          response: user.response,
          created_at: user.createdAt,
        })
        .onConflict((oc) =>
          oc
            .columns(['event_id', 'exception_id', 'user_id'])
            .doUpdateSet({ response: user.response }),
        )
        .execute();
      return true;
    },
    async deleteUser(eventId, exceptionId, userId) {
      const result = await db
        .deleteFrom('scheduled_event_users')
        .where('event_id', '=', eventId)
        .where('exception_id', '=', exceptionId ?? WHOLE_EVENT)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async listUsers(eventId, exceptionId, page) {
      let query = db
        .selectFrom('scheduled_event_users')
        .selectAll()
        .where('event_id', '=', eventId)
        .where('exception_id', '=', exceptionId ?? WHOLE_EVENT);
      if (page.after !== undefined) query = query.where('user_id', '>', page.after);
      if (page.before !== undefined) query = query.where('user_id', '<', page.before);
      // Before a user, the nearest ones: read downwards, answer upwards.
      const descending = page.before !== undefined && page.after === undefined;
      const rows = await query
        .orderBy('user_id', descending ? 'desc' : 'asc')
        .limit(page.limit)
        .execute();
      const users = rows.map(toEventUser);
      return descending ? users.reverse() : users;
    },
    async countUsers(eventId) {
      const rows = await db
        .selectFrom('scheduled_event_users')
        .select(['exception_id', (eb) => eb.fn.countAll<number | bigint | string>().as('n')])
        .where('event_id', '=', eventId)
        .where('response', '=', 1)
        .groupBy('exception_id')
        .execute();
      const exceptions = new Map<string, number>();
      let event = 0;
      for (const row of rows) {
        const exceptionId = id(row.exception_id);
        if (exceptionId === WHOLE_EVENT) event = int(row.n);
        else exceptions.set(exceptionId, int(row.n));
      }
      return { event, exceptions };
    },
    async countInterested(eventIds) {
      const out = new Map<string, number>();
      if (eventIds.length === 0) return out;
      const rows = await db
        .selectFrom('scheduled_event_users')
        .select(['event_id', (eb) => eb.fn.countAll<number | bigint | string>().as('n')])
        .where('event_id', 'in', [...eventIds])
        .where('exception_id', '=', WHOLE_EVENT)
        .where('response', '=', 1)
        .groupBy('event_id')
        .execute();
      for (const row of rows) out.set(id(row.event_id), int(row.n));
      return out;
    },
    async createException(exception) {
      await db
        .insertInto('scheduled_event_exceptions')
        .values({
          id: exception.id,
          event_id: exception.eventId,
          original_start_time: exception.originalStartTime,
          scheduled_start_time: exception.scheduledStartTime,
          scheduled_end_time: exception.scheduledEndTime,
          is_canceled: flag(exception.isCanceled),
        })
        .execute();
    },
    findException,
    async findExceptionAt(eventId, originalStartTime) {
      const row = await db
        .selectFrom('scheduled_event_exceptions')
        .selectAll()
        .where('event_id', '=', eventId)
        .where('original_start_time', '=', originalStartTime)
        .executeTakeFirst();
      return row === undefined ? null : toException(row);
    },
    async listExceptions(eventId) {
      const rows = await db
        .selectFrom('scheduled_event_exceptions')
        .selectAll()
        .where('event_id', '=', eventId)
        .orderBy('original_start_time')
        .execute();
      return rows.map(toException);
    },
    async updateException(exceptionId, patch) {
      const set = {
        ...(patch.scheduledStartTime === undefined
          ? {}
          : { scheduled_start_time: patch.scheduledStartTime }),
        ...(patch.scheduledEndTime === undefined
          ? {}
          : { scheduled_end_time: patch.scheduledEndTime }),
        ...(patch.isCanceled === undefined ? {} : { is_canceled: flag(patch.isCanceled) }),
      };
      if (Object.keys(set).length > 0) {
        await db
          .updateTable('scheduled_event_exceptions')
          .set(set)
          .where('id', '=', exceptionId)
          .execute();
      }
      return findException(exceptionId);
    },
    async deleteException(exceptionId) {
      await db
        .deleteFrom('scheduled_event_users')
        .where('exception_id', '=', exceptionId)
        .execute();
      const result = await db
        .deleteFrom('scheduled_event_exceptions')
        .where('id', '=', exceptionId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
