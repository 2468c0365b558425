/** @module Game stats identities, application profiles, guild tags and primary guilds (0022). */
import type { Kysely, Selectable } from 'kysely';
import {
  GAME_STATS_PROVIDER_TYPE,
  PROVIDER_TYPE_OF_AUTH_TYPE,
  type ApplicationIdentityProfileRecord,
  type ApplicationIdentityRepository,
  type GuildTagRepository,
  type JsonObject,
  type UserApplicationProfileRecord,
} from '../types/gameStats.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import type { ApplicationIdentityProfilesTable } from './gameStatsSchema.js';
import { flag, id, int } from './rows.js';
import type { Database } from './schema.js';

function jsonOrNull(text: string | null): JsonObject | null {
  if (text === null) return null;
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as JsonObject)
    : null;
}

const textOrNull = (value: JsonObject | null): string | null =>
  value === null ? null : JSON.stringify(value);

function toProfile(
  row: Selectable<ApplicationIdentityProfilesTable>,
): ApplicationIdentityProfileRecord {
  return {
    applicationId: id(row.application_id),
    userId: id(row.user_id),
    providerType: row.provider_type,
    providerIssuedUserId: row.provider_issued_user_id,
    username: row.username,
    metadata: jsonOrNull(row.metadata),
    data: jsonOrNull(row.data),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

export function createApplicationIdentityRepository(
  db: Kysely<Database>,
): ApplicationIdentityRepository {
  const profiles = () => db.selectFrom('application_identity_profiles').selectAll();
  const findProfile = async (applicationId: string, userId: string) => {
    const row = await profiles()
      .where('application_id', '=', applicationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? toProfile(row) : null;
  };
  return {
    findProfile,
    async findProfileByExternalId(applicationId, providerType, providerIssuedUserId) {
      const row = await profiles()
        .where('application_id', '=', applicationId)
        .where('provider_type', '=', providerType)
        .where('provider_issued_user_id', '=', providerIssuedUserId)
        .executeTakeFirst();
      return row ? toProfile(row) : null;
    },
    async createProfile(profile) {
      await conflictsAsStorageErrors(
        db
          .insertInto('application_identity_profiles')
          .values({
            application_id: profile.applicationId,
            user_id: profile.userId,
            provider_type: profile.providerType,
            provider_issued_user_id: profile.providerIssuedUserId,
            username: profile.username,
            metadata: textOrNull(profile.metadata),
            data: textOrNull(profile.data),
            created_at: profile.createdAt,
            updated_at: profile.updatedAt,
          })
          .execute(),
      );
    },
    async updateProfile(applicationId, userId, patch) {
      await db
        .updateTable('application_identity_profiles')
        .set({
          username: patch.username,
          metadata: patch.metadata === undefined ? undefined : textOrNull(patch.metadata),
          data: patch.data === undefined ? undefined : textOrNull(patch.data),
          updated_at: patch.updatedAt,
        })
        .where('application_id', '=', applicationId)
        .where('user_id', '=', userId)
        .execute();
      return findProfile(applicationId, userId);
    },
    async findStatsLayout(applicationId) {
      const row = await db
        .selectFrom('application_game_stats_layouts')
        .select('layout')
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      return row === undefined ? null : jsonOrNull(row.layout);
    },
    async putStatsLayout(applicationId, layout, updatedAt) {
      const values = { layout: JSON.stringify(layout), updated_at: updatedAt };
      await db
        .insertInto('application_game_stats_layouts')
        .values({ application_id: applicationId, ...values })
        .onConflict((oc) => oc.column('application_id').doUpdateSet(values))
        .execute();
    },
    async deleteProfile(applicationId, userId) {
      const result = await db
        .deleteFrom('application_identity_profiles')
        .where('application_id', '=', applicationId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async findExternalIdentityUsers(applicationId, subject) {
      const rows = await db
        .selectFrom('external_identities')
        .select('user_id')
        .where('application_id', '=', applicationId)
        .where('subject', '=', subject)
        .execute();
      return rows.map((row) => id(row.user_id));
    },
    async listUserApplicationProfiles(applicationId, userIds) {
      if (userIds.length === 0) return [];
      const ids = [...new Set(userIds)];
      const [stats, external] = await Promise.all([
        profiles()
          .where('application_id', '=', applicationId)
          .where('user_id', 'in', ids)
          .execute(),
        db
          .selectFrom('external_identities as ei')
          .innerJoin('users as u', 'u.id', 'ei.user_id')
          .leftJoin('oidc_providers as op', 'op.application_id', 'ei.application_id')
          .select([
            'ei.user_id',
            'ei.auth_type',
            'ei.subject',
            'u.username',
            'u.global_name',
            'u.avatar',
            'op.issuer',
          ])
          .where('ei.application_id', '=', applicationId)
          .where('ei.user_id', 'in', ids)
          .execute(),
      ]);
      const result: UserApplicationProfileRecord[] = [
        ...stats.map(toProfile).map((profile) => ({
          applicationId,
          userId: profile.userId,
          providerType: profile.providerType,
          providerId: null,
          providerIssuedUserId: profile.providerIssuedUserId,
          username: profile.username,
          avatarHash: null,
          metadata: profile.metadata,
          externalAuthType: null,
        })),
        ...external.map((row) => ({
          applicationId,
          userId: id(row.user_id),
          providerType: PROVIDER_TYPE_OF_AUTH_TYPE[row.auth_type] ?? 'UNKNOWN',
          providerId: row.auth_type === 'OIDC' ? row.issuer : null,
          providerIssuedUserId: row.subject,
          username: row.global_name ?? row.username,
          avatarHash: row.avatar,
          metadata: null,
          externalAuthType: row.auth_type,
        })),
      ];
      const order = (p: UserApplicationProfileRecord) =>
        `${p.userId.padStart(20, '0')} ${p.providerType === GAME_STATS_PROVIDER_TYPE ? 1 : 0}${p.providerType}`;
      return result.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
    },
  };
}

export function createGuildTagRepository(db: Kysely<Database>): GuildTagRepository {
  return {
    async findTag(guildId) {
      const row = await db
        .selectFrom('guild_tags')
        .selectAll()
        .where('guild_id', '=', guildId)
        .executeTakeFirst();
      return row
        ? {
            guildId: id(row.guild_id),
            tag: row.tag,
            badge: row.badge,
            updatedAt: int(row.updated_at),
          }
        : null;
    },
    async putTag(tag) {
      const values = { tag: tag.tag, badge: tag.badge, updated_at: tag.updatedAt };
      await db
        .insertInto('guild_tags')
        .values({ guild_id: tag.guildId, ...values })
        .onConflict((oc) => oc.column('guild_id').doUpdateSet(values))
        .execute();
    },
    async deleteTag(guildId) {
      const result = await db
        .deleteFrom('guild_tags')
        .where('guild_id', '=', guildId)
        .executeTakeFirst();
      await db
        .updateTable('user_primary_guilds')
        .set({ enabled: 0 })
        .where('guild_id', '=', guildId)
        .where('enabled', '=', 1)
        .execute();
      return result.numDeletedRows > 0n;
    },
    async setPrimaryGuild({ userId, guildId, enabled, at }) {
      const values = { guild_id: guildId, enabled: flag(enabled), updated_at: at };
      await db
        .insertInto('user_primary_guilds')
        .values({ user_id: userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },
    async listPrimaryGuildUsers(guildId) {
      const rows = await db
        .selectFrom('user_primary_guilds')
        .select('user_id')
        .where('guild_id', '=', guildId)
        .orderBy('user_id')
        .execute();
      return rows.map((row) => id(row.user_id));
    },
    async clearPrimaryGuild(userId) {
      const result = await db
        .deleteFrom('user_primary_guilds')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
