import { randomBytes } from 'node:crypto';
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
  /**
   * Users who receive the event directly, whatever their guilds (DM recipients, USER_UPDATE). On
   * a guild event: the users it brings into the guild (GUILD_MEMBER_ADD's member), whose gateway
   * nodes may not serve the guild yet and learn from it to join them.
   */
  userIds?: readonly string[];
  /**
   * The application (game) a user-addressed dispatch belongs to: a lobby's, a game DM's, a game
   * relationship's. The user's SDK sessions of another application and bot sessions do not
   * receive it (gateway/routing.ts). Absent: not scoped.
   */
  applicationId?: string;
  /**
   * A user-addressed dispatch one shard of a bot receives (INTERACTION_CREATE): only the
   * session whose shard holds this guild, or shard 0 for `guildId: null` (a DM), as guild
   * dispatches go to one shard. Absent: every session of the user.
   */
  shard?: { guildId: string | null };
  /**
   * The one session that receives it (VOICE_SERVER_UPDATE: the session that sent op 4). On the
   * same subject as the dispatches before it, it reaches the session after them, in order.
   * Absent: every session the other rules allow.
   */
  sessionId?: string;
  /**
   * The private call (a lobby's id, a DM channel's id) whose voice node needs this dispatch (its
   * voice states): published once more on the call's subject ({@link voiceCallSubject}), which a
   * voice node watches instead of its members' whole user subjects.
   */
  voiceCall?: string;
  /** The wire payload (`d`), as the platform sends it to a session that may see all of it. */
  data: TData;
}

/** Announces dispatches. Never throws and never waits for delivery. */
export interface Dispatcher {
  dispatch(events: Dispatch | readonly Dispatch[]): void;
}

/**
 * A dispatcher whose process can watch what it announces itself: each dispatch is announced by
 * exactly one process, so a rule that follows dispatches (an activity participant leaving with
 * their voice channel) runs once, where the change was made, without any node receiving every
 * guild's subject from the bus.
 */
export interface WatchedDispatcher extends Dispatcher {
  /** Calls `listener` with each dispatch this process announces from now on; returns the undo. */
  watch(listener: (event: Dispatch) => void): () => void;
}

/** The envelope of a dispatch on the bus. */
export interface DispatchEnvelope {
  /**
   * Unique per dispatch (the publishing process and a counter), the same on every subject it is
   * published on: a gateway node taking over a session skips what the old node already sent.
   */
  id: string;
  guildId: string | null;
  channelId: string | null;
  userIds: readonly string[];
  /** `Dispatch.applicationId`; absent (an envelope of an older node too): not scoped. */
  applicationId?: string;
  /** `Dispatch.shard`; absent: every session of the user. */
  shard?: { guildId: string | null };
  /** `Dispatch.sessionId`; absent: not addressed to one session. */
  sessionId?: string;
  data: unknown;
}

/** The bus subject of a guild's dispatches. */
export function guildSubject(guildId: string): string {
  return `${GUILD_SUBJECT_PREFIX}${guildId}`;
}

/** The bus subject of a user's direct dispatches. */
export function userSubject(userId: string): string {
  return `${USER_SUBJECT_PREFIX}${userId}`;
}

/**
 * The subject of a private call's voice dispatches (`Dispatch.voiceCall`): its voice states, once
 * each, for the voice node holding the call. Outside `dispatch.>`: gateways never watch it.
 */
export function voiceCallSubject(callId: string): string {
  return `${VOICE_CALL_SUBJECT_PREFIX}${callId}`;
}

/** The prefix of every private call's voice subject; the lobby or DM channel id follows it. */
export const VOICE_CALL_SUBJECT_PREFIX = 'voice.call.';
/** Every private call's voice subject (the bus history keeps them as it keeps dispatches). */
export const ALL_VOICE_CALLS = 'voice.call.>';

/** The prefix of every guild subject; the guild id follows it. */
export const GUILD_SUBJECT_PREFIX = 'dispatch.guild.';
/** The prefix of every user subject; the user id follows it. */
export const USER_SUBJECT_PREFIX = 'dispatch.user.';

/** Every dispatch subject, for a watcher of everything (tests, tools); gateways watch their own. */
export const ALL_DISPATCHES = 'dispatch.>';

function isList(events: Dispatch | readonly Dispatch[]): events is readonly Dispatch[] {
  return Array.isArray(events);
}

const NODE_ID_BYTES = 8;

/**
 * Publishes dispatches on the bus: guild events on the guild's subject (and, when they name
 * users, on each of theirs too), user events on each user's, a private call's voice states on
 * the call's subject too. A publish failure goes to
 * `onError`; the caller's committed change stands.
 */
export function createBusDispatcher(options: {
  bus: EventBus;
  clock: Clock;
  onError: (err: unknown, event: Dispatch) => void;
  /**
   * The trace the dispatches belong to, as a `traceparent` (events/tracing.ts
   * `activeTraceparent`), carried with each on the bus; absent when tracing is off.
   */
  traceparent?: () => string | undefined;
}): WatchedDispatcher {
  const { bus, clock, onError } = options;
  const watchers = new Set<(event: Dispatch) => void>();
  const node = randomBytes(NODE_ID_BYTES).toString('hex');
  let counter = 0;
  const send = (
    subject: string,
    event: Dispatch,
    { data, trace }: { data: DispatchEnvelope; trace: string | undefined },
  ) => {
    const busEvent = { type: event.type, topic: subject, data, publishedAt: clock.now() };
    bus
      .publish(subject, trace === undefined ? busEvent : { ...busEvent, trace })
      .catch((err: unknown) => {
        onError(err, event);
      });
  };
  return {
    dispatch(events) {
      const list: readonly Dispatch[] = isList(events) ? events : [events];
      const trace = options.traceparent?.();
      for (const event of list) {
        const userIds = event.userIds ?? [];
        const data: DispatchEnvelope = {
          id: `${node}.${(counter++).toString(36)}`,
          guildId: event.guildId,
          channelId: event.channelId ?? null,
          userIds,
          ...(event.applicationId === undefined ? {} : { applicationId: event.applicationId }),
          ...(event.shard === undefined ? {} : { shard: event.shard }),
          ...(event.sessionId === undefined ? {} : { sessionId: event.sessionId }),
          data: event.data,
        };
        if (event.guildId !== null) send(guildSubject(event.guildId), event, { data, trace });
        for (const userId of userIds) send(userSubject(userId), event, { data, trace });
        if (event.voiceCall !== undefined) {
          send(voiceCallSubject(event.voiceCall), event, { data, trace });
        }
        for (const watcher of watchers) watcher(event);
      }
    },
    watch(listener) {
      watchers.add(listener);
      return () => {
        watchers.delete(listener);
      };
    },
  };
}
