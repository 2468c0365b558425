import { sql, type Kysely, type Selectable } from 'kysely';
import type { GuildPatch, GuildRecord, GuildRepository } from '../types/guilds.js';
import type { StorageDialect } from '../types/storage.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, idOrNull, int, jsonArray } from './rows.js';
import type { Database, GuildsTable } from './schema.js';

export function toGuild(row: Selectable<GuildsTable>): GuildRecord {
  return {
    id: id(row.id),
    name: row.name,
    icon: row.icon,
    description: row.description,
    ownerId: id(row.owner_id),
    features: jsonArray(row.features),
    preferredLocale: row.preferred_locale,
    createdAt: int(row.created_at),
    banner: row.banner,
    splash: row.splash,
    afkChannelId: idOrNull(row.afk_channel_id),
    afkTimeout: int(row.afk_timeout),
    systemChannelId: idOrNull(row.system_channel_id),
    systemChannelFlags: int(row.system_channel_flags),
    rulesChannelId: idOrNull(row.rules_channel_id),
    publicUpdatesChannelId: idOrNull(row.public_updates_channel_id),
    verificationLevel: int(row.verification_level),
    defaultMessageNotifications: int(row.default_message_notifications),
    explicitContentFilter: int(row.explicit_content_filter),
    premiumProgressBarEnabled: bool(row.premium_progress_bar_enabled),
  };
}

/** The settings columns of a (partial) guild; undefined leaves a column as it is. */
function settingsColumns(patch: GuildPatch) {
  return {
    name: patch.name,
    icon: patch.icon,
    description: patch.description,
    owner_id: patch.ownerId,
    features: patch.features && JSON.stringify(patch.features),
    preferred_locale: patch.preferredLocale,
    banner: patch.banner,
    splash: patch.splash,
    afk_channel_id: patch.afkChannelId,
    afk_timeout: patch.afkTimeout,
    system_channel_id: patch.systemChannelId,
    system_channel_flags: patch.systemChannelFlags,
    rules_channel_id: patch.rulesChannelId,
    public_updates_channel_id: patch.publicUpdatesChannelId,
    verification_level: patch.verificationLevel,
    default_message_notifications: patch.defaultMessageNotifications,
    explicit_content_filter: patch.explicitContentFilter,
    premium_progress_bar_enabled:
      patch.premiumProgressBarEnabled === undefined
        ? undefined
        : flag(patch.premiumProgressBarEnabled),
  };
}

export function createGuildRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): GuildRepository {
  const findById = async (guildId: string) => {
    const row = await db
      .selectFrom('guilds')
      .selectAll()
      .where('id', '=', guildId)
      .executeTakeFirst();
    return row ? toGuild(row) : null;
  };
  return {
    async lock(guildId) {
      if (dialect !== 'postgres') return;
      await db.selectFrom('guilds').select('id').where('id', '=', guildId).forUpdate().execute();
    },
    async create(guild) {
      await conflictsAsStorageErrors(
        db
          .insertInto('guilds')
          .values({
            ...settingsColumns(guild),
            id: guild.id,
            name: guild.name,
            icon: guild.icon,
            description: guild.description,
            owner_id: guild.ownerId,
            features: JSON.stringify(guild.features),
            preferred_locale: guild.preferredLocale,
            created_at: guild.createdAt,
          })
          .execute(),
      );
      const created = await findById(guild.id);
      if (!created) throw new Error(`guild ${guild.id} vanished after insert`);
      return created;
    },
    findById,
    async listForUser(userId, options = {}) {
      let query = db
        .selectFrom('guilds')
        .innerJoin('members', 'members.guild_id', 'guilds.id')
        .selectAll('guilds')
        .where('members.user_id', '=', userId);
      if (options.after !== undefined) query = query.where('guilds.id', '>', options.after);
      if (options.before !== undefined) query = query.where('guilds.id', '<', options.before);
      if (options.shard !== undefined) {
        // A guild's shard is (guild_id >> 22) % max_concurrency (spec, Get Current User Guilds).
        query = query.where(
          sql<number>`(${sql.ref('guilds.id')} >> 22) % ${options.shard.count}`,
          '=',
          options.shard.index,
        );
      }
      // `before` alone pages backwards: take the newest below it, then answer in id order.
      const backwards = options.before !== undefined && options.after === undefined;
      query = query.orderBy('guilds.id', backwards ? 'desc' : 'asc');
      if (options.limit !== undefined) query = query.limit(options.limit);
      const guilds = (await query.execute()).map(toGuild);
      return backwards ? guilds.reverse() : guilds;
    },
    async countForUser(userId) {
      const row = await db
        .selectFrom('members')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async update(guildId, patch) {
      const columns = settingsColumns(patch);
      if (Object.values(columns).some((v) => v !== undefined)) {
        await db.updateTable('guilds').set(columns).where('id', '=', guildId).execute();
      }
      return findById(guildId);
    },
    async delete(guildId) {
      const result = await db.deleteFrom('guilds').where('id', '=', guildId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async memberCounts(guildIds) {
      const counts = new Map<string, number>();
      if (guildIds.length === 0) return counts;
      const rows = await db
        .selectFrom('members')
        .select((eb) => ['guild_id', eb.fn.countAll().as('n')])
        .where('guild_id', 'in', [...guildIds])
        .groupBy('guild_id')
        .execute();
      for (const row of rows) counts.set(id(row.guild_id), Number(row.n));
      return counts;
    },
  };
}
