/**
 * The grants in flight: authorization codes and device codes, the part of the OAuth repository
 * over oauth_codes and oauth_device_codes (a new authorization drops the unused ones).
 */
import type { Kysely, Selectable } from 'kysely';
import type {
  DeviceCodeStatus,
  OAuthCodeRecord,
  OAuthDeviceCodeRecord,
  OAuthRepository,
} from '../types/oauth.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import type { OAuthCodesTable, OAuthDeviceCodesTable } from './oauthSchema.js';
import { id, idOrNull, int, intOrNull, splitScopes } from './rows.js';
import type { Database } from './schema.js';

type OAuthCodeRepository = Pick<
  OAuthRepository,
  | 'deleteGrantsInFlight'
  | 'createCode'
  | 'consumeCode'
  | 'createDeviceCode'
  | 'findDeviceCode'
  | 'findDeviceCodeByUserCode'
  | 'updateDeviceCode'
  | 'markDeviceCodeUsed'
>;

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

export function createOAuthCodeRepository(db: Kysely<Database>): OAuthCodeRepository {
  const findCode = async (hash: string) => {
    const row = await db
      .selectFrom('oauth_codes')
      .selectAll()
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row ? toCode(row) : null;
  };

  return {
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
  };
}
