import type { Kysely, Selectable } from 'kysely';
import type { StickerRecord, StickerRepository } from '../types/expressions.js';
import { bool, flag, id, idOrNull, int } from './rows.js';
import type { Database, StickersTable } from './schema.js';

function toSticker(row: Selectable<StickersTable>): StickerRecord {
  return {
    id: id(row.id),
    guildId: id(row.guild_id),
    name: row.name,
    description: row.description,
    tags: row.tags,
    formatType: int(row.format_type),
    creatorId: idOrNull(row.creator_id),
    available: bool(row.available),
    createdAt: int(row.created_at),
  };
}

export function createStickerRepository(db: Kysely<Database>): StickerRepository {
  const findById = async (stickerId: string) => {
    const row = await db
      .selectFrom('stickers')
      .selectAll()
      .where('id', '=', stickerId)
      .executeTakeFirst();
    return row === undefined ? null : toSticker(row);
  };
  return {
    async create(sticker) {
      await db
        .insertInto('stickers')
        .values({
          id: sticker.id,
          guild_id: sticker.guildId,
          name: sticker.name,
          description: sticker.description,
          tags: sticker.tags,
          format_type: sticker.formatType,
          creator_id: sticker.creatorId,
          available: flag(sticker.available),
          created_at: sticker.createdAt,
        })
        .execute();
      return sticker;
    },
    findById,
    async listByGuild(guildId) {
      const rows = await db
        .selectFrom('stickers')
        .selectAll()
        .where('guild_id', '=', guildId)
        .orderBy('id')
        .execute();
      return rows.map(toSticker);
    },
    async update(stickerId, patch) {
      const set = {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.tags === undefined ? {} : { tags: patch.tags }),
      };
      if (Object.keys(set).length > 0) {
        await db.updateTable('stickers').set(set).where('id', '=', stickerId).execute();
      }
      return findById(stickerId);
    },
    async delete(stickerId) {
      const result = await db.deleteFrom('stickers').where('id', '=', stickerId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
