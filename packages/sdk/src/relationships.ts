/**
 * Relationships: friends (platform-wide and in-game), requests, blocks, and the grouped friends
 * list (docs/social-friends.md).
 *
 * The client keeps `core.state.relationships` (one `RelationshipPair` per user: the platform-wide
 * relationship and this game's) and `core.state.presences` from READY and the RELATIONSHIP_* and
 * PRESENCE_UPDATE dispatches after it; handles read through them. The requests and the checks
 * before them are relationshipRequests.ts.
 *
 * @module
 */
import type { ClientCore } from './core.js';
import { RelationshipGroupType, RelationshipType } from './enums.js';
import { validationError } from './errors.js';
import { checkUserId } from './presence.js';
import { isFriend, socialSync } from './socialSync.js';
import { compareFriends, friendGroup } from './rules.js';
import {
  DISCORD_BASE,
  GAME_BASE,
  PENDING_IN,
  PENDING_OUT,
  RelationshipRequests,
} from './relationshipRequests.js';
import { RelationshipHandle, UserHandle } from './users.js';
import type { WireRelationship } from './wire.js';

/** `RelationshipHandle` is defined beside `UserHandle` (each hands out the other). */
export { RelationshipHandle } from './users.js';

/** `Client::RelationshipCreatedCallback`: the user, and whether the platform-wide side changed. */
export type RelationshipCreatedCallback = (
  userId: string,
  isDiscordRelationshipUpdate: boolean,
) => void;
/** `Client::RelationshipDeletedCallback`: the user, and whether the platform-wide side went. */
export type RelationshipDeletedCallback = (
  userId: string,
  isDiscordRelationshipUpdate: boolean,
) => void;
/** `Client::RelationshipGroupsUpdatedCallback`: the user whose change altered the groups. */
export type RelationshipGroupsUpdatedCallback = (userId: string) => void;

/** Which group of the friends list a friend is in, or null for one who is not a friend. */
function groupOf(core: ClientCore, userId: string): RelationshipGroupType | null {
  const pair = core.state.relationships.get(userId);
  if (pair === undefined) return null;
  const applicationId = core.state.applicationId ?? core.applicationId;
  const presence = core.state.presences.get(userId);
  return friendGroup({
    discord: (pair.discord?.type ?? RelationshipType.None) as RelationshipType,
    game: (pair.game?.type ?? RelationshipType.None) as RelationshipType,
    status: presence?.status ?? null,
    playingThisGame: (presence?.activities ?? []).some(
      (activity) => applicationId !== null && activity.application_id === applicationId,
    ),
  });
}

function sortedGroup(core: ClientCore, group: RelationshipGroupType): string[] {
  const ids = [...core.state.relationships.keys()].filter((id) => groupOf(core, id) === group);
  const name = (id: string) => new UserHandle(core, id).displayName();
  return ids.sort((a, b) => compareFriends({ id: a, name: name(a) }, { id: b, name: name(b) }));
}

export class RelationshipsArea {
  protected readonly core: ClientCore;
  #created: RelationshipCreatedCallback | null = null;
  #deleted: RelationshipDeletedCallback | null = null;
  #groupsUpdated: RelationshipGroupsUpdatedCallback | null = null;
  readonly #requests: RelationshipRequests;
  /** The groups as last computed: one line per group, ids in order. */
  #groups = '';

  constructor(core: ClientCore) {
    this.core = core;
    this.#requests = new RelationshipRequests(core);
    const sync = socialSync(core);
    sync.graphChanged.push((userId) => {
      this.#recompute(userId);
    });
    sync.ready.push(() => {
      this.#recompute(core.state.currentUser?.id ?? '0');
    });
    const onRelationship = (data: unknown, removed: boolean) => {
      const relationship = data as WireRelationship;
      const applicationId = core.state.applicationId;
      if (
        relationship.application_id !== undefined &&
        applicationId !== null &&
        relationship.application_id !== applicationId
      ) {
        return;
      }
      const isDiscord = relationship.application_id === undefined;
      if (removed) core.invoke(this.#deleted, relationship.id, isDiscord);
      else core.invoke(this.#created, relationship.id, isDiscord);
    };
    core.on('RELATIONSHIP_ADD', (data) => {
      onRelationship(data, false);
    });
    core.on('RELATIONSHIP_REMOVE', (data) => {
      onRelationship(data, true);
    });
    this.#groups = this.#snapshot();
  }

  #snapshot(): string {
    return [
      RelationshipGroupType.OnlinePlayingGame,
      RelationshipGroupType.OnlineElsewhere,
      RelationshipGroupType.Offline,
    ]
      .map((group) => sortedGroup(this.core, group).join(','))
      .join('\n');
  }

  /** Fires the groups callback once when the groups (membership or order) differ from before. */
  #recompute(userId: string): void {
    const groups = this.#snapshot();
    if (groups === this.#groups) return;
    this.#groups = groups;
    this.core.invoke(this.#groupsUpdated, userId);
  }

  /** Every relationship the player has (friends, requests either way, blocks), either scope. */
  getRelationships(): RelationshipHandle[] {
    return [...this.core.state.relationships.keys()].map(
      (id) => new RelationshipHandle(this.core, id),
    );
  }

  /** The relationship with a user; its types are `None` when there is none. */
  getRelationshipHandle(userId: string): RelationshipHandle {
    return new RelationshipHandle(this.core, checkUserId('getRelationshipHandle', userId));
  }

  /**
   * The friends (platform-wide or in this game) of one group, sorted: by display name (case and
   * accents ignored, numbers in numeric order), then by id.
   * - `OnlinePlayingGame`: online (online, idle, do not disturb) with an activity of this game;
   * - `OnlineElsewhere`: online, not playing this game;
   * - `Offline`: offline or invisible (or no presence known).
   */
  getRelationshipsByGroup(groupType: RelationshipGroupType): RelationshipHandle[] {
    if (!Object.values(RelationshipGroupType).includes(groupType)) {
      throw validationError(
        `getRelationshipsByGroup: ${String(groupType)} is not a RelationshipGroupType.`,
      );
    }
    return sortedGroup(this.core, groupType).map((id) => new RelationshipHandle(this.core, id));
  }

  /** Friends whose username or display name contains `search` (case ignored), by display name. */
  searchFriendsByUsername(search: string): UserHandle[] {
    if (typeof search !== 'string') {
      throw validationError('searchFriendsByUsername: the search must be a string.');
    }
    const needle = search.trim().toLocaleLowerCase();
    const found: UserHandle[] = [];
    for (const [id, pair] of this.core.state.relationships) {
      if (!isFriend(pair)) continue;
      const user = new UserHandle(this.core, id);
      const names = [user.username(), user.displayName()].map((n) => n.toLocaleLowerCase());
      if (names.some((name) => name.includes(needle))) found.push(user);
    }
    return found.sort((a, b) =>
      compareFriends({ id: a.id(), name: a.displayName() }, { id: b.id(), name: b.displayName() }),
    );
  }

  setRelationshipCreatedCallback(callback: RelationshipCreatedCallback | null): void {
    this.#created = callback;
  }

  setRelationshipDeletedCallback(callback: RelationshipDeletedCallback | null): void {
    this.#deleted = callback;
  }

  /**
   * Called once per change that alters the friends list's groups (a friend moving between
   * groups, joining or leaving one, or its order changing); call getRelationshipsByGroup again.
   */
  setRelationshipGroupsUpdatedCallback(callback: RelationshipGroupsUpdatedCallback | null): void {
    this.#groupsUpdated = callback;
  }

  // ── Friend requests ─────────────────────────────────────────────────────────────────────────

  /** A platform-wide friend request by username: POST /users/@me/relationships. */
  async sendDiscordFriendRequest(username: string): Promise<void> {
    await this.#requests.byName('sendDiscordFriendRequest', DISCORD_BASE, username);
  }

  /** A platform-wide friend request by id: PUT /users/@me/relationships/{id}. */
  async sendDiscordFriendRequestById(userId: string): Promise<void> {
    await this.#requests.put('sendDiscordFriendRequestById', DISCORD_BASE, userId);
  }

  /** A friend request in this game by username: POST /users/@me/game-relationships. */
  async sendGameFriendRequest(username: string): Promise<void> {
    await this.#requests.byName('sendGameFriendRequest', GAME_BASE, username);
  }

  /** A friend request in this game by id: PUT /users/@me/game-relationships/{id}. */
  async sendGameFriendRequestById(userId: string): Promise<void> {
    await this.#requests.put('sendGameFriendRequestById', GAME_BASE, userId);
  }

  /** Accepts the user's platform-wide request (PUT); rejects when none is pending. */
  async acceptDiscordFriendRequest(userId: string): Promise<void> {
    const id = this.#requests.expect('acceptDiscordFriendRequest', userId, {
      scope: 'discord',
      types: PENDING_IN,
    });
    await this.#requests.put('acceptDiscordFriendRequest', DISCORD_BASE, id);
  }

  /** Accepts the user's request in this game (PUT); rejects when none is pending. */
  async acceptGameFriendRequest(userId: string): Promise<void> {
    const id = this.#requests.expect('acceptGameFriendRequest', userId, {
      scope: 'game',
      types: PENDING_IN,
    });
    await this.#requests.put('acceptGameFriendRequest', GAME_BASE, id);
  }

  /** Declines the user's platform-wide request (DELETE). */
  async rejectDiscordFriendRequest(userId: string): Promise<void> {
    const id = this.#requests.expect('rejectDiscordFriendRequest', userId, {
      scope: 'discord',
      types: PENDING_IN,
    });
    await this.#requests.delete(DISCORD_BASE, id);
  }

  /** Declines the user's request in this game (DELETE). */
  async rejectGameFriendRequest(userId: string): Promise<void> {
    const id = this.#requests.expect('rejectGameFriendRequest', userId, {
      scope: 'game',
      types: PENDING_IN,
    });
    await this.#requests.delete(GAME_BASE, id);
  }

  /** Withdraws the player's platform-wide request to the user (DELETE). */
  async cancelDiscordFriendRequest(userId: string): Promise<void> {
    const id = this.#requests.expect('cancelDiscordFriendRequest', userId, {
      scope: 'discord',
      types: PENDING_OUT,
    });
    await this.#requests.delete(DISCORD_BASE, id);
  }

  /** Withdraws the player's request in this game to the user (DELETE). */
  async cancelGameFriendRequest(userId: string): Promise<void> {
    const id = this.#requests.expect('cancelGameFriendRequest', userId, {
      scope: 'game',
      types: PENDING_OUT,
    });
    await this.#requests.delete(GAME_BASE, id);
  }

  /** Ends the friendship in both scopes (each DELETE the player has a friendship in). */
  async removeDiscordAndGameFriend(userId: string): Promise<void> {
    const id = checkUserId('removeDiscordAndGameFriend', userId);
    const pair = this.core.state.relationships.get(id);
    const discord = pair?.discord?.type === RelationshipType.Friend;
    const game = pair?.game?.type === RelationshipType.Friend;
    if (!discord && !game) {
      throw validationError(
        `removeDiscordAndGameFriend: ${id} is not a friend of the player (getRelationshipHandle shows the relationship).`,
      );
    }
    if (discord) await this.#requests.delete(DISCORD_BASE, id);
    if (game) await this.#requests.delete(GAME_BASE, id);
  }

  /** Ends the friendship in this game only (DELETE /users/@me/game-relationships/{id}). */
  async removeGameFriend(userId: string): Promise<void> {
    const id = this.#requests.expect('removeGameFriend', userId, {
      scope: 'game',
      types: [RelationshipType.Friend],
    });
    await this.#requests.delete(GAME_BASE, id);
  }

  /**
   * Blocks a user (PUT `{type: 2}`), which ends every friendship and request between the two.
   * Platform-wide, or in this game when either user is a provisional account (which has no
   * platform-wide relationships).
   */
  async blockUser(userId: string): Promise<void> {
    const id = checkUserId('blockUser', userId);
    const base = this.#requests.provisionalEither(id) ? GAME_BASE : DISCORD_BASE;
    await this.core.http.request('PUT', `${base}/${id}`, {
      json: { type: RelationshipType.Blocked },
    });
  }

  /** Lifts the player's block of a user (DELETE in each scope the block is in). */
  async unblockUser(userId: string): Promise<void> {
    const id = checkUserId('unblockUser', userId);
    const pair = this.core.state.relationships.get(id);
    const discord = pair?.discord?.type === RelationshipType.Blocked;
    const game = pair?.game?.type === RelationshipType.Blocked;
    if (!discord && !game) {
      throw validationError(`unblockUser: the player does not block ${id}.`);
    }
    if (discord) await this.#requests.delete(DISCORD_BASE, id);
    if (game) await this.#requests.delete(GAME_BASE, id);
  }
}
