/** Secrets the server makes at first start, and the columns that hold sealed values. */

/** Secrets the server makes at first start, shared by every node through the database. */
export interface ServerSecretRepository {
  /** The secret named `name`: `candidate` when none was stored yet, else the stored one. */
  getOrCreate(name: string, candidate: string, createdAt: number): Promise<string>;
}

/**
 * The columns that hold values sealed with the server's secret key (domain/secretBox.ts), named
 * `table.column` as their sealed values' authenticated data is.
 */
export const SEALED_COLUMNS = [
  'applications.signing_key',
  'oauth_signing_keys.private_jwk',
  'webhooks.token_sealed',
  'server_secrets.value',
] as const;
export type SealedColumn = (typeof SEALED_COLUMNS)[number];

/** A stored value of a sealed column, and the key of its row (an id, a kid, a name). */
export interface SealedValue {
  rowKey: string;
  value: string;
}

/** Every sealed value, for the passes that seal plaintext rows and seal again after a rotation. */
export interface SealedValueRepository {
  /** Up to `limit` values of `column` (null ones left out) in row key order, after `after`. */
  list(column: SealedColumn, after: string | null, limit: number): Promise<SealedValue[]>;
  /** Writes `to` when the value is still `from` (not changed by another node); whether it did. */
  replace(
    column: SealedColumn,
    rowKey: string,
    change: { from: string; to: string },
  ): Promise<boolean>;
}
