import type { Kysely, Selectable } from 'kysely';
import type {
  ExternalAuthType,
  ExternalIdentityKey,
  ExternalIdentityRecord,
  OidcValidation,
  ProvisionalRepository,
} from '../types/provisional.js';
import type { StorageDialect } from '../types/storage.js';
import { bool, flag, id, idOrNull, int, intOrNull } from './rows.js';
import { createIdentityTestKeyMethods } from './identityTestKeys.js';
import type { ExternalIdentitiesTable } from './provisionalSchema.js';
import type { Database } from './schema.js';

function toIdentity(row: Selectable<ExternalIdentitiesTable>): ExternalIdentityRecord {
  return {
    applicationId: id(row.application_id),
    authType: row.auth_type as ExternalAuthType,
    subject: row.subject,
    userId: id(row.user_id),
    provisional: bool(row.provisional),
    restrictedBy: idOrNull(row.restricted_by),
    createdAt: int(row.created_at),
  };
}

function identityRow(identity: ExternalIdentityRecord) {
  return {
    application_id: identity.applicationId,
    auth_type: identity.authType,
    subject: identity.subject,
    user_id: identity.userId,
    provisional: flag(identity.provisional),
    restricted_by: identity.restrictedBy,
    created_at: identity.createdAt,
  };
}

/** PostgreSQL's lock_not_available, raised by FOR UPDATE NOWAIT on a row another holds. */
function isLockNotAvailable(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '55P03';
}

export function createProvisionalRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): ProvisionalRepository {
  const identityQuery = (key: ExternalIdentityKey) =>
    db
      .selectFrom('external_identities')
      .selectAll()
      .where('application_id', '=', key.applicationId)
      .where('auth_type', '=', key.authType)
      .where('subject', '=', key.subject);

  return {
    ...createIdentityTestKeyMethods(db),
    async findIdentity(key) {
      const row = await identityQuery(key).executeTakeFirst();
      return row ? toIdentity(row) : null;
    },
    async lockIdentity(key) {
      if (dialect === 'sqlite') {
        return (await identityQuery(key).executeTakeFirst()) ? 'locked' : 'missing';
      }
      try {
        const row = await identityQuery(key).forUpdate().noWait().executeTakeFirst();
        return row ? 'locked' : 'missing';
      } catch (err) {
        if (isLockNotAvailable(err)) return 'busy';
        throw err;
      }
    },
    async listIdentitiesOfUser(userId) {
      const rows = await db
        .selectFrom('external_identities')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('application_id')
        .execute();
      return rows.map(toIdentity);
    },
    async createIdentity(identity) {
      const result = await db
        .insertInto('external_identities')
        .values(identityRow(identity))
        .onConflict((oc) => oc.columns(['application_id', 'auth_type', 'subject']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async putIdentity(identity) {
      const values = identityRow(identity);
      await db
        .insertInto('external_identities')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['application_id', 'auth_type', 'subject']).doUpdateSet({
            user_id: values.user_id,
            provisional: values.provisional,
            restricted_by: values.restricted_by,
            created_at: values.created_at,
          }),
        )
        .execute();
    },
    async isProvisional(userId) {
      const row = await db
        .selectFrom('external_identities')
        .select('user_id')
        .where('user_id', '=', userId)
        .where('provisional', '=', 1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async deleteUser(userId) {
      const result = await db.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async findBan(userId) {
      const row = await db
        .selectFrom('user_bans')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row
        ? {
            userId: id(row.user_id),
            reason: row.reason,
            expiresAt: intOrNull(row.expires_at),
            createdAt: int(row.created_at),
          }
        : null;
    },
    async putBan(ban) {
      const values = {
        user_id: ban.userId,
        reason: ban.reason,
        expires_at: ban.expiresAt,
        created_at: ban.createdAt,
      };
      await db
        .insertInto('user_bans')
        .values(values)
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            reason: values.reason,
            expires_at: values.expires_at,
            created_at: values.created_at,
          }),
        )
        .execute();
    },
    async deleteBan(userId) {
      const result = await db
        .deleteFrom('user_bans')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async findOidcProvider(applicationId) {
      const row = await db
        .selectFrom('oidc_providers')
        .selectAll()
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      return row
        ? {
            applicationId: id(row.application_id),
            issuer: row.issuer,
            clientId: row.client_id,
            validation: row.validation as OidcValidation,
            updatedAt: int(row.updated_at),
          }
        : null;
    },
    async putOidcProvider(provider) {
      const values = {
        application_id: provider.applicationId,
        issuer: provider.issuer,
        client_id: provider.clientId,
        validation: provider.validation,
        updated_at: provider.updatedAt,
      };
      await db
        .insertInto('oidc_providers')
        .values(values)
        .onConflict((oc) =>
          oc.column('application_id').doUpdateSet({
            issuer: values.issuer,
            client_id: values.client_id,
            validation: values.validation,
            updated_at: values.updated_at,
          }),
        )
        .execute();
    },

    async limitTokenExpiry(hash, expiresAt) {
      await db
        .updateTable('tokens')
        .set({ expires_at: expiresAt })
        .where('hash', '=', hash)
        .execute();
      await db
        .updateTable('oauth_tokens')
        .set({ expires_at: expiresAt })
        .where('hash', '=', hash)
        .execute();
    },

    async findLink(parentId, childId) {
      const row = await db
        .selectFrom('application_links')
        .selectAll()
        .where('parent_id', '=', parentId)
        .where('child_id', '=', childId)
        .executeTakeFirst();
      return row
        ? {
            parentId: id(row.parent_id),
            childId: id(row.child_id),
            approvedAt: int(row.approved_at),
          }
        : null;
    },
    async putLink(link) {
      await db
        .insertInto('application_links')
        .values({ parent_id: link.parentId, child_id: link.childId, approved_at: link.approvedAt })
        .onConflict((oc) => oc.columns(['parent_id', 'child_id']).doNothing())
        .execute();
    },
    async deleteLink(parentId, childId) {
      const result = await db
        .deleteFrom('application_links')
        .where('parent_id', '=', parentId)
        .where('child_id', '=', childId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
