/**
 * The client's local view of the player's social graph, kept from READY and the dispatches after
 * it. Handles (`UserHandle`, `LobbyHandle`…) read through it, so they show the latest state, as
 * the reference SDK's handles do.
 *
 * @module
 */
import type {
  WireChannel,
  WireLobby,
  WireMessage,
  WirePresence,
  WireRelationship,
  WireUser,
} from './wire.js';

/** Both sides of the player's relationship with one user. */
export interface RelationshipPair {
  discord: WireRelationship | null;
  game: WireRelationship | null;
}

/** What the cache holds of one channel's (a DM's or a lobby's) history. */
export interface ChannelHistory {
  /** Message ids, oldest first. */
  ids: string[];
  /** True when `ids` reaches back to the channel's first message (nothing older exists). */
  complete: boolean;
}

export class SocialState {
  currentUser: WireUser | null = null;
  /** The application of the client's token, from READY. */
  applicationId: string | null = null;
  readonly users = new Map<string, WireUser>();
  /** Friends' presences (and the player's own), by user id. */
  readonly presences = new Map<string, WirePresence>();
  readonly relationships = new Map<string, RelationshipPair>();
  readonly lobbies = new Map<string, WireLobby>();
  /** DMs and group DMs, by channel id. */
  readonly channels = new Map<string, WireChannel>();
  readonly messages = new Map<string, WireMessage>();
  readonly histories = new Map<string, ChannelHistory>();

  /** Keeps the newest copy of a user seen anywhere (an author, a member, a relationship). */
  cacheUser(user: WireUser | undefined | null): void {
    if (user?.id === undefined) return;
    const known = this.users.get(user.id);
    this.users.set(user.id, known === undefined ? user : { ...known, ...user });
  }

  clear(): void {
    this.currentUser = null;
    this.applicationId = null;
    this.users.clear();
    this.presences.clear();
    this.relationships.clear();
    this.lobbies.clear();
    this.channels.clear();
    this.messages.clear();
    this.histories.clear();
  }
}
