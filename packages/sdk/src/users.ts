/**
 * Users: the current user, `UserHandle`, and user application profiles (docs/social-stats.md).
 *
 * @module
 */
import type { ClientCore } from './core.js';
import { RelationshipType, type StatusType } from './enums.js';
import { validationError } from './errors.js';
import { Activity, checkUserId } from './presence.js';
import { socialSync } from './socialSync.js';
import { statusFrom } from './rules.js';
import type { WireUser } from './wire.js';

/** The longest global name (a provisional account's display name). */
const MAX_DISPLAY_NAME_LENGTH = 32;

/** `UserHandle::AvatarType`: the image formats of `avatarUrl`. */
export const AvatarType = {
  Gif: 0,
  Webp: 1,
  Png: 2,
  Jpeg: 3,
} as const;
export type AvatarType = (typeof AvatarType)[keyof typeof AvatarType];

const AVATAR_EXTENSIONS: Readonly<Record<AvatarType, string>> = {
  [AvatarType.Gif]: 'gif',
  [AvatarType.Webp]: 'webp',
  [AvatarType.Png]: 'png',
  [AvatarType.Jpeg]: 'jpg',
};

/** `ExternalIdentityProviderType`: where a user application profile's identity comes from. */
export const ExternalIdentityProviderType = {
  OIDC: 0,
  EpicOnlineServices: 1,
  Steam: 2,
  Unity: 3,
  DiscordBot: 4,
  None: 5,
  Unknown: 6,
} as const;
export type ExternalIdentityProviderType =
  (typeof ExternalIdentityProviderType)[keyof typeof ExternalIdentityProviderType];

/** The wire's `provider_type` strings (docs/social-stats.md, Identities). */
const PROVIDER_TYPES: Readonly<Record<string, ExternalIdentityProviderType>> = {
  OIDC: ExternalIdentityProviderType.OIDC,
  EPIC_ONLINE_SERVICES: ExternalIdentityProviderType.EpicOnlineServices,
  STEAM: ExternalIdentityProviderType.Steam,
  UNITY: ExternalIdentityProviderType.Unity,
  DISCORD_BOT: ExternalIdentityProviderType.DiscordBot,
  NONE: ExternalIdentityProviderType.None,
};

/** One profile of `GET /users/{user.id}/application-profiles`. */
export interface WireUserApplicationProfile {
  application_id: string;
  user_id: string;
  avatar_hash: string | null;
  metadata: Record<string, unknown> | null;
  provider_id: string | null;
  provider_issued_user_id: string;
  provider_type: string;
  username: string | null;
}

/** `Client::UserUpdatedCallback`: the user whose data or presence changed. */
export type UserUpdatedCallback = (userId: string) => void;

/** The profiles each client has read, by user id (`getUserApplicationProfilesNoLock`). */
const profileCaches = new WeakMap<ClientCore, Map<string, WireUserApplicationProfile[]>>();

function profileCache(core: ClientCore): Map<string, WireUserApplicationProfile[]> {
  let cache = profileCaches.get(core);
  if (cache === undefined) {
    cache = new Map();
    profileCaches.set(core, cache);
  }
  return cache;
}

/**
 * A provisional account: the platform names it `provisional_<its id>` (docs/provisional-accounts.md)
 * and its user object carries no other mark.
 */
export function isProvisionalUser(user: WireUser): boolean {
  return user.username === `provisional_${user.id}`;
}

/** A user's status as the client knows it: a block, their presence, else offline. @internal */
export function statusOf(core: ClientCore, userId: string): StatusType {
  const pair = core.state.relationships.get(userId);
  return statusFrom(
    (pair?.discord?.type ?? RelationshipType.None) as RelationshipType,
    (pair?.game?.type ?? RelationshipType.None) as RelationshipType,
    core.state.presences.get(userId)?.status ?? null,
  );
}

/**
 * `UserHandle`: a user the client knows (the player, a friend, a request, a message's author, a
 * lobby member). Its getters read the client's state live.
 */
export class UserHandle {
  readonly #core: ClientCore;
  readonly #userId: string;

  /** @internal Made by the client (`getUser`, `getCurrentUserV2`, other handles). */
  constructor(core: ClientCore, userId: string) {
    this.#core = core;
    this.#userId = userId;
  }

  id(): string {
    return this.#userId;
  }

  /** The unique username (a provisional account's is generated: `provisional_<id>`). */
  username(): string {
    return this.#user()?.username ?? '';
  }

  /** The name the user chose to show, when they chose one. */
  globalName(): string | null {
    return this.#user()?.global_name ?? null;
  }

  /** What to show: the global name, else the username. */
  displayName(): string {
    return this.globalName() ?? this.username();
  }

  /** The avatar's hash, null without an avatar. */
  avatar(): string | null {
    return this.#user()?.avatar ?? null;
  }

  /**
   * The avatar's URL on the platform's CDN (`/avatars/{id}/{hash}.{ext}`, the API's origin): in
   * `animatedType` for an animated avatar (hash `a_…`), `staticType` otherwise. Null without an
   * avatar (this platform serves no default avatars).
   */
  avatarUrl(
    animatedType: AvatarType = AvatarType.Gif,
    staticType: AvatarType = AvatarType.Png,
  ): string | null {
    const hash = this.avatar();
    if (hash === null) return null;
    const type = hash.startsWith('a_') ? animatedType : staticType;
    const extension = AVATAR_EXTENSIONS[type] as string | undefined;
    if (extension === undefined) {
      throw validationError(`avatarUrl: ${String(type)} is not an AvatarType.`);
    }
    const origin = new URL(this.#core.http.apiBase).origin;
    return `${origin}/avatars/${this.#userId}/${hash}.${extension}`;
  }

  /** Whether the user is a provisional account (a game-only account without a login of its own). */
  isProvisional(): boolean {
    const user = this.#user();
    return user !== undefined && isProvisionalUser(user);
  }

  /**
   * The user's online status: `Blocked` for a blocked user, else their presence (friends' reach
   * the client; everyone else is `Offline`, as is an invisible friend).
   */
  status(): StatusType {
    return statusOf(this.#core, this.#userId);
  }

  /** The user's rich presence in this game (an activity of this application), else null. */
  gameActivity(): Activity | null {
    const applicationId = this.#core.state.applicationId ?? this.#core.applicationId;
    const activity = this.#core.state.presences
      .get(this.#userId)
      ?.activities.find((a) => applicationId !== null && a.application_id === applicationId);
    return activity === undefined ? null : Activity.fromWire(activity);
  }

  /** The player's relationship with this user (both scopes). */
  relationship(): RelationshipHandle {
    return new RelationshipHandle(this.#core, this.#userId);
  }

  /** The user's profiles in this game as last read by `getUserApplicationProfiles` (no request). */
  userApplicationProfiles(): UserApplicationProfileHandle[] {
    return (profileCache(this.#core).get(this.#userId) ?? []).map(
      (profile) => new UserApplicationProfileHandle(profile),
    );
  }

  #user(): WireUser | undefined {
    return this.#core.state.users.get(this.#userId);
  }
}

/**
 * `RelationshipHandle`: the player's relationship with one user, both sides of it — the
 * platform-wide one ("Discord") and this game's. It reads the client's state live.
 */
export class RelationshipHandle {
  readonly #core: ClientCore;
  readonly #userId: string;

  /** @internal Made by the client (`getRelationshipHandle`, `UserHandle.relationship()`). */
  constructor(core: ClientCore, userId: string) {
    this.#core = core;
    this.#userId = userId;
  }

  /** The other user's id. */
  id(): string {
    return this.#userId;
  }

  /** The platform-wide relationship (`RelationshipType.None` when there is none). */
  discordRelationshipType(): RelationshipType {
    return (this.#pair()?.discord?.type ?? RelationshipType.None) as RelationshipType;
  }

  /** The relationship in this game (`RelationshipType.None` when there is none). */
  gameRelationshipType(): RelationshipType {
    return (this.#pair()?.game?.type ?? RelationshipType.None) as RelationshipType;
  }

  /** Whether the platform flagged this incoming friend request as likely spam. */
  isSpamRequest(): boolean {
    const pair = this.#pair();
    return pair?.discord?.is_spam_request === true || pair?.game?.is_spam_request === true;
  }

  /** The user, when the client knows them (it does for every relationship it holds). */
  user(): UserHandle | null {
    return this.#core.state.users.has(this.#userId)
      ? new UserHandle(this.#core, this.#userId)
      : null;
  }

  #pair() {
    return this.#core.state.relationships.get(this.#userId);
  }
}

/**
 * `UserApplicationProfileHandle`: one of a user's identities in the game (an external login of a
 * provisional account, or the stats profile the game's backend writes), docs/social-stats.md.
 */
export class UserApplicationProfileHandle {
  readonly #profile: WireUserApplicationProfile;

  /** @internal */
  constructor(profile: WireUserApplicationProfile) {
    this.#profile = profile;
  }

  /** The in-game avatar's hash (an external identity's account avatar), empty when none. */
  avatarHash(): string {
    return this.#profile.avatar_hash ?? '';
  }

  /** The metadata the game's backend set, as JSON text (`""` when none). */
  metadata(): string {
    return this.#profile.metadata === null ? '' : JSON.stringify(this.#profile.metadata);
  }

  /** The identity provider's id (an OIDC issuer), null when the provider has none. */
  providerId(): string | null {
    return this.#profile.provider_id;
  }

  /** The user's id at the provider (the game's id of the player). */
  providerIssuedUserId(): string {
    return this.#profile.provider_issued_user_id;
  }

  providerType(): ExternalIdentityProviderType {
    return PROVIDER_TYPES[this.#profile.provider_type] ?? ExternalIdentityProviderType.Unknown;
  }

  /** The in-game username, empty when none. */
  username(): string {
    return this.#profile.username ?? '';
  }

  /** The application the profile belongs to. */
  applicationId(): string {
    return this.#profile.application_id;
  }
}

export class UsersArea {
  protected readonly core: ClientCore;
  #userUpdated: UserUpdatedCallback | null = null;
  #warnedGetCurrentUser = false;

  constructor(core: ClientCore) {
    this.core = core;
    socialSync(core).userChanged.push((userId) => {
      core.invoke(this.#userUpdated, userId);
    });
  }

  /**
   * Deprecated (`Client::GetCurrentUser`): use getCurrentUserV2, which answers null instead of
   * failing before the client is ready. Logs a warning the first time it is called.
   */
  getCurrentUser(): UserHandle {
    if (!this.#warnedGetCurrentUser) {
      this.#warnedGetCurrentUser = true;
      this.core.logger.warn(
        'getCurrentUser() is deprecated: use getCurrentUserV2(), which returns null until the client is ready.',
      );
    }
    const me = this.getCurrentUserV2();
    if (me === null) {
      this.core.requireReady('getCurrentUser');
      throw validationError('getCurrentUser: the current user is not known yet.');
    }
    return me;
  }

  /** The player, once READY has told who they are; null before. */
  getCurrentUserV2(): UserHandle | null {
    const me = this.core.state.currentUser;
    return me === null ? null : new UserHandle(this.core, me.id);
  }

  /** A user the client knows (from READY, relationships, messages, lobbies), else null. */
  getUser(userId: string): UserHandle | null {
    const id = checkUserId('getUser', userId);
    return this.core.state.users.has(id) ? new UserHandle(this.core, id) : null;
  }

  /** Called when a user the client knows changes name or avatar, status or activities. */
  setUserUpdatedCallback(callback: UserUpdatedCallback | null): void {
    this.#userUpdated = callback;
  }

  /**
   * The user's profiles in this game, read from the platform (`GET
   * /users/{id}/application-profiles`) and kept for getUserApplicationProfilesNoLock and
   * `UserHandle.userApplicationProfiles()`.
   */
  async getUserApplicationProfiles(userId: string): Promise<UserApplicationProfileHandle[]> {
    const id = checkUserId('getUserApplicationProfiles', userId);
    const profiles = await this.core.http.get<WireUserApplicationProfile[]>(
      `/users/${id}/application-profiles`,
    );
    profileCache(this.core).set(id, profiles);
    return profiles.map((profile) => new UserApplicationProfileHandle(profile));
  }

  /**
   * `PATCH /partner-sdk/provisional-accounts/@me`: the provisional account's global name. The
   * platform's USER_UPDATE brings it to the client's sessions; the answer updates this one now.
   */
  async updateProvisionalAccountDisplayName(name: string): Promise<void> {
    if (typeof name !== 'string' || name.length < 1 || name.length > MAX_DISPLAY_NAME_LENGTH) {
      throw validationError(
        `updateProvisionalAccountDisplayName: the name must be 1 to ${String(MAX_DISPLAY_NAME_LENGTH)} characters.`,
      );
    }
    const user = await this.core.http.request<WireUser>(
      'PATCH',
      '/partner-sdk/provisional-accounts/@me',
      { json: { global_name: name } },
    );
    this.core.state.cacheUser(user);
    const me = this.core.state.currentUser;
    if (me?.id === user.id) this.core.state.currentUser = { ...me, ...user };
  }

  /**
   * The user's profiles as the client last read them, without a request (empty when they were
   * never read): for a game loop that must not wait. getUserApplicationProfiles refreshes them.
   */
  getUserApplicationProfilesNoLock(userId: string): UserApplicationProfileHandle[] {
    const id = checkUserId('getUserApplicationProfilesNoLock', userId);
    return new UserHandle(this.core, id).userApplicationProfiles();
  }
}
