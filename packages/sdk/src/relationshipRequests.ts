/**
 * The requests behind the relationships area's friend, request and block operations
 * (relationships.ts): the two scopes' routes (platform-wide and this game's), and the checks of
 * the client's state each operation makes before it calls them.
 *
 * @module
 */
import { checkUserId } from './activityParts.js';
import type { ClientCore } from './core.js';
import { RelationshipType } from './enums.js';
import { validationError } from './errors.js';
import { isProvisionalUser } from './users.js';

/** The platform-wide relationships' route. */
export const DISCORD_BASE = '/users/@me/relationships';
/** This game's relationships' route. */
export const GAME_BASE = '/users/@me/game-relationships';
/** The platform's usernames: 2–32 characters (a provisional account's is `provisional_<id>`). */
const MAX_USERNAME_LENGTH = 32;

export const PENDING_IN = [RelationshipType.PendingIncoming] as const;
export const PENDING_OUT = [RelationshipType.PendingOutgoing] as const;

/** The relationship routes of one client, with the checks its state allows before them. */
export class RelationshipRequests {
  readonly #core: ClientCore;

  constructor(core: ClientCore) {
    this.#core = core;
  }

  /** Whether the player or the user is a provisional account (which has no platform-wide side). */
  provisionalEither(userId: string): boolean {
    const me = this.#core.state.currentUser;
    const them = this.#core.state.users.get(userId);
    return (
      (me !== null && isProvisionalUser(me)) || (them !== undefined && isProvisionalUser(them))
    );
  }

  /** A friend request by `username`, or `username#discriminator` (the legacy tag form). */
  async byName(operation: string, base: string, username: string): Promise<void> {
    if (typeof username !== 'string' || username.trim() === '') {
      throw validationError(`${operation}: the username is empty.`);
    }
    const [plain = '', discriminator] = username.trim().split('#');
    if (plain === '' || plain.length > MAX_USERNAME_LENGTH) {
      throw validationError(
        `${operation}: "${plain}" is not a username (1–${MAX_USERNAME_LENGTH} characters).`,
      );
    }
    await this.#core.http.request('POST', base, {
      json: discriminator === undefined ? { username: plain } : { username: plain, discriminator },
    });
  }

  /** PUT on a user's relationship: a request by id, or the accept of theirs. */
  async put(operation: string, base: string, userId: string): Promise<void> {
    const id = checkUserId(operation, userId);
    await this.#core.http.request('PUT', `${base}/${id}`, { json: {} });
  }

  /** DELETE of a user's relationship in one scope. */
  async delete(base: string, userId: string): Promise<void> {
    await this.#core.http.request('DELETE', `${base}/${userId}`);
  }

  /** Checks (in the client's state) that the relationship is of one of `types`; the user's id. */
  expect(
    operation: string,
    userId: string,
    { scope, types }: { scope: 'discord' | 'game'; types: readonly number[] },
  ): string {
    const id = checkUserId(operation, userId);
    const type = this.#core.state.relationships.get(id)?.[scope]?.type ?? RelationshipType.None;
    if (!types.includes(type)) {
      const what = types.includes(RelationshipType.PendingIncoming)
        ? 'no friend request from'
        : types.includes(RelationshipType.PendingOutgoing)
          ? 'no friend request pending to'
          : 'no friendship with';
      throw validationError(
        `${operation}: the player has ${what} ${id} ${scope === 'game' ? 'in this game' : 'platform-wide'} (getRelationshipHandle shows the relationship).`,
      );
    }
    return id;
  }
}
