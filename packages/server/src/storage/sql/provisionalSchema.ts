import type { ColumnType } from 'kysely';

/* Column types as both drivers return them (see schema.ts). */
type Id = ColumnType<string | bigint, string, string>;
type NullableId = ColumnType<string | bigint | null, string | null, string | null>;
type Int = ColumnType<number | bigint | string, number, number>;
type NullableInt = ColumnType<number | bigint | string | null, number | null, number | null>;

export interface ExternalIdentitiesTable {
  application_id: Id;
  auth_type: string;
  subject: string;
  user_id: Id;
  provisional: Int;
  restricted_by: NullableId;
  created_at: Int;
}

export interface UserBansTable {
  user_id: Id;
  reason: string | null;
  expires_at: NullableInt;
  created_at: Int;
}

export interface OidcProvidersTable {
  application_id: Id;
  issuer: string;
  client_id: string;
  validation: string;
  updated_at: Int;
}

export interface IdentityTestKeysTable {
  application_id: Id;
  provider: string;
  public_key: string;
  updated_at: Int;
}

export interface ApplicationLinksTable {
  parent_id: Id;
  child_id: Id;
  approved_at: Int;
}
