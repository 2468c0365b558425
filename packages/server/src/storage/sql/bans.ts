import type { Kysely, Selectable } from 'kysely';
import type { BanRecord, BanRepository } from '../types/members.js';
import { id, int } from './rows.js';
import type { BansTable, Database } from './schema.js';

function toBan(row: Selectable<BansTable>): BanRecord {
  return {
    guildId: id(row.guild_id),
    userId: id(row.user_id),
    reason: row.reason,
    deleteMessageSeconds: int(row.delete_message_seconds),
    createdAt: int(row.created_at),
  };
}

export function createBanRepository(db: Kysely<Database>): BanRepository {
  return {
    async create(ban) {
      const result = await db
        .insertInto('bans')
        .values({
          guild_id: ban.guildId,
          user_id: ban.userId,
          reason: ban.reason,
          delete_message_seconds: ban.deleteMessageSeconds,
          created_at: ban.createdAt,
        })
        .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async find(guildId, userId) {
      const row = await db
        .selectFrom('bans')
        .selectAll()
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? toBan(row) : null;
    },
    async list(guildId, { limit, before, after }) {
      let query = db.selectFrom('bans').selectAll().where('guild_id', '=', guildId);
      if (after !== undefined) query = query.where('user_id', '>', after);
      if (before !== undefined) query = query.where('user_id', '<', before);
      // `before` alone pages backwards: take the last `limit` below it, then put them in order.
      const backwards = before !== undefined && after === undefined;
      const rows = await query
        .orderBy('user_id', backwards ? 'desc' : 'asc')
        .limit(limit)
        .execute();
      const bans = rows.map(toBan);
      return backwards ? bans.reverse() : bans;
    },
    async delete(guildId, userId) {
      const result = await db
        .deleteFrom('bans')
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
