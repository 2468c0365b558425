import { sql, type Kysely } from 'kysely';
import type { SealedColumn, SealedValueRepository } from '../types/serverSecrets.js';
import type { Database } from './schema.js';

/** Where each sealed column lives: its table, the key of its rows, the column. */
const PLACES: Record<SealedColumn, { table: string; key: string; column: string }> = {
  'applications.signing_key': { table: 'applications', key: 'id', column: 'signing_key' },
  'oauth_signing_keys.private_jwk': {
    table: 'oauth_signing_keys',
    key: 'kid',
    column: 'private_jwk',
  },
  'webhooks.token_sealed': { table: 'webhooks', key: 'id', column: 'token_sealed' },
  'server_secrets.value': { table: 'server_secrets', key: 'name', column: 'value' },
};

/** The sealed values of every table that holds one, read and replaced alike. */
export function createSealedValueRepository(db: Kysely<Database>): SealedValueRepository {
  return {
    async list(column, after, limit) {
      const { table, key, column: name } = PLACES[column];
      const from = after === null ? sql`` : sql`AND ${sql.ref(key)} > ${after}`;
      const result = await sql<{ row_key: string | number | bigint; value: string }>`
        SELECT ${sql.ref(key)} AS row_key, ${sql.ref(name)} AS value
        FROM ${sql.table(table)}
        WHERE ${sql.ref(name)} IS NOT NULL ${from}
        ORDER BY ${sql.ref(key)}
        LIMIT ${limit}`.execute(db);
      return result.rows.map((row) => ({ rowKey: String(row.row_key), value: row.value }));
    },
    async replace(column, rowKey, { from, to }) {
      const { table, key, column: name } = PLACES[column];
      const result = await sql`
        UPDATE ${sql.table(table)} SET ${sql.ref(name)} = ${to}
        WHERE ${sql.ref(key)} = ${rowKey} AND ${sql.ref(name)} = ${from}`.execute(db);
      return (result.numAffectedRows ?? 0n) > 0n;
    },
  };
}
