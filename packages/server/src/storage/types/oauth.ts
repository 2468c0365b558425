/** OAuth2 records and their repository (migration 0008). Codes and tokens are kept as hashes. */

/** 0: installed to a guild; 1: installed to a user. */
export type IntegrationType = 0 | 1;

/** A user's grant of scopes to an application; one per (user, application). */
export interface OAuthAuthorizationRecord {
  id: string;
  userId: string;
  applicationId: string;
  scopes: string[];
  integrationType: IntegrationType;
  createdAt: number;
  updatedAt: number;
  /** When it was revoked; null while it is live. */
  revokedAt: number | null;
}

export type OAuthTokenKind = 'access' | 'refresh';

/** An access or refresh token of an authorization (access tokens are also `tokens` rows). */
export interface OAuthTokenRecord {
  hash: string;
  authorizationId: string;
  kind: OAuthTokenKind;
  scopes: string[];
  createdAt: number;
  /** null: no expiry (refresh tokens). */
  expiresAt: number | null;
  /** The hash of the authorization code the token was issued for, if any. */
  codeHash: string | null;
}

/** An authorization code: single use, short-lived. */
export interface OAuthCodeRecord {
  hash: string;
  applicationId: string;
  userId: string;
  scopes: string[];
  /** The redirect_uri of the authorize request (null when it named none). */
  redirectUri: string | null;
  /** The S256 code challenge, when one was sent. */
  codeChallenge: string | null;
  nonce: string | null;
  /** When the user authenticated (epoch ms). */
  authTime: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'used';

/** A device authorization (RFC 8628). */
export interface OAuthDeviceCodeRecord {
  hash: string;
  userCode: string;
  applicationId: string;
  scopes: string[];
  status: DeviceCodeStatus;
  /** Who approved or denied it. */
  userId: string | null;
  createdAt: number;
  expiresAt: number;
  lastPolledAt: number | null;
  intervalSeconds: number;
}

/** An ID token signing key. The private JWK is never served. */
export interface OAuthSigningKeyRecord {
  kid: string;
  alg: string;
  publicJwk: string;
  /** Sealed (domain/secretBox.ts, SEALED_AS.idTokenSigningKey), as applications' signing keys. */
  privateJwk: string;
  createdAt: number;
}

export interface OAuthRepository {
  /** Inserts or replaces the (user, application) authorization; returns it as stored. */
  upsertAuthorization(
    authorization: Omit<OAuthAuthorizationRecord, 'revokedAt'>,
  ): Promise<OAuthAuthorizationRecord>;
  findAuthorization(
    userId: string,
    applicationId: string,
  ): Promise<OAuthAuthorizationRecord | null>;
  findAuthorizationById(id: string): Promise<OAuthAuthorizationRecord | null>;
  /**
   * As findAuthorization, holding the row's lock until the transaction ends (PostgreSQL
   * `FOR UPDATE`; SQLite has one writer), so refresh, revoke and issue do not interleave.
   */
  lockAuthorization(
    userId: string,
    applicationId: string,
  ): Promise<OAuthAuthorizationRecord | null>;
  /** Deletes a user's unused codes and device codes for an application (revoke, ban). */
  deleteGrantsInFlight(userId: string, applicationId: string): Promise<void>;
  /** Live authorizations of a user (not revoked). */
  listAuthorizationsForUser(userId: string): Promise<OAuthAuthorizationRecord[]>;
  markRevoked(id: string, at: number): Promise<void>;

  createToken(token: OAuthTokenRecord): Promise<void>;
  findToken(hash: string): Promise<OAuthTokenRecord | null>;
  /** Deletes one token; returns whether it existed. */
  deleteToken(hash: string): Promise<boolean>;
  /** Deletes every token of an authorization (and their `tokens` rows); returns their hashes. */
  deleteTokensOf(authorizationId: string): Promise<string[]>;
  /** Deletes up to `limit` tokens (access tokens) expired by `now`; returns how many. */
  deleteExpiredTokens(now: number, limit: number): Promise<number>;
  /** The authorizations holding tokens issued for a code. */
  authorizationsOfCode(codeHash: string): Promise<string[]>;

  createCode(code: OAuthCodeRecord): Promise<void>;
  /**
   * Marks an unused code of the application used and returns it; null when unknown or another
   * application's (which then stays unused). Used codes come back as they are.
   */
  consumeCode(
    hash: string,
    input: { at: number; applicationId: string },
  ): Promise<OAuthCodeRecord | null>;

  createDeviceCode(code: OAuthDeviceCodeRecord): Promise<void>;
  findDeviceCode(hash: string): Promise<OAuthDeviceCodeRecord | null>;
  findDeviceCodeByUserCode(userCode: string): Promise<OAuthDeviceCodeRecord | null>;
  updateDeviceCode(
    hash: string,
    patch: Partial<Pick<OAuthDeviceCodeRecord, 'status' | 'userId' | 'lastPolledAt'>>,
  ): Promise<void>;
  /** approved → used, once: false when the code was not approved (already used, or racing). */
  markDeviceCodeUsed(hash: string): Promise<boolean>;

  listSigningKeys(): Promise<OAuthSigningKeyRecord[]>;
  /**
   * Inserts a key unless one exists (false: another node made one first). Run it in a
   * transaction: on PostgreSQL it locks the table so that two nodes cannot both insert.
   */
  createSigningKeyIfNone(key: OAuthSigningKeyRecord): Promise<boolean>;
}
