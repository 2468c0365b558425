/** The reactions on messages: the reaction repository over message_reactions. */
import { sql, type Kysely } from 'kysely';
import type { ReactionRepository, ReactionSummary } from '../types/messages.js';
import { bool, flag, id, idOrNull, int } from './rows.js';
import type { Database } from './schema.js';

export function createReactionRepository(db: Kysely<Database>): ReactionRepository {
  return {
    async add(reaction) {
      const result = await db
        .insertInto('message_reactions')
        .values({
          message_id: reaction.messageId,
          emoji_key: reaction.emojiKey,
          emoji_id: reaction.emojiId,
          emoji_name: reaction.emojiName,
          emoji_animated: flag(reaction.animated),
          type: reaction.type,
          user_id: reaction.userId,
          created_at: reaction.createdAt,
        })
        .onConflict((oc) => oc.columns(['message_id', 'emoji_key', 'type', 'user_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },

    async remove(reaction) {
      const result = await db
        .deleteFrom('message_reactions')
        .where('message_id', '=', reaction.messageId)
        .where('emoji_key', '=', reaction.emojiKey)
        .where('type', '=', reaction.type)
        .where('user_id', '=', reaction.userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async removeAll(messageId, emojiKey) {
      let query = db.deleteFrom('message_reactions').where('message_id', '=', messageId);
      if (emojiKey !== undefined) query = query.where('emoji_key', '=', emojiKey);
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async countEmojis(messageId) {
      const row = await db
        .selectFrom('message_reactions')
        .select((eb) => eb.fn.count('emoji_key').distinct().as('count'))
        .where('message_id', '=', messageId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async hasEmoji(messageId, emojiKey) {
      const row = await db
        .selectFrom('message_reactions')
        .select('user_id')
        .where('message_id', '=', messageId)
        .where('emoji_key', '=', emojiKey)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async listUsers(messageId, { emojiKey, type, limit, after }) {
      let query = db
        .selectFrom('message_reactions')
        .select('user_id')
        .where('message_id', '=', messageId)
        .where('emoji_key', '=', emojiKey)
        .where('type', '=', type);
      if (after !== undefined) query = query.where('user_id', '>', after);
      const rows = await query.orderBy('user_id').limit(limit).execute();
      return rows.map((row) => id(row.user_id));
    },

    async summarize(messageIds, viewerId) {
      if (messageIds.length === 0) return [];
      const rows = await db
        .selectFrom('message_reactions')
        .select([
          'message_id',
          'emoji_key',
          sql<string | bigint | null>`MAX(emoji_id)`.as('emoji_id'),
          sql<string>`MIN(emoji_name)`.as('emoji_name'),
          sql<number | bigint | string>`MAX(emoji_animated)`.as('animated'),
          sql<number | bigint | string>`SUM(CASE WHEN type = 0 THEN 1 ELSE 0 END)`.as('normal'),
          sql<number | bigint | string>`SUM(CASE WHEN type = 1 THEN 1 ELSE 0 END)`.as('burst'),
          sql<
            number | bigint | string
          >`MAX(CASE WHEN type = 0 AND user_id = ${viewerId} THEN 1 ELSE 0 END)`.as('me'),
          sql<
            number | bigint | string
          >`MAX(CASE WHEN type = 1 AND user_id = ${viewerId} THEN 1 ELSE 0 END)`.as('me_burst'),
          sql<number | bigint | string>`MIN(created_at)`.as('first_at'),
        ])
        .where('message_id', 'in', [...new Set(messageIds)])
        .groupBy(['message_id', 'emoji_key'])
        .orderBy('message_id')
        .orderBy(sql`MIN(created_at)`)
        .orderBy('emoji_key')
        .execute();
      return rows.map((row): ReactionSummary => ({
        messageId: id(row.message_id),
        emojiKey: row.emoji_key,
        emojiId: idOrNull(row.emoji_id),
        emojiName: row.emoji_name,
        animated: bool(row.animated),
        normal: int(row.normal),
        burst: int(row.burst),
        me: bool(row.me),
        meBurst: bool(row.me_burst),
      }));
    },
  };
}
