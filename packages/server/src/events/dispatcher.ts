import type { EventBus } from '../bus/index.js';
import type { Clock } from '../domain/clock.js';

/**
 * One gateway dispatch as a service announces it, after its transaction commits. The gateway
 * decides per session whether and how each session sees it (intents, VIEW_CHANNEL, MESSAGE_CONTENT,
 * obfuscation, presence privacy); services only say what happened and where.
 */
export interface Dispatch<TData = unknown> {
  /** The dispatch name, e.g. `MESSAGE_CREATE`. */
  type: string;
  /** The guild the event belongs to; null for events addressed only to users (USER_UPDATE, DMs). */
  guildId: string | null;
  /** The channel whose VIEW_CHANNEL gates the event, when one does. */
  channelId?: string;
  /** Users who receive the event directly, whatever their guilds (DM recipients, USER_UPDATE). */
  userIds?: readonly string[];
  /** The wire payload (`d`), as the platform sends it to a session that may see all of it. */
  data: TData;
}

/** Announces dispatches. Never throws and never waits for delivery. */
export interface Dispatcher {
  dispatch(events: Dispatch | readonly Dispatch[]): void;
}

/** The envelope of a dispatch on the bus. */
export interface DispatchEnvelope {
  guildId: string | null;
  channelId: string | null;
  userIds: readonly string[];
  data: unknown;
}

/** The bus subject of a guild's dispatches. */
export function guildSubject(guildId: string): string {
  return `dispatch.guild.${guildId}`;
}

/** The bus subject of a user's direct dispatches. */
export function userSubject(userId: string): string {
  return `dispatch.user.${userId}`;
}

/** Every dispatch subject, for a gateway node that serves any guild or user. */
export const ALL_DISPATCHES = 'dispatch.>';

function isList(events: Dispatch | readonly Dispatch[]): events is readonly Dispatch[] {
  return Array.isArray(events);
}

/**
 * Publishes dispatches on the bus: guild events on the guild's subject, user events on each
 * user's. A publish failure goes to `onError`; the caller's committed change stands.
 */
export function createBusDispatcher(options: {
  bus: EventBus;
  clock: Clock;
  onError: (err: unknown, event: Dispatch) => void;
}): Dispatcher {
  const { bus, clock, onError } = options;
  const send = (subject: string, event: Dispatch) => {
    const data: DispatchEnvelope = {
      guildId: event.guildId,
      channelId: event.channelId ?? null,
      userIds: event.userIds ?? [],
      data: event.data,
    };
    bus
      .publish(subject, { type: event.type, topic: subject, data, publishedAt: clock.now() })
      .catch((err: unknown) => {
        onError(err, event);
      });
  };
  return {
    dispatch(events) {
      const list: readonly Dispatch[] = isList(events) ? events : [events];
      for (const event of list) {
        if (event.guildId !== null) send(guildSubject(event.guildId), event);
        else for (const userId of event.userIds ?? []) send(userSubject(userId), event);
      }
    },
  };
}
