/**
 * Storage records and repository of provisional accounts: external identities, platform account
 * bans, per-application OpenID provider settings and publisher-level application links.
 */

/**
 * The `external_auth_type` values the platform names (docs/platform-notes.md#provisional-accounts).
 */
export const EXTERNAL_AUTH_TYPES = [
  'OIDC',
  'STEAM_SESSION_TICKET',
  'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  'EPIC_ONLINE_SERVICES_ID_TOKEN',
  'UNITY_SERVICES_ID_TOKEN',
  'APPLE_ID_TOKEN',
  'PLAYSTATION_NETWORK_ID_TOKEN',
  'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
] as const;
export type ExternalAuthType = (typeof EXTERNAL_AUTH_TYPES)[number];

/** Who an external identity of an application is, on this platform. */
export interface ExternalIdentityRecord {
  applicationId: string;
  authType: ExternalAuthType;
  /** The provider's subject: an OIDC `sub`, or the bot's `external_user_id`. */
  subject: string;
  userId: string;
  /** True while `userId` is a provisional account; false once merged into a full account. */
  provisional: boolean;
  /** The banned platform account whose ban created this (restricted) provisional account. */
  restrictedBy: string | null;
  createdAt: number;
}

export interface ExternalIdentityKey {
  applicationId: string;
  authType: ExternalAuthType;
  subject: string;
}

/** An operator's ban of a platform account; `expiresAt` null is permanent. */
export interface UserBanRecord {
  userId: string;
  reason: string | null;
  expiresAt: number | null;
  createdAt: number;
}

export type OidcValidation = 'strict' | 'legacy';

/** An application's OpenID Connect identity provider. */
export interface OidcProviderRecord {
  applicationId: string;
  issuer: string;
  /** The audience ID tokens must carry (the application's client id at the provider). */
  clientId: string;
  /** 'legacy': saved before the current issuer rules, which it is therefore not held to. */
  validation: OidcValidation;
  updatedAt: number;
}

/**
 * The external identity providers besides OpenID, as an application's settings name them
 * (docs/provisional-accounts.md, Test identity providers).
 */
export const IDENTITY_PROVIDERS = ['steam', 'epic', 'unity', 'apple', 'playstation'] as const;
export type IdentityProvider = (typeof IDENTITY_PROVIDERS)[number];

/**
 * A provider of an application in test mode: its credentials are JWTs signed with the private
 * key of `publicKey` (an SPKI PEM the developer registered), not the provider's own tickets.
 */
export interface IdentityTestKeyRecord {
  applicationId: string;
  provider: IdentityProvider;
  publicKey: string;
  updatedAt: number;
}

export interface ApplicationLinkRecord {
  parentId: string;
  childId: string;
  approvedAt: number;
}

/** How a merge may take hold of an external identity's row. */
export type IdentityLock = 'locked' | 'busy' | 'missing';

export interface ProvisionalRepository {
  findIdentity(key: ExternalIdentityKey): Promise<ExternalIdentityRecord | null>;
  /**
   * Takes the identity's row for the rest of the transaction. 'busy' when another transaction
   * holds it (PostgreSQL, FOR UPDATE NOWAIT); SQLite runs one writer at a time, so never busy.
   */
  lockIdentity(key: ExternalIdentityKey): Promise<IdentityLock>;
  /** The identities held by a user (at most one per application). */
  listIdentitiesOfUser(userId: string): Promise<ExternalIdentityRecord[]>;
  /** Inserts a new identity; false (nothing written) when the key exists already. */
  createIdentity(identity: ExternalIdentityRecord): Promise<boolean>;
  /** Inserts, or replaces the row of the same key. */
  putIdentity(identity: ExternalIdentityRecord): Promise<void>;
  /** Whether the user is a provisional account of some application. */
  isProvisional(userId: string): Promise<boolean>;
  /** Deletes a user record (a provisional account after its merge or unmerge). */
  deleteUser(userId: string): Promise<boolean>;

  findBan(userId: string): Promise<UserBanRecord | null>;
  putBan(ban: UserBanRecord): Promise<void>;
  deleteBan(userId: string): Promise<boolean>;

  findOidcProvider(applicationId: string): Promise<OidcProviderRecord | null>;
  putOidcProvider(provider: OidcProviderRecord): Promise<void>;

  /** The test-mode providers of an application, in IDENTITY_PROVIDERS order. */
  listTestKeys(applicationId: string): Promise<IdentityTestKeyRecord[]>;
  findTestKey(
    applicationId: string,
    provider: IdentityProvider,
  ): Promise<IdentityTestKeyRecord | null>;
  /** Inserts, or replaces the application's key for that provider. */
  putTestKey(key: IdentityTestKeyRecord): Promise<void>;
  deleteTestKey(applicationId: string, provider: IdentityProvider): Promise<boolean>;

  /**
   * Brings an issued access token's expiry forward (child tokens expire with their parent), in
   * `tokens` and in the OAuth core's `oauth_tokens`.
   */
  limitTokenExpiry(hash: string, expiresAt: number): Promise<void>;

  findLink(parentId: string, childId: string): Promise<ApplicationLinkRecord | null>;
  putLink(link: ApplicationLinkRecord): Promise<void>;
  deleteLink(parentId: string, childId: string): Promise<boolean>;
}
