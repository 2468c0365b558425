import type { Kysely, Selectable } from 'kysely';
import type { EmojiRecord, EmojiRepository } from '../types/expressions.js';
import { bool, flag, id, idOrNull, int, jsonArray } from './rows.js';
import type { Database, EmojisTable } from './schema.js';

function toEmoji(row: Selectable<EmojisTable>): EmojiRecord {
  return {
    id: id(row.id),
    guildId: id(row.guild_id),
    name: row.name,
    creatorId: idOrNull(row.creator_id),
    animated: bool(row.animated),
    roleIds: jsonArray(row.role_ids),
    available: bool(row.available),
    createdAt: int(row.created_at),
  };
}

export function createEmojiRepository(db: Kysely<Database>): EmojiRepository {
  const findById = async (emojiId: string) => {
    const row = await db
      .selectFrom('emojis')
      .selectAll()
      .where('id', '=', emojiId)
      .executeTakeFirst();
    return row === undefined ? null : toEmoji(row);
  };
  return {
    async create(emoji) {
      await db
        .insertInto('emojis')
        .values({
          id: emoji.id,
          guild_id: emoji.guildId,
          name: emoji.name,
          creator_id: emoji.creatorId,
          animated: flag(emoji.animated),
          role_ids: JSON.stringify(emoji.roleIds),
          available: flag(emoji.available),
          created_at: emoji.createdAt,
        })
        .execute();
      return emoji;
    },
    findById,
    async listByGuild(guildId) {
      const rows = await db
        .selectFrom('emojis')
        .selectAll()
        .where('guild_id', '=', guildId)
        .orderBy('id')
        .execute();
      return rows.map(toEmoji);
    },
    async update(emojiId, patch) {
      const set = {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.roleIds === undefined ? {} : { role_ids: JSON.stringify(patch.roleIds) }),
      };
      if (Object.keys(set).length > 0) {
        await db.updateTable('emojis').set(set).where('id', '=', emojiId).execute();
      }
      return findById(emojiId);
    },
    async delete(emojiId) {
      const result = await db.deleteFrom('emojis').where('id', '=', emojiId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
