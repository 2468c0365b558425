import type {
  APIGuildScheduledEventBase,
  GuildScheduledEventEntityType,
} from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import type {
  ScheduledEventExceptionRecord,
  ScheduledEventRecord,
  UserRecord,
} from '../../storage/index.js';
import { serializeUser } from '../users/index.js';
import { EntityTypes } from './schemas.js';

/** Epoch ms as the platform's ISO 8601 timestamps (`+00:00` offset). */
export function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

/**
 * The scheduled event as sent, checked against discord-api-types: its common base over every
 * entity type (the library's APIGuildScheduledEvent union also ties `channel_id` and
 * `entity_metadata` to the entity type, which the service's validation enforces here), plus the
 * newer `guild_scheduled_event_exceptions` the library lacks (the changed or canceled
 * occurrences, docs/guild-api.md#scheduled-event-users-and-exceptions).
 */
type ScheduledEventWireShape = WireShape<
  APIGuildScheduledEventBase<GuildScheduledEventEntityType>
> & {
  guild_scheduled_event_exceptions: readonly ExceptionWire[];
};

/** An occurrence's exception (GuildScheduledEventExceptionResponse). */
export function serializeException(exception: ScheduledEventExceptionRecord) {
  return {
    event_id: exception.eventId,
    event_exception_id: exception.id,
    scheduled_start_time:
      exception.scheduledStartTime === null ? null : isoTimestamp(exception.scheduledStartTime),
    scheduled_end_time:
      exception.scheduledEndTime === null ? null : isoTimestamp(exception.scheduledEndTime),
    is_canceled: exception.isCanceled,
  };
}

export type ExceptionWire = ReturnType<typeof serializeException>;

export interface EventView {
  creator: UserRecord | null;
  /** Set when the caller asked with_user_count. */
  userCount?: number;
  /** Its exceptions; none when absent. */
  exceptions?: readonly ScheduledEventExceptionRecord[];
}

/** The scheduled event object (External/Stage/VoiceScheduledEventResponse, by entity type). */
export function serializeScheduledEvent(event: ScheduledEventRecord, view: EventView) {
  return {
    id: event.id,
    guild_id: event.guildId,
    name: event.name,
    description: event.description,
    channel_id: event.channelId,
    creator_id: event.creatorId,
    ...(view.creator === null ? {} : { creator: serializeUser(view.creator) }),
    image: event.image,
    scheduled_start_time: isoTimestamp(event.scheduledStartTime),
    scheduled_end_time:
      event.scheduledEndTime === null ? null : isoTimestamp(event.scheduledEndTime),
    status: event.status,
    entity_type: event.entityType,
    entity_id: null,
    entity_metadata:
      event.entityType === EntityTypes.EXTERNAL ? { location: event.location ?? '' } : null,
    privacy_level: event.privacyLevel,
    recurrence_rule: null,
    guild_scheduled_event_exceptions: (view.exceptions ?? []).map(serializeException),
    ...(view.userCount === undefined ? {} : { user_count: view.userCount }),
  } satisfies ScheduledEventWireShape;
}

export type ScheduledEventWire = ReturnType<typeof serializeScheduledEvent>;

/** The fields an audit entry tracks, under their wire names. */
export function auditedEvent(event: ScheduledEventRecord) {
  return {
    name: event.name,
    description: event.description,
    channel_id: event.channelId,
    image_hash: event.image,
    scheduled_start_time: isoTimestamp(event.scheduledStartTime),
    scheduled_end_time:
      event.scheduledEndTime === null ? null : isoTimestamp(event.scheduledEndTime),
    status: event.status,
    entity_type: event.entityType,
    location: event.location,
    privacy_level: event.privacyLevel,
  };
}
