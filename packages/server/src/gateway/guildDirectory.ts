/**
 * @module gateway/guildDirectory: the guilds this node serves sessions of, each a
 * {@link GuildState} (permission model, sessions, GUILD_CREATE snapshot) and the node's
 * subscription to the guild's subject. A guild is kept, and watched, while a session is in it,
 * a join is in progress (a hold) or its snapshot is loading; the last to go ends both.
 */
import { guildSubject } from '../events/dispatcher.js';
import type { Storage } from '../storage/index.js';
import { GuildState, loadGuild, type GuildSnapshot } from './guildState.js';
import type { Presences } from './presences.js';
import type { Session } from './session.js';
import type { SubjectSubscriptions } from '../bus/subscriptions.js';

/** A load that saw the guild change under it is retried this many times, then kept anyway. */
const SNAPSHOT_RETRIES = 2;

interface Entry {
  readonly state: GuildState<Session>;
  /** Joins in progress. */
  holds: number;
  /** Resolves once the guild's dispatches reach this node. */
  readonly watching: Promise<void>;
}

export function createGuildDirectory(deps: {
  storage: Storage;
  subscriptions: SubjectSubscriptions;
  presences: Pick<Presences, 'get'>;
}) {
  const { storage, subscriptions, presences } = deps;
  const guilds = new Map<string, Entry>();

  const remove = (entry: Entry) => {
    guilds.delete(entry.state.id);
    subscriptions.release(guildSubject(entry.state.id));
  };

  const dropIfIdle = (entry: Entry) => {
    const { state } = entry;
    if (guilds.get(state.id) !== entry) return;
    if (state.sessions.size === 0 && entry.holds === 0 && state.loading === null) remove(entry);
  };

  /**
   * Holds the guild for a join: its state is kept, and the promise resolves once every dispatch
   * of the guild published from now on reaches this node, so a snapshot loaded afterwards misses
   * nothing. Every hold, resolved or not, is ended by one {@link unhold}.
   */
  const hold = (guildId: string): { state: GuildState<Session>; watching: Promise<void> } => {
    let entry = guilds.get(guildId);
    if (entry === undefined) {
      entry = {
        state: new GuildState<Session>(guildId),
        holds: 0,
        watching: subscriptions.acquire(guildSubject(guildId)),
      };
      guilds.set(guildId, entry);
    }
    entry.holds++;
    return { state: entry.state, watching: entry.watching };
  };

  const entryOf = (state: GuildState<Session>): Entry | undefined => {
    const entry = guilds.get(state.id);
    return entry?.state === state ? entry : undefined;
  };

  /** Ends a hold; an unwatched guild is forgotten. */
  const unhold = (state: GuildState<Session>) => {
    const entry = entryOf(state);
    if (entry === undefined) return;
    entry.holds--;
    dropIfIdle(entry);
  };

  /**
   * Holds several guilds at once; resolves, once all are watched, to the function that ends the
   * holds.
   */
  const holdMany = async (guildIds: readonly string[]): Promise<() => void> => {
    const held = guildIds.map(hold);
    const release = () => {
      for (const { state } of held) unhold(state);
    };
    try {
      await Promise.all(held.map((h) => h.watching));
    } catch (err) {
      release();
      throw err;
    }
    return release;
  };

  /** The session stops receiving the guild's dispatches; an unwatched guild is forgotten. */
  const leave = (session: Session, guildId: string) => {
    session.guildIds.delete(guildId);
    const entry = guilds.get(guildId);
    if (entry === undefined) return;
    entry.state.sessions.delete(session);
    dropIfIdle(entry);
  };

  /** The snapshot of a guild, loaded once however many sessions ask at the same time. */
  const snapshotOf = (state: GuildState<Session>): Promise<GuildSnapshot | null> => {
    if (state.snapshot !== null) return Promise.resolve(state.snapshot);
    if (state.loading !== null) return state.loading;
    const load = (async () => {
      try {
        for (let attempt = 0; ; attempt++) {
          const generation = state.generation;
          const snapshot = await loadGuild(storage, state, presences.get);
          if (snapshot === null) return null;
          if (generation === state.generation || attempt >= SNAPSHOT_RETRIES) {
            state.snapshot = snapshot;
            return snapshot;
          }
        }
      } finally {
        state.loading = null;
      }
    })();
    state.loading = load as Promise<GuildSnapshot>;
    return load;
  };

  return {
    get: (guildId: string) => guilds.get(guildId)?.state,
    hold,
    holdMany,
    unhold,
    leave,
    /** The guild is gone (GUILD_DELETE): its state and its subscription go at once. */
    forget(guildId: string) {
      const entry = guilds.get(guildId);
      if (entry !== undefined) remove(entry);
    },
    snapshotOf,
  };
}

export type GuildDirectory = ReturnType<typeof createGuildDirectory>;
