/**
 * Game stats (Application Identity Profiles), the application profiles other users see, guild
 * tags and the primary guild a user wears (migration 0022).
 */

/** The provider type of an identity a game's backend made by writing stats (no external login). */
export const GAME_STATS_PROVIDER_TYPE = 'NONE';

/**
 * The provider type an external identity of migration 0009 shows as, by its `external_auth_type`
 * (the SDK's ExternalIdentityProviderType, upper snake case on the wire).
 */
export const PROVIDER_TYPE_OF_AUTH_TYPE: Readonly<Record<string, string>> = {
  OIDC: 'OIDC',
  STEAM_SESSION_TICKET: 'STEAM',
  EPIC_ONLINE_SERVICES_ACCESS_TOKEN: 'EPIC_ONLINE_SERVICES',
  EPIC_ONLINE_SERVICES_ID_TOKEN: 'EPIC_ONLINE_SERVICES',
  UNITY_SERVICES_ID_TOKEN: 'UNITY',
  APPLE_ID_TOKEN: 'APPLE',
  PLAYSTATION_NETWORK_ID_TOKEN: 'PLAYSTATION_NETWORK',
  DISCORD_BOT_ISSUED_ACCESS_TOKEN: 'DISCORD_BOT',
};

/** A JSON object as stored (metadata, stats data); the resource validates its shape. */
export type JsonObject = Record<string, unknown>;

/** The identity an application's backend writes game stats into, and the stats. */
export interface ApplicationIdentityProfileRecord {
  applicationId: string;
  userId: string;
  /** Always {@link GAME_STATS_PROVIDER_TYPE} for identities made by a stats write. */
  providerType: string;
  /** The game's own id for the user; later writes must name the same one. */
  providerIssuedUserId: string;
  username: string | null;
  metadata: JsonObject | null;
  /** `{primary, dynamic}`, replaced whole on each write that sends it. */
  data: JsonObject | null;
  createdAt: number;
  updatedAt: number;
}

export type ApplicationIdentityProfilePatch = Partial<
  Pick<ApplicationIdentityProfileRecord, 'username' | 'metadata' | 'data'>
> & { updatedAt: number };

/**
 * How a user's game identity of one application looks to others (the SDK's
 * UserApplicationProfile): from a stats write, or from the external identity a provisional
 * account was made with (migration 0009).
 */
export interface UserApplicationProfileRecord {
  applicationId: string;
  userId: string;
  /** `NONE` for a stats identity; the provider family of an external identity (`OIDC`, `STEAM`, …). */
  providerType: string;
  /** The configured provider's id (an OIDC issuer), when the identity has one. */
  providerId: string | null;
  providerIssuedUserId: string;
  username: string | null;
  /** The avatar hash of the account, for identities that are the account (provisional). */
  avatarHash: string | null;
  metadata: JsonObject | null;
  /** The external auth type of migration 0009 (`OIDC`, `STEAM_SESSION_TICKET`, …); null for stats. */
  externalAuthType: string | null;
}

export interface ApplicationIdentityRepository {
  findProfile(
    applicationId: string,
    userId: string,
  ): Promise<ApplicationIdentityProfileRecord | null>;
  /** The stats identity of an application holding this provider-issued id, whoever's it is. */
  findProfileByExternalId(
    applicationId: string,
    providerType: string,
    providerIssuedUserId: string,
  ): Promise<ApplicationIdentityProfileRecord | null>;
  /** Inserts; a StorageConflictError when the user or the provider-issued id has one already. */
  createProfile(profile: ApplicationIdentityProfileRecord): Promise<void>;
  /** Applies the patch; null when there is no such identity. */
  updateProfile(
    applicationId: string,
    userId: string,
    patch: ApplicationIdentityProfilePatch,
  ): Promise<ApplicationIdentityProfileRecord | null>;
  /** The application's game-stats widget layout (migration 0028), null when it set none. */
  findStatsLayout(applicationId: string): Promise<JsonObject | null>;
  /** Replaces the application's widget layout. */
  putStatsLayout(applicationId: string, layout: JsonObject, updatedAt: number): Promise<void>;
  /** Deletes the user's stats identity of the application; whether one existed. */
  deleteProfile(applicationId: string, userId: string): Promise<boolean>;
  /** The users holding an external identity (migration 0009) of the application with this subject. */
  findExternalIdentityUsers(applicationId: string, subject: string): Promise<string[]>;
  /**
   * The application profiles of these users in one application: their stats identities and the
   * external identities of migration 0009, by user id then provider type. For the HTTP route and
   * for the gateway (what an SDK client shows of its friends and lobby members).
   */
  listUserApplicationProfiles(
    applicationId: string,
    userIds: readonly string[],
  ): Promise<UserApplicationProfileRecord[]>;
}

/** A guild's tag and badge. */
export interface GuildTagRecord {
  guildId: string;
  /** 1 to 4 letters or digits (no spaces: the user read packs it with spaces, sql/users.ts). */
  tag: string;
  /** An opaque badge identifier (no spaces either), or null for the default badge. */
  badge: string | null;
  updatedAt: number;
}

/** The primary guild a user shows, as the user object's `primary_guild` renders it. */
export interface PrimaryGuildRecord {
  guildId: string;
  /** null when the guild dropped its tag (the system cleared it). */
  enabled: boolean | null;
  tag: string | null;
  badge: string | null;
}

export interface GuildTagRepository {
  findTag(guildId: string): Promise<GuildTagRecord | null>;
  /** Inserts or replaces the guild's tag. */
  putTag(tag: GuildTagRecord): Promise<void>;
  /**
   * Deletes the guild's tag and turns off (enabled = 0) every user's choice of the guild, so a
   * later tag is not shown until each user enables it again; whether a tag existed.
   */
  deleteTag(guildId: string): Promise<boolean>;
  /** Sets (or replaces) the user's primary guild choice, stamped `at`. */
  setPrimaryGuild(input: {
    userId: string;
    guildId: string;
    enabled: boolean;
    at: number;
  }): Promise<void>;
  /** The users who chose this guild as their primary guild (shown or hidden), by id. */
  listPrimaryGuildUsers(guildId: string): Promise<string[]>;
  /** Clears the user's choice; whether there was one. */
  clearPrimaryGuild(userId: string): Promise<boolean>;
}
