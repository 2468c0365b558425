/** @module control/worldTypes: what loading a world gives back, by the names the world used. */
import type { ParsedWorld, WorldFile } from './worldSchema.js';

export interface LoadWorldOptions {
  /** Overrides the world's own `seed` (default "guildhall"). */
  seed?: string;
}

export interface LoadedPerson {
  id: string;
  username: string;
  /** A session token of the person (`Authorization: <token>`). */
  token: string;
}

export interface LoadedApplication {
  /** The application's id, also its bot user's id. */
  id: string;
  botUserId: string;
  /** `Authorization: Bot <botToken>`. */
  botToken: string;
  clientSecret: string;
  /** The Ed25519 key interactions are signed with (hex), the portal's "public key". */
  publicKey: string;
  /** Command ids by their names in the world. */
  commands: Record<string, string>;
  skus: Record<string, string>;
  entitlements: Record<string, string>;
}

export interface LoadedGuild {
  id: string;
  /** Channel ids by their names in the world (the default channels by their own names). */
  channels: Record<string, string>;
  /** Role ids by their names in the world; `@everyone` is the guild's id. */
  roles: Record<string, string>;
}

export interface LoadedLobby {
  id: string;
}

/** Ids and tokens of a loaded world, keyed by the names in the world file. */
export interface LoadedWorld {
  /** The seed the ids and tokens followed. */
  seed: string;
  people: Record<string, LoadedPerson>;
  applications: Record<string, LoadedApplication>;
  guilds: Record<string, LoadedGuild>;
  lobbies: Record<string, LoadedLobby>;
}

/**
 * The worlds of a running server and the point it returns to (App.worlds): what the test kit and
 * the HTTP controls share.
 */
export interface WorldState {
  /** Loads a world (control/world.ts) and makes the state after it the point reset() returns to. */
  load(world: WorldFile | ParsedWorld, options?: LoadWorldOptions): Promise<LoadedWorld>;
  /** Makes the server's state now the point reset() returns to. */
  mark(): Promise<void>;
  /**
   * Returns to the last load() or mark() (control/reset.ts); with neither yet, to the state of the
   * first call's moment (nothing changes then).
   */
  reset(): Promise<void>;
  /** The worlds loaded and not undone by a reset, oldest first. */
  loaded(): readonly LoadedWorld[];
  /**
   * Counts a world an earlier start loaded into this database as loaded (`guildhall start
   * --world` on its data folder again), then marks.
   */
  adopt(world: LoadedWorld): Promise<void>;
}
