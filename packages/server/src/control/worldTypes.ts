/** @module control/worldTypes: what loading a world gives back, by the names the world used. */

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
