import { randomBytes } from 'node:crypto';
import type { EventBus } from '../bus/index.js';
import type { Clock } from '../domain/clock.js';
import type { Dispatch, DispatchRoute } from '../domain/dispatch.js';

export type { Dispatch } from '../domain/dispatch.js';

/**
 * A dispatch of any name and payload, as any node may put it on the bus: what a test publishes
 * when it plays another node (an older or newer one, or one whose payloads it leaves partial).
 * The gateway decodes what it receives either way (gateway/decode.ts); services announce
 * `Dispatch`, which this includes.
 */
export type AnyDispatch = DispatchRoute & { type: string; data: unknown };

/** Announces dispatches. Never throws and never waits for delivery. */
export interface Dispatcher<D extends AnyDispatch = Dispatch> {
  dispatch(events: D | readonly D[]): void;
}

/**
 * A dispatcher whose process can watch what it announces itself: each dispatch is announced by
 * exactly one process, so a rule that follows dispatches (an activity participant leaving with
 * their voice channel) runs once, where the change was made, without any node receiving every
 * guild's subject from the bus.
 */
export interface WatchedDispatcher<D extends AnyDispatch = Dispatch> extends Dispatcher<D> {
  /** Calls `listener` with each dispatch this process announces from now on; returns the undo. */
  watch(listener: (event: D) => void): () => void;
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

/**
 * The subject of a guild's speaking feed: voice nodes publish on it who starts and stops
 * speaking in the guild's calls, and a gateway node watches it while one of its sessions follows
 * a channel there (Guildhall's op 1001, docs/gateway.md#guildhalls-own). Outside `dispatch.>`
 * and the bus history: speaking is a moment's state, and a missed change is not replayed.
 */
export function speakingSubject(guildId: string): string {
  return `${SPEAKING_SUBJECT_PREFIX}${guildId}`;
}

/** The prefix of every guild's speaking subject; the guild id follows it. */
export const SPEAKING_SUBJECT_PREFIX = 'voice.speaking.';
/** The bus event of a speaking change, and the dispatch a following session receives. */
export const SPEAKING_UPDATE = 'SPEAKING_UPDATE';

/** A speaking change: a member of the channel's call started (true) or stopped speaking. */
export interface SpeakingUpdate {
  guild_id: string;
  channel_id: string;
  user_id: string;
  speaking: boolean;
}

/** The prefix of every guild subject; the guild id follows it. */
export const GUILD_SUBJECT_PREFIX = 'dispatch.guild.';
/** The prefix of every user subject; the user id follows it. */
export const USER_SUBJECT_PREFIX = 'dispatch.user.';

/** Every dispatch subject, for a watcher of everything (tests, tools); gateways watch their own. */
export const ALL_DISPATCHES = 'dispatch.>';

function isList<D extends AnyDispatch>(events: D | readonly D[]): events is readonly D[] {
  return Array.isArray(events);
}

const NODE_ID_BYTES = 8;

/**
 * Publishes dispatches on the bus: guild events on the guild's subject (and, when they name
 * users, on each of theirs too), user events on each user's, a private call's voice states on
 * the call's subject too. A publish failure goes to
 * `onError`; the caller's committed change stands.
 */
export function createBusDispatcher<D extends AnyDispatch = Dispatch>(options: {
  bus: EventBus;
  clock: Clock;
  onError: (err: unknown, event: D) => void;
  /**
   * The trace the dispatches belong to, as a `traceparent` (events/tracing.ts
   * `activeTraceparent`), carried with each on the bus; absent when tracing is off.
   */
  traceparent?: () => string | undefined;
}): WatchedDispatcher<D> {
  const { bus, clock, onError } = options;
  const watchers = new Set<(event: D) => void>();
  const node = randomBytes(NODE_ID_BYTES).toString('hex');
  let counter = 0;
  const send = (
    subject: string,
    event: D,
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
      const list: readonly D[] = isList(events) ? events : [events];
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
