/**
 * @module gateway/guildDirectory: the guilds this node serves sessions of, each a
 * {@link GuildState} (permission model, sessions, GUILD_CREATE snapshot), kept while a session
 * is in it or its snapshot is loading.
 */
import type { Storage } from '../storage/index.js';
import { GuildState, loadGuild, type GuildSnapshot } from './guildState.js';
import type { Presences } from './presences.js';
import type { Session } from './session.js';

/** A load that saw the guild change under it is retried this many times, then kept anyway. */
const SNAPSHOT_RETRIES = 2;

export function createGuildDirectory(deps: {
  storage: Storage;
  presences: Pick<Presences, 'get'>;
}) {
  const guilds = new Map<string, GuildState<Session>>();

  const stateOf = (guildId: string) => {
    let state = guilds.get(guildId);
    if (state === undefined) {
      state = new GuildState<Session>(guildId);
      guilds.set(guildId, state);
    }
    return state;
  };

  /** The session stops receiving the guild's dispatches; an unwatched guild is forgotten. */
  const leave = (session: Session, guildId: string) => {
    session.guildIds.delete(guildId);
    const state = guilds.get(guildId);
    if (state === undefined) return;
    state.sessions.delete(session);
    if (state.sessions.size === 0 && state.loading === null) guilds.delete(guildId);
  };

  /** The snapshot of a guild, loaded once however many sessions ask at the same time. */
  const snapshotOf = (state: GuildState<Session>): Promise<GuildSnapshot | null> => {
    if (state.snapshot !== null) return Promise.resolve(state.snapshot);
    if (state.loading !== null) return state.loading;
    const load = (async () => {
      try {
        for (let attempt = 0; ; attempt++) {
          const generation = state.generation;
          const snapshot = await loadGuild(deps.storage, state, deps.presences.get);
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
    get: (guildId: string) => guilds.get(guildId),
    stateOf,
    leave,
    forget: (guildId: string) => guilds.delete(guildId),
    snapshotOf,
  };
}

export type GuildDirectory = ReturnType<typeof createGuildDirectory>;
