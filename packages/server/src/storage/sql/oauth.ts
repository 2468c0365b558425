/**
 * The OAuth repository on SQLite and PostgreSQL: authorizations, their tokens and the signing
 * keys here; the grants in flight (authorization codes, device codes) in oauthCodes.ts.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { OAuthAuthorizationRecord, OAuthRepository, OAuthTokenKind } from '../types/oauth.js';
import type { StorageDialect } from '../types/storage.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { deleteExpiredRows } from './tokens.js';
import { createOAuthCodeRepository } from './oauthCodes.js';
import type { OAuthAuthorizationsTable } from './oauthSchema.js';
import { id, int, intOrNull, splitScopes } from './rows.js';
import type { Database } from './schema.js';

function toAuthorization(row: Selectable<OAuthAuthorizationsTable>): OAuthAuthorizationRecord {
  return {
    id: id(row.id),
    userId: id(row.user_id),
    applicationId: id(row.application_id),
    scopes: splitScopes(row.scopes),
    integrationType: int(row.integration_type) === 0 ? 0 : 1,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
    revokedAt: intOrNull(row.revoked_at),
  };
}

export function createOAuthRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): OAuthRepository {
  const findAuthorizationById = async (authorizationId: string) => {
    const row = await db
      .selectFrom('oauth_authorizations')
      .selectAll()
      .where('id', '=', authorizationId)
      .executeTakeFirst();
    return row ? toAuthorization(row) : null;
  };

  return {
    ...createOAuthCodeRepository(db),

    async upsertAuthorization(authorization) {
      const scopes = authorization.scopes.join(' ');
      await db
        .insertInto('oauth_authorizations')
        .values({
          id: authorization.id,
          user_id: authorization.userId,
          application_id: authorization.applicationId,
          scopes,
          integration_type: authorization.integrationType,
          created_at: authorization.createdAt,
          updated_at: authorization.updatedAt,
          revoked_at: null,
        })
        .onConflict((oc) =>
          oc.columns(['user_id', 'application_id']).doUpdateSet({
            scopes,
            integration_type: authorization.integrationType,
            updated_at: authorization.updatedAt,
            revoked_at: null,
          }),
        )
        .execute();
      const stored = await db
        .selectFrom('oauth_authorizations')
        .selectAll()
        .where('user_id', '=', authorization.userId)
        .where('application_id', '=', authorization.applicationId)
        .executeTakeFirstOrThrow();
      return toAuthorization(stored);
    },
    async findAuthorization(userId, applicationId) {
      const row = await db
        .selectFrom('oauth_authorizations')
        .selectAll()
        .where('user_id', '=', userId)
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      return row ? toAuthorization(row) : null;
    },
    findAuthorizationById,
    async lockAuthorization(userId, applicationId) {
      const row = await db
        .selectFrom('oauth_authorizations')
        .selectAll()
        .where('user_id', '=', userId)
        .where('application_id', '=', applicationId)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      return row ? toAuthorization(row) : null;
    },
    async listAuthorizationsForUser(userId) {
      const rows = await db
        .selectFrom('oauth_authorizations')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('id')
        .execute();
      return rows.map(toAuthorization);
    },
    async markRevoked(authorizationId, at) {
      await db
        .updateTable('oauth_authorizations')
        .set({ revoked_at: at, updated_at: at })
        .where('id', '=', authorizationId)
        .execute();
    },

    async createToken(token) {
      await conflictsAsStorageErrors(
        db
          .insertInto('oauth_tokens')
          .values({
            hash: token.hash,
            authorization_id: token.authorizationId,
            kind: token.kind,
            scopes: token.scopes.join(' '),
            created_at: token.createdAt,
            expires_at: token.expiresAt,
            code_hash: token.codeHash,
          })
          .execute(),
      );
    },
    async findToken(hash) {
      const row = await db
        .selectFrom('oauth_tokens')
        .selectAll()
        .where('hash', '=', hash)
        .executeTakeFirst();
      if (!row) return null;
      return {
        hash: row.hash,
        authorizationId: id(row.authorization_id),
        kind: row.kind as OAuthTokenKind,
        scopes: splitScopes(row.scopes),
        createdAt: int(row.created_at),
        expiresAt: intOrNull(row.expires_at),
        codeHash: row.code_hash,
      };
    },
    async deleteToken(hash) {
      await db.deleteFrom('tokens').where('hash', '=', hash).execute();
      const result = await db
        .deleteFrom('oauth_tokens')
        .where('hash', '=', hash)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async deleteTokensOf(authorizationId) {
      const rows = await db
        .selectFrom('oauth_tokens')
        .select('hash')
        .where('authorization_id', '=', authorizationId)
        .execute();
      const hashes = rows.map((r) => r.hash);
      if (hashes.length === 0) return [];
      await db.deleteFrom('tokens').where('hash', 'in', hashes).execute();
      await db.deleteFrom('oauth_tokens').where('authorization_id', '=', authorizationId).execute();
      return hashes;
    },
    deleteExpiredTokens: (now, limit) =>
      deleteExpiredRows(db, { table: 'oauth_tokens', now, limit }),
    async authorizationsOfCode(codeHash) {
      const rows = await db
        .selectFrom('oauth_tokens')
        .select('authorization_id')
        .distinct()
        .where('code_hash', '=', codeHash)
        .execute();
      return rows.map((r) => id(r.authorization_id));
    },

    async listSigningKeys() {
      const rows = await db
        .selectFrom('oauth_signing_keys')
        .selectAll()
        .orderBy('created_at')
        .execute();
      return rows.map((row) => ({
        kid: row.kid,
        alg: row.alg,
        publicJwk: row.public_jwk,
        privateJwk: row.private_jwk,
        createdAt: int(row.created_at),
      }));
    },
    async createSigningKeyIfNone(key) {
      // Two nodes starting on an empty database: the second waits here for the first's commit,
      // then sees its key (PostgreSQL; SQLite has one writer). Callers run this in a transaction.
      if (dialect === 'postgres') {
        await sql`LOCK TABLE oauth_signing_keys IN SHARE ROW EXCLUSIVE MODE`.execute(db);
      }
      const existing = await db.selectFrom('oauth_signing_keys').select('kid').executeTakeFirst();
      if (existing) return false;
      const result = await db
        .insertInto('oauth_signing_keys')
        .values({
          kid: key.kid,
          alg: key.alg,
          public_jwk: key.publicJwk,
          private_jwk: key.privateJwk,
          created_at: key.createdAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },
  };
}
