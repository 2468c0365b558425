/**
 * @module resources/scheduledEvents/dispatch: GUILD_SCHEDULED_EVENT_CREATE, UPDATE and DELETE. Each builder returns the exact wire payload (`d`),
 * checked against discord-api-types' dispatch data (`satisfies WireShape<…>`).
 */
import { type TypedDispatch } from '../dispatches.js';
import type { ScheduledEventWire } from './serialize.js';

/** The gateway dispatches of scheduledEvents, built from the serializer's wire objects. */
export const scheduledEventDispatches = {
  /**
   * An event in a channel is gated by that channel's VIEW_CHANNEL. The payload is checked by its
   * serializer against the library's base event (its union ties fields to the entity type).
   */
  scheduledEvent: <
    TType extends
      | 'GUILD_SCHEDULED_EVENT_CREATE'
      | 'GUILD_SCHEDULED_EVENT_UPDATE'
      | 'GUILD_SCHEDULED_EVENT_DELETE',
  >(
    type: TType,
    event: ScheduledEventWire,
  ): TypedDispatch<TType, ScheduledEventWire> => ({
    type,
    guildId: event.guild_id,
    ...(event.channel_id === null ? {} : { channelId: event.channel_id }),
    data: event,
  }),
};

/**
 * GUILD_SCHEDULED_EVENT_USER_ADD and _REMOVE: a user's interest in an event, or in one
 * occurrence of a recurring event (its exception).
 */
export interface ScheduledEventUserPayload {
  guild_scheduled_event_id: string;
  user_id: string;
  guild_id: string;
  guild_scheduled_event_exception_id?: string;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    GUILD_SCHEDULED_EVENT_USER_ADD: ScheduledEventUserPayload;
    GUILD_SCHEDULED_EVENT_USER_REMOVE: ScheduledEventUserPayload;
    GUILD_SCHEDULED_EVENT_CREATE: ScheduledEventWire;
    GUILD_SCHEDULED_EVENT_UPDATE: ScheduledEventWire;
    GUILD_SCHEDULED_EVENT_DELETE: ScheduledEventWire;
  }
}
