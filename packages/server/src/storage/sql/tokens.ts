import type { Kysely, Selectable } from 'kysely';
import type {
  LoginLinkRepository,
  TokenKind,
  TokenRecord,
  TokenRepository,
} from '../types/tokens.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { id, idOrNull, int, intOrNull } from './rows.js';
import type { Database, TokensTable } from './schema.js';

function toToken(row: Selectable<TokensTable>): TokenRecord {
  return {
    hash: row.hash,
    kind: row.kind as TokenKind,
    userId: id(row.user_id),
    applicationId: idOrNull(row.application_id),
    scopes: row.scopes ? row.scopes.split(' ') : [],
    createdAt: int(row.created_at),
    expiresAt: intOrNull(row.expires_at),
  };
}

export function createTokenRepository(db: Kysely<Database>): TokenRepository {
  return {
    async create(token) {
      await conflictsAsStorageErrors(
        db
          .insertInto('tokens')
          .values({
            hash: token.hash,
            kind: token.kind,
            user_id: token.userId,
            application_id: token.applicationId,
            scopes: token.scopes.length > 0 ? token.scopes.join(' ') : null,
            created_at: token.createdAt,
            expires_at: token.expiresAt,
          })
          .execute(),
      );
    },
    async findByHash(hash) {
      const row = await db
        .selectFrom('tokens')
        .selectAll()
        .where('hash', '=', hash)
        .executeTakeFirst();
      return row ? toToken(row) : null;
    },
    async delete(hash) {
      const result = await db.deleteFrom('tokens').where('hash', '=', hash).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async deleteFor({ userId, kind, applicationId }) {
      let query = db.deleteFrom('tokens').where('user_id', '=', userId).where('kind', '=', kind);
      if (applicationId !== undefined) query = query.where('application_id', '=', applicationId);
      const rows = await query.returning('hash').execute();
      return rows.map((r) => r.hash);
    },
    async setExpiry(hash, expiresAt) {
      const result = await db
        .updateTable('tokens')
        .set({ expires_at: expiresAt })
        .where('hash', '=', hash)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    deleteExpired: (now, limit) => deleteExpiredRows(db, { table: 'tokens', now, limit }),
  };
}

export function createLoginLinkRepository(db: Kysely<Database>): LoginLinkRepository {
  return {
    async create(link) {
      await db.deleteFrom('login_links').where('expires_at', '<=', link.createdAt).execute();
      // One statement: of two links made at once for one person, the later write replaces the
      // earlier (login_links_person is unique), so never both stay live.
      const values = { hash: link.hash, created_at: link.createdAt, expires_at: link.expiresAt };
      await conflictsAsStorageErrors(
        db
          .insertInto('login_links')
          .values({ ...values, user_id: link.userId })
          .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
          .execute(),
      );
    },
    async consume(hash, at) {
      const row = await db
        .deleteFrom('login_links')
        .where('hash', '=', hash)
        .returning(['user_id', 'expires_at'])
        .executeTakeFirst();
      return row !== undefined && int(row.expires_at) > at ? id(row.user_id) : null;
    },
    deleteExpired: (now, limit) => deleteExpiredRows(db, { table: 'login_links', now, limit }),
  };
}

/**
 * Deletes up to `limit` rows of `table` whose `expires_at` has passed by `now` (its expiry
 * index finds them), in one statement; returns how many.
 */
export async function deleteExpiredRows(
  db: Kysely<Database>,
  batch: { table: 'tokens' | 'login_links' | 'oauth_tokens'; now: number; limit: number },
): Promise<number> {
  const { table, now, limit } = batch;
  const result = await db
    .deleteFrom(table)
    .where('hash', 'in', (eb) =>
      eb.selectFrom(table).select('hash').where('expires_at', '<=', now).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
