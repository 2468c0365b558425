/**
 * Who is interested in a scheduled event, and its exceptions (docs/guild-api.md#scheduled-event-
 * users-and-exceptions). A person marks interest in the whole event or answers one occurrence
 * (the client route PUT/DELETE .../users/@me, the web client's); GUILD_SCHEDULED_EVENT_USER_ADD
 * and _REMOVE announce it. An exception moves or cancels one occurrence: events here do not
 * repeat, so an event's one occurrence is the one at its scheduled start.
 */
import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { afterCommit } from '../../events/afterCommit.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type {
  Repositories,
  ScheduledEventExceptionRecord,
  ScheduledEventRecord,
  ScheduledEventUserRecord,
} from '../../storage/index.js';
import type { GuildAccess } from '../access/index.js';
import type { ServiceDeps } from '../deps.js';
import { scheduledEventDispatches } from './dispatch.js';
import { requireEditRights } from '../expressions/index.js';
import { serializeMember } from '../members/index.js';
import { serializeUser } from '../users/index.js';
import type {
  CreateExceptionInput,
  EventUsersQueryInput,
  ModifyExceptionInput,
} from './schemas.js';
import { isoTimestamp, serializeException, type ScheduledEventWire } from './serialize.js';
import type { EventTarget } from './rules.js';

const EVENTS = { create: P.CREATE_EVENTS, manage: P.MANAGE_EVENTS };
const INTERESTED = 1;
const UNINTERESTED = 0;

/** What the event service lends: its access and visibility rules and its serializer. */
export interface AttendeeHelpers {
  accessFor: (repos: Repositories, principal: Principal, guildId: string) => Promise<GuildAccess>;
  findIn: (
    repos: Repositories,
    access: GuildAccess,
    eventId: string,
  ) => Promise<ScheduledEventRecord>;
  present: (
    repos: Repositories,
    event: ScheduledEventRecord,
    withUserCount: boolean,
  ) => Promise<ScheduledEventWire>;
}

export function createAttendeeOperations(deps: ServiceDeps, helpers: AttendeeHelpers) {
  const { storage, clock, ids } = deps;
  const { accessFor, findIn, present } = helpers;

  const load = async (repos: Repositories, principal: Principal, target: EventTarget) => {
    const access = await accessFor(repos, principal, target.guildId);
    return { access, event: await findIn(repos, access, target.eventId) };
  };

  const exceptionOf = async (
    repos: Repositories,
    event: ScheduledEventRecord,
    exceptionId: string,
  ) => {
    const exception = isSnowflake(exceptionId)
      ? await repos.scheduledEventUsers.findException(exceptionId)
      : null;
    if (exception?.eventId !== event.id) throw new ApiError('UNKNOWN_GUILD_SCHEDULED_EVENT');
    return exception;
  };

  const checkTimes = (start: number | null, end: number | null) => {
    if (start !== null && end !== null && end <= start) {
      throw invalidField(
        ['scheduled_end_time'],
        'BASE_TYPE_INVALID',
        'The end must be after the start.',
      );
    }
  };

  /** GUILD_SCHEDULED_EVENT_UPDATE with the event as it stands in `tx` (its exceptions changed). */
  const announceEvent = async (tx: Repositories, event: ScheduledEventRecord) => {
    afterCommit(
      tx,
      scheduledEventDispatches.scheduledEvent(
        'GUILD_SCHEDULED_EVENT_UPDATE',
        await present(tx, event, false),
      ),
    );
  };

  const listUsers = async (
    principal: Principal,
    target: EventTarget & { exceptionId?: string },
    query: EventUsersQueryInput,
  ) => {
    const { access, event } = await load(storage, principal, target);
    const exception =
      target.exceptionId === undefined
        ? null
        : await exceptionOf(storage, event, target.exceptionId);
    const rows = await storage.scheduledEventUsers.listUsers(event.id, exception?.id ?? null, {
      limit: query.limit ?? 100,
      ...(query.before === undefined ? {} : { before: query.before }),
      ...(query.after === undefined ? {} : { after: query.after }),
    });
    const out = [];
    for (const row of rows) {
      const [user, member] = await Promise.all([
        storage.users.findById(row.userId),
        query.with_member === true ? storage.members.find(access.guild.id, row.userId) : null,
      ]);
      if (user === null) continue;
      out.push({
        guild_scheduled_event_id: event.id,
        guild_scheduled_event_exception_id: row.exceptionId,
        user_id: row.userId,
        user: serializeUser(user),
        ...(member === null ? {} : { member: serializeMember(member, user) }),
        response: row.response,
      });
    }
    return out;
  };

  /** Records an answer; announces USER_ADD/REMOVE when interest changed. */
  const answer = async (
    principal: Principal,
    target: EventTarget & { exceptionId: string | null },
    response: number | null,
  ) => {
    await storage.transaction(async (tx) => {
      const { event } = await load(tx, principal, target);
      const exception =
        target.exceptionId === null ? null : await exceptionOf(tx, event, target.exceptionId);
      const record: ScheduledEventUserRecord = {
        eventId: event.id,
        exceptionId: exception?.id ?? null,
        userId: principal.user.id,
        response: response ?? INTERESTED,
        createdAt: clock.now(),
      };
      const changed =
        response === null
          ? await tx.scheduledEventUsers.deleteUser(event.id, record.exceptionId, record.userId)
          : await tx.scheduledEventUsers.putUser(record);
      if (!changed) return;
      const added = response === INTERESTED;
      afterCommit(tx, {
        type: added ? 'GUILD_SCHEDULED_EVENT_USER_ADD' : 'GUILD_SCHEDULED_EVENT_USER_REMOVE',
        guildId: event.guildId,
        ...(event.channelId === null ? {} : { channelId: event.channelId }),
        data: {
          guild_scheduled_event_id: event.id,
          user_id: record.userId,
          guild_id: event.guildId,
          ...(exception === null ? {} : { guild_scheduled_event_exception_id: exception.id }),
        },
      });
    });
  };

  return {
    listUsers,

    async countUsers(principal: Principal, target: EventTarget, exceptionIds: readonly string[]) {
      const { event } = await load(storage, principal, target);
      const counts = await storage.scheduledEventUsers.countUsers(event.id);
      return {
        guild_scheduled_event_count: counts.event,
        guild_scheduled_event_exception_counts: Object.fromEntries(
          exceptionIds.map((id) => [id, counts.exceptions.get(id) ?? 0]),
        ),
      };
    },

    /** The client route: the caller is interested (the whole event, or one occurrence). */
    markInterest: (principal: Principal, target: EventTarget & { exceptionId: string | null }) =>
      answer(principal, target, INTERESTED),
    /** Not interested in one occurrence of an event the caller follows. */
    markUninterested: (principal: Principal, target: EventTarget & { exceptionId: string }) =>
      answer(principal, target, UNINTERESTED),
    removeInterest: (principal: Principal, target: EventTarget & { exceptionId: string | null }) =>
      answer(principal, target, null),

    async createException(principal: Principal, target: EventTarget, input: CreateExceptionInput) {
      return storage.transaction(async (tx) => {
        const { access, event } = await load(tx, principal, target);
        requireEditRights(access, event.creatorId, EVENTS);
        const original = input.original_scheduled_start_time;
        if (original !== event.scheduledStartTime) {
          throw invalidField(
            ['original_scheduled_start_time'],
            'BASE_TYPE_INVALID',
            `Not an occurrence of this event (its one occurrence starts ${isoTimestamp(event.scheduledStartTime)}).`,
          );
        }
        if ((await tx.scheduledEventUsers.findExceptionAt(event.id, original)) !== null) {
          throw invalidField(
            ['original_scheduled_start_time'],
            'BASE_TYPE_INVALID',
            'This occurrence already has an exception.',
          );
        }
        const exception: ScheduledEventExceptionRecord = {
          id: ids(),
          eventId: event.id,
          originalStartTime: original,
          scheduledStartTime: input.scheduled_start_time ?? null,
          scheduledEndTime: input.scheduled_end_time ?? null,
          isCanceled: input.is_canceled ?? false,
        };
        checkTimes(exception.scheduledStartTime, exception.scheduledEndTime);
        await tx.scheduledEventUsers.createException(exception);
        await announceEvent(tx, event);
        return serializeException(exception);
      });
    },

    async modifyException(
      principal: Principal,
      target: EventTarget & { exceptionId: string },
      input: ModifyExceptionInput,
    ) {
      return storage.transaction(async (tx) => {
        const { access, event } = await load(tx, principal, target);
        requireEditRights(access, event.creatorId, EVENTS);
        const exception = await exceptionOf(tx, event, target.exceptionId);
        const start =
          input.scheduled_start_time === undefined
            ? exception.scheduledStartTime
            : input.scheduled_start_time;
        const end =
          input.scheduled_end_time === undefined
            ? exception.scheduledEndTime
            : input.scheduled_end_time;
        checkTimes(start, end);
        const updated = await tx.scheduledEventUsers.updateException(exception.id, {
          scheduledStartTime: start,
          scheduledEndTime: end,
          ...(input.is_canceled == null ? {} : { isCanceled: input.is_canceled }),
        });
        if (updated === null) throw new ApiError('UNKNOWN_GUILD_SCHEDULED_EVENT');
        await announceEvent(tx, event);
        return serializeException(updated);
      });
    },

    async deleteException(principal: Principal, target: EventTarget & { exceptionId: string }) {
      await storage.transaction(async (tx) => {
        const { access, event } = await load(tx, principal, target);
        requireEditRights(access, event.creatorId, EVENTS);
        const exception = await exceptionOf(tx, event, target.exceptionId);
        await tx.scheduledEventUsers.deleteException(exception.id);
        await announceEvent(tx, event);
      });
    },
  };
}
