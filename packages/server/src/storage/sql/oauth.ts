import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  DeviceCodeStatus,
  OAuthAuthorizationRecord,
  OAuthCodeRecord,
  OAuthDeviceCodeRecord,
  OAuthRepository,
  OAuthTokenKind,
} from '../types/oauth.js';
import type { StorageDialect } from '../types/storage.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { deleteExpiredRows } from './tokens.js';
import type {
  OAuthAuthorizationsTable,
  OAuthCodesTable,
  OAuthDeviceCodesTable,
} from './oauthSchema.js';
import { id, idOrNull, int, intOrNull } from './rows.js';
import type { Database } from './schema.js';

const splitScopes = (scopes: string) => (scopes === '' ? [] : scopes.split(' '));

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

function toCode(row: Selectable<OAuthCodesTable>): OAuthCodeRecord {
  return {
    hash: row.hash,
    applicationId: id(row.application_id),
    userId: id(row.user_id),
    scopes: splitScopes(row.scopes),
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    nonce: row.nonce,
    authTime: int(row.auth_time),
    createdAt: int(row.created_at),
    expiresAt: int(row.expires_at),
    usedAt: intOrNull(row.used_at),
  };
}

function toDeviceCode(row: Selectable<OAuthDeviceCodesTable>): OAuthDeviceCodeRecord {
  return {
    hash: row.hash,
    userCode: row.user_code,
    applicationId: id(row.application_id),
    scopes: splitScopes(row.scopes),
    status: row.status as DeviceCodeStatus,
    userId: idOrNull(row.user_id),
    createdAt: int(row.created_at),
    expiresAt: int(row.expires_at),
    lastPolledAt: intOrNull(row.last_polled_at),
    intervalSeconds: int(row.interval_seconds),
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
  const findCode = async (hash: string) => {
    const row = await db
      .selectFrom('oauth_codes')
      .selectAll()
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row ? toCode(row) : null;
  };

  return {
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
    async deleteGrantsInFlight(userId, applicationId) {
      await db
        .deleteFrom('oauth_codes')
        .where('user_id', '=', userId)
        .where('application_id', '=', applicationId)
        .where('used_at', 'is', null)
        .execute();
      await db
        .deleteFrom('oauth_device_codes')
        .where('user_id', '=', userId)
        .where('application_id', '=', applicationId)
        .execute();
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

    async createCode(code) {
      await conflictsAsStorageErrors(
        db
          .insertInto('oauth_codes')
          .values({
            hash: code.hash,
            application_id: code.applicationId,
            user_id: code.userId,
            scopes: code.scopes.join(' '),
            redirect_uri: code.redirectUri,
            code_challenge: code.codeChallenge,
            nonce: code.nonce,
            auth_time: code.authTime,
            created_at: code.createdAt,
            expires_at: code.expiresAt,
            used_at: code.usedAt,
          })
          .execute(),
      );
    },
    async consumeCode(hash, { at, applicationId }) {
      const code = await findCode(hash);
      if (code?.applicationId !== applicationId) return null;
      if (code.usedAt !== null) return code;
      const result = await db
        .updateTable('oauth_codes')
        .set({ used_at: at })
        .where('hash', '=', hash)
        .where('application_id', '=', applicationId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      // Someone else used it between the read and the update: it is a reuse.
      return result.numUpdatedRows > 0n ? code : findCode(hash);
    },

    async createDeviceCode(code) {
      await conflictsAsStorageErrors(
        db
          .insertInto('oauth_device_codes')
          .values({
            hash: code.hash,
            user_code: code.userCode,
            application_id: code.applicationId,
            scopes: code.scopes.join(' '),
            status: code.status,
            user_id: code.userId,
            created_at: code.createdAt,
            expires_at: code.expiresAt,
            last_polled_at: code.lastPolledAt,
            interval_seconds: code.intervalSeconds,
          })
          .execute(),
      );
    },
    async findDeviceCode(hash) {
      const row = await db
        .selectFrom('oauth_device_codes')
        .selectAll()
        .where('hash', '=', hash)
        .executeTakeFirst();
      return row ? toDeviceCode(row) : null;
    },
    async findDeviceCodeByUserCode(userCode) {
      const row = await db
        .selectFrom('oauth_device_codes')
        .selectAll()
        .where('user_code', '=', userCode)
        .executeTakeFirst();
      return row ? toDeviceCode(row) : null;
    },
    async updateDeviceCode(hash, patch) {
      await db
        .updateTable('oauth_device_codes')
        .set({
          status: patch.status,
          user_id: patch.userId,
          last_polled_at: patch.lastPolledAt,
        })
        .where('hash', '=', hash)
        .execute();
    },

    async markDeviceCodeUsed(hash) {
      const result = await db
        .updateTable('oauth_device_codes')
        .set({ status: 'used' })
        .where('hash', '=', hash)
        .where('status', '=', 'approved')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
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
