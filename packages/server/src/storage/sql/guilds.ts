import type { Kysely, Selectable } from 'kysely';
import type { GuildRecord, GuildRepository } from '../types.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { id, int, jsonArray } from './rows.js';
import type { Database, GuildsTable } from './schema.js';

function toGuild(row: Selectable<GuildsTable>): GuildRecord {
  return {
    id: id(row.id),
    name: row.name,
    icon: row.icon,
    description: row.description,
    ownerId: id(row.owner_id),
    features: jsonArray(row.features),
    preferredLocale: row.preferred_locale,
    createdAt: int(row.created_at),
  };
}

export function createGuildRepository(db: Kysely<Database>): GuildRepository {
  const findById = async (guildId: string) => {
    const row = await db
      .selectFrom('guilds')
      .selectAll()
      .where('id', '=', guildId)
      .executeTakeFirst();
    return row ? toGuild(row) : null;
  };
  return {
    async create(guild) {
      await conflictsAsStorageErrors(
        db
          .insertInto('guilds')
          .values({
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
      return guild;
    },
    findById,
    async listForUser(userId) {
      const rows = await db
        .selectFrom('guilds')
        .innerJoin('members', 'members.guild_id', 'guilds.id')
        .selectAll('guilds')
        .where('members.user_id', '=', userId)
        .orderBy('guilds.id')
        .execute();
      return rows.map(toGuild);
    },
    async countForUser(userId) {
      const row = await db
        .selectFrom('members')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
