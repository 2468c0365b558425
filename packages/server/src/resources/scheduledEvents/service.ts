import { AuditLogActions, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { requiredPermissions } from '../../domain/permissions.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type {
  Repositories,
  ScheduledEventPatch,
  ScheduledEventRecord,
} from '../../storage/index.js';
import { diffChanges, snapshotChanges, recordAudit, recordChanges } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { scheduledEventDispatches } from './dispatch.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import { requireEditRights, type Mutation } from '../expressions/index.js';
import { storeImage } from '../imageUploads.js';
import { canJoinChannel, checkPlace, checkTransition, type EventTarget } from './rules.js';
import { EventStatuses, type CreateEventInput, type ModifyEventInput } from './schemas.js';
import { auditedEvent, serializeScheduledEvent } from './serialize.js';
import { createAttendeeOperations } from './attendees.js';

const EVENTS = { create: P.CREATE_EVENTS, manage: P.MANAGE_EVENTS };

/** Guild scheduled events: list, get, create, modify (with status changes), delete. */
export function createScheduledEventService(deps: ServiceDeps) {
  const { storage, clock, ids, blobs } = deps;

  const accessFor = accessLoader(clock);

  /** Whether the caller sees an event: a channel event needs its channel's VIEW and CONNECT. */
  const visible = async (repos: Repositories, access: GuildAccess, event: ScheduledEventRecord) => {
    if (event.channelId === null) return true;
    const channel = await repos.channels.findById(event.channelId);
    return channel !== null && (await canJoinChannel(repos, access, channel));
  };

  const findIn = async (repos: Repositories, access: GuildAccess, eventId: string) => {
    const event = isSnowflake(eventId) ? await repos.scheduledEvents.findById(eventId) : null;
    if (event?.guildId !== access.guild.id || !(await visible(repos, access, event))) {
      throw new ApiError('UNKNOWN_GUILD_SCHEDULED_EVENT');
    }
    return event;
  };

  const present = async (
    repos: Repositories,
    event: ScheduledEventRecord,
    withUserCount: boolean,
  ) => {
    const [creator, exceptions, counts] = await Promise.all([
      event.creatorId === null ? null : repos.users.findById(event.creatorId),
      repos.scheduledEventUsers.listExceptions(event.id),
      withUserCount ? repos.scheduledEventUsers.countInterested([event.id]) : null,
    ]);
    return serializeScheduledEvent(event, {
      creator,
      exceptions,
      ...(counts === null ? {} : { userCount: counts.get(event.id) ?? 0 }),
    });
  };

  /** Stores a cover image at its CDN path, guild-events/{event id}/{hash}.{ext}. */
  const storeCover = (eventId: string, value: string | null) =>
    storeImage(
      blobs,
      { field: 'image', value },
      (hash, ext) => `guild-events/${eventId}/${hash}.${ext}`,
    );

  const checkFuture = (startMs: number) => {
    if (startMs <= clock.now()) {
      throw invalidField(
        ['scheduled_start_time'],
        'GUILD_SCHEDULED_EVENT_SCHEDULE_PAST',
        'Cannot schedule event in the past.',
      );
    }
  };

  return {
    ...createAttendeeOperations(deps, { accessFor, findIn, present }),

    async list(principal: Principal, guildId: string, withUserCount: boolean) {
      const access = await accessFor(storage, principal, guildId);
      const events = await storage.scheduledEvents.listByGuild(access.guild.id);
      const shown = await Promise.all(events.map((event) => visible(storage, access, event)));
      return Promise.all(
        events.filter((_, i) => shown[i]).map((event) => present(storage, event, withUserCount)),
      );
    },

    async get(principal: Principal, target: EventTarget, withUserCount: boolean) {
      const access = await accessFor(storage, principal, target.guildId);
      return present(storage, await findIn(storage, access, target.eventId), withUserCount);
    },

    async create(principal: Principal, guildId: string, input: CreateEventInput & Mutation) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, guildId);
        // Spec, Versioning: CREATE_EVENTS from 2026-02-23, MANAGE_EVENTS before.
        access.require(requiredPermissions.createEvents(clock.now()));
        const startMs = input.scheduled_start_time;
        checkFuture(startMs);
        const place = await checkPlace(tx, access, {
          entityType: input.entity_type,
          channelId: input.channel_id ?? null,
          location: input.entity_metadata?.location ?? null,
          startMs,
          endMs: input.scheduled_end_time ?? null,
        });
        const id = ids();
        const event: ScheduledEventRecord = {
          id,
          guildId: access.guild.id,
          channelId: place.channelId,
          creatorId: principal.user.id,
          name: input.name,
          description: input.description ?? null,
          image: await storeCover(id, input.image ?? null),
          scheduledStartTime: place.startMs,
          scheduledEndTime: place.endMs,
          privacyLevel: input.privacy_level,
          status: EventStatuses.SCHEDULED,
          entityType: place.entityType,
          location: place.location,
          createdAt: clock.now(),
        };
        await tx.scheduledEvents.create(event);
        const wire = serializeScheduledEvent(event, { creator: principal.user });
        afterCommit(
          tx,
          scheduledEventDispatches.scheduledEvent('GUILD_SCHEDULED_EVENT_CREATE', wire),
        );
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: event.id,
          actionType: AuditLogActions.GUILD_SCHEDULED_EVENT_CREATE,
          changes: snapshotChanges(auditedEvent(event)),
          reason: input.reason,
        });
        return wire;
      });
    },

    async modify(principal: Principal, target: EventTarget, input: ModifyEventInput & Mutation) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, target.guildId);
        const event = await findIn(tx, access, target.eventId);
        requireEditRights(access, event.creatorId, EVENTS);
        if (input.status !== undefined) checkTransition(event.status, input.status);
        const startMs = input.scheduled_start_time ?? event.scheduledStartTime;
        if (startMs !== event.scheduledStartTime) checkFuture(startMs);
        const entityType = input.entity_type ?? event.entityType;
        const place = await checkPlace(tx, access, {
          entityType,
          channelId: input.channel_id === undefined ? event.channelId : input.channel_id,
          location:
            input.entity_metadata === undefined
              ? event.location
              : (input.entity_metadata?.location ?? null),
          startMs,
          endMs:
            input.scheduled_end_time === undefined
              ? event.scheduledEndTime
              : input.scheduled_end_time,
        });
        const patch: ScheduledEventPatch = {
          channelId: place.channelId,
          location: place.location,
          entityType: place.entityType,
          scheduledStartTime: place.startMs,
          scheduledEndTime: place.endMs,
        };
        if (input.name !== undefined) patch.name = input.name;
        if (input.description !== undefined) patch.description = input.description;
        if (input.privacy_level !== undefined) patch.privacyLevel = input.privacy_level;
        if (input.status !== undefined) patch.status = input.status;
        if (input.image !== undefined) patch.image = await storeCover(event.id, input.image);
        const updated = await tx.scheduledEvents.update(event.id, patch);
        if (updated === null) throw new ApiError('UNKNOWN_GUILD_SCHEDULED_EVENT');
        const changes = diffChanges(auditedEvent(event), auditedEvent(updated));
        const wire = await present(tx, updated, false);
        if (changes.length > 0) {
          afterCommit(
            tx,
            scheduledEventDispatches.scheduledEvent('GUILD_SCHEDULED_EVENT_UPDATE', wire),
          );
        }
        await recordChanges(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: event.id,
          actionType: AuditLogActions.GUILD_SCHEDULED_EVENT_UPDATE,
          changes,
          reason: input.reason,
        });
        return wire;
      });
    },

    async delete(principal: Principal, target: EventTarget, m: Mutation) {
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, target.guildId);
        const event = await findIn(tx, access, target.eventId);
        requireEditRights(access, event.creatorId, EVENTS);
        await tx.scheduledEvents.delete(event.id);
        const wire = await present(tx, event, false);
        afterCommit(
          tx,
          scheduledEventDispatches.scheduledEvent('GUILD_SCHEDULED_EVENT_DELETE', wire),
        );
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: event.id,
          actionType: AuditLogActions.GUILD_SCHEDULED_EVENT_DELETE,
          changes: snapshotChanges(auditedEvent(event), 'old'),
          reason: m.reason,
        });
      });
    },
  };
}

export type ScheduledEventService = ReturnType<typeof createScheduledEventService>;
