/**
 * @module gateway/presences: the users' presences (op 3) in the shared presence store, so a
 * GUILD_CREATE or GUILD_MEMBERS_CHUNK built on any node shows them. This node keeps the entries
 * of the users it serves alive: every third of the store's TTL it refreshes the entry of each
 * user with a session here. When a user's last session ends, or the node dies, nobody refreshes
 * the entry and it expires.
 */
import type { Clock, Timers } from '../domain/clock.js';
import type { PresenceStore } from '../sharedState/index.js';
import type { ProfilePrivacy } from '../storage/index.js';

/** A user's current presence, as op 3 set it. */
export interface Presence {
  status: string;
  activities: Record<string, unknown>[];
  since: number | null;
  afk: boolean;
  /** The user's profile privacy when they set it: it decides who sees a custom status. */
  privacy: ProfilePrivacy;
  /** Where the user is: `{desktop: status}` from an SDK session, `{web: status}` otherwise. */
  clientStatus?: Record<string, string>;
}

/** The refresh runs this many times per TTL, so one late or failed pass loses nothing. */
const REFRESHES_PER_TTL = 3;

export interface Presences {
  set(userId: string, presence: Presence): Promise<void>;
  /** The presences of `userIds` that are set and live. */
  get(userIds: readonly string[]): Promise<ReadonlyMap<string, Presence>>;
  /** Starts refreshing the entries of the users served here (`usersHere`, read at each pass). */
  start(usersHere: () => Iterable<string>): void;
  stop(): void;
}

export function createPresences(deps: {
  /** Holds only what this module wrote: Presence values. */
  store: PresenceStore;
  clock: Clock;
  timers: Timers;
  onError: (err: unknown) => void;
}): Presences {
  const { store, clock, timers } = deps;
  const intervalMs = store.ttlMs / REFRESHES_PER_TTL;
  let cancel: (() => void) | null = null;
  const turn = (usersHere: () => Iterable<string>) => {
    cancel = timers.schedule(() => {
      turn(usersHere);
    }, intervalMs);
    const userIds = [...usersHere()];
    if (userIds.length > 0) store.refresh(userIds, clock.now()).catch(deps.onError);
  };
  return {
    set: (userId, presence) => store.set(userId, presence, clock.now()),
    get: async (userIds) =>
      userIds.length === 0
        ? new Map()
        : ((await store.get(userIds, clock.now())) as Map<string, Presence>),
    start(usersHere) {
      cancel ??= timers.schedule(() => {
        turn(usersHere);
      }, intervalMs);
    },
    stop() {
      cancel?.();
      cancel = null;
    },
  };
}

/**
 * A user's current activities as op 3 stored them (secrets included), for the accept path of an
 * activity invite; none while invisible or offline, as others see them.
 */
export async function liveActivities(
  deps: { store: PresenceStore; clock: Clock },
  userId: string,
): Promise<readonly Record<string, unknown>[]> {
  const presence = (await deps.store.get([userId], deps.clock.now())).get(userId) as
    Presence | undefined;
  if (presence === undefined || presence.status === 'invisible' || presence.status === 'offline') {
    return [];
  }
  return presence.activities;
}
