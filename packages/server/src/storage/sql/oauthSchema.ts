import type { ColumnType } from 'kysely';

/* The OAuth2 tables of migration 0008; column conventions as in schema.ts. */
type Id = ColumnType<string | bigint, string, string>;
type NullableId = ColumnType<string | bigint | null, string | null, string | null>;
type Int = ColumnType<number | bigint | string, number, number>;
type NullableInt = ColumnType<number | bigint | string | null, number | null, number | null>;

export interface OAuthAuthorizationsTable {
  id: Id;
  user_id: Id;
  application_id: Id;
  scopes: string;
  integration_type: Int;
  created_at: Int;
  updated_at: Int;
  revoked_at: NullableInt;
}

export interface OAuthTokensTable {
  hash: string;
  authorization_id: Id;
  kind: string;
  scopes: string;
  created_at: Int;
  expires_at: NullableInt;
  code_hash: string | null;
}

export interface OAuthCodesTable {
  hash: string;
  application_id: Id;
  user_id: Id;
  scopes: string;
  redirect_uri: string | null;
  code_challenge: string | null;
  nonce: string | null;
  auth_time: Int;
  created_at: Int;
  expires_at: Int;
  used_at: NullableInt;
}

export interface OAuthDeviceCodesTable {
  hash: string;
  user_code: string;
  application_id: Id;
  scopes: string;
  status: string;
  user_id: NullableId;
  created_at: Int;
  expires_at: Int;
  last_polled_at: NullableInt;
  interval_seconds: Int;
}

export interface OAuthSigningKeysTable {
  kid: string;
  alg: string;
  public_jwk: string;
  private_jwk: string;
  created_at: Int;
}

/** Merged into `Database` (schema.ts). */
export interface OAuthTables {
  oauth_authorizations: OAuthAuthorizationsTable;
  oauth_tokens: OAuthTokensTable;
  oauth_codes: OAuthCodesTable;
  oauth_device_codes: OAuthDeviceCodesTable;
  oauth_signing_keys: OAuthSigningKeysTable;
}
