/** Users, human and bot, and the accounts they connect on other services. */

import type { PrimaryGuildRecord } from './gameStats.js';

/** A user, human or bot. */
export interface UserRecord {
  id: string;
  username: string;
  discriminator: string;
  globalName: string | null;
  avatar: string | null;
  banner: string | null;
  accentColor: number | null;
  bio: string;
  bot: boolean;
  system: boolean;
  email: string | null;
  verified: boolean;
  passwordHash: string | null;
  flags: number;
  premiumType: number;
  locale: string;
  mfaEnabled: boolean;
  createdAt: number;
  /** The guild tag the user shows (`primary_guild`); read with the user, absent on hand-made records. */
  primaryGuild?: PrimaryGuildRecord | null;
}

export type NewUser = Pick<UserRecord, 'id' | 'username' | 'createdAt'> &
  Partial<Omit<UserRecord, 'id' | 'username' | 'createdAt'>>;

export type UserPatch = Partial<
  Pick<
    UserRecord,
    | 'username'
    | 'discriminator'
    | 'globalName'
    | 'avatar'
    | 'banner'
    | 'accentColor'
    | 'bio'
    | 'email'
    | 'verified'
    | 'passwordHash'
    | 'flags'
    | 'premiumType'
    | 'locale'
  >
>;

export interface UserRepository {
  create(user: NewUser): Promise<UserRecord>;
  findById(id: string): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  findByUsername(username: string): Promise<UserRecord | null>;
  /** Users by id in one query; unknown ids are absent. */
  findByIds(ids: readonly string[]): Promise<UserRecord[]>;
  /** Applies the patch and returns the new record, or null when the user does not exist. */
  update(id: string, patch: UserPatch): Promise<UserRecord | null>;
  /** Whether the person may see age-restricted content (`nsfw_allowed`); null: not known. */
  findNsfwAllowed(userId: string): Promise<boolean | null>;
  /** Sets it (null: not known again). */
  setNsfwAllowed(userId: string, allowed: boolean | null): Promise<void>;
}

/** A user's connected account on another service (GET /users/@me/connections). */
export interface ConnectionRecord {
  userId: string;
  /** The service, as the wire names it (`github`, `riotgames`, ...). */
  type: string;
  /** The account's id on that service. */
  id: string;
  name: string | null;
  verified: boolean;
  friendSync: boolean;
  showActivity: boolean;
  twoWayLink: boolean;
  /** 0 NONE, 1 EVERYONE. */
  visibility: number;
  revoked: boolean;
  /** 'A' or 'B' for the spec's two game-publisher kinds, else null. */
  publisherKind: 'A' | 'B' | null;
  /** Made through the Social SDK and application identities (a "new" connection). */
  applicationIdentity: boolean;
  createdAt: number;
}

export interface ConnectionRepository {
  /** Creates or replaces the user's connection of that type and id. */
  put(connection: ConnectionRecord): Promise<void>;
  /** By type, then id. */
  listByUser(userId: string): Promise<ConnectionRecord[]>;
}
