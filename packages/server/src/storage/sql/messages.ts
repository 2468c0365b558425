/**
 * The message repository on SQLite and PostgreSQL: its rows are read and written in
 * messageRows.ts, its attachments' own queries live in messageAttachments.ts, reactions in
 * reactions.ts.
 */
import { createQueryId, type CompiledQuery, type Kysely, type Selectable } from 'kysely';
import type { MessageRepository } from '../types/messages.js';
import { flag, id, int } from './rows.js';
import type { Database, MessagesTable } from './schema.js';
import { createMessageAttachmentRepository } from './messageAttachments.js';
import { attachmentRow, callColumn, messageRow, withAttachments } from './messageRows.js';

export function createMessageRepository(db: Kysely<Database>): MessageRepository {
  /** Messages as channel reads see them: never an ephemeral one (only its user may see it). */
  const selectMessages = () =>
    db.selectFrom('messages').selectAll().where('ephemeral_user_id', 'is', null);
  const load = async (rows: readonly Selectable<MessagesTable>[]) => withAttachments(db, rows);
  /*
   * The insert of a create, compiled once: every create runs the same SQL with its row's values
   * as parameters in column order (checked against the first compile), so later creates skip
   * Kysely's builder and compiler.
   */
  let insertMessage: CompiledQuery | undefined;

  return {
    ...createMessageAttachmentRepository(db),

    async create(message) {
      const row = messageRow(message);
      const values = Object.values(row);
      if (insertMessage !== undefined) {
        // Named, not spread: properties after a leading spread take V8's slow path.
        const { query, sql } = insertMessage;
        await db.executeQuery({ query, sql, parameters: values, queryId: createQueryId() });
      } else {
        const compiled = db.insertInto('messages').values(row).compile();
        const same =
          compiled.parameters.length === values.length &&
          compiled.parameters.every((value, i) => value === values[i]);
        if (same) insertMessage = compiled;
        await db.executeQuery(compiled);
      }
      if (message.attachments.length > 0) {
        await db
          .insertInto('message_attachments')
          .values(message.attachments.map(attachmentRow))
          .execute();
      }
    },

    async findById(channelId, messageId) {
      const row = await selectMessages()
        .where('channel_id', '=', channelId)
        .where('id', '=', messageId)
        .executeTakeFirst();
      if (row === undefined) return null;
      const [message] = await load([row]);
      return message ?? null;
    },

    async findAnyById(channelId, messageId) {
      const row = await db
        .selectFrom('messages')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('id', '=', messageId)
        .executeTakeFirst();
      if (row === undefined) return null;
      const [message] = await load([row]);
      return message ?? null;
    },

    async findByIds(messageIds) {
      if (messageIds.length === 0) return [];
      return load(
        await selectMessages()
          .where('id', 'in', [...new Set(messageIds)])
          .execute(),
      );
    },

    async list(channelId, { limit, around, before, after }) {
      const base = () => selectMessages().where('channel_id', '=', channelId);
      if (around !== undefined) {
        // Up to half the limit at and after the id, the rest before it; newest first.
        const newerLimit = Math.ceil(limit / 2);
        const [newer, older] = await Promise.all([
          base().where('id', '>=', around).orderBy('id', 'asc').limit(newerLimit).execute(),
          base()
            .where('id', '<', around)
            .orderBy('id', 'desc')
            .limit(limit - newerLimit)
            .execute(),
        ]);
        return load([...newer.reverse(), ...older]);
      }
      if (after !== undefined) {
        const rows = await base()
          .where('id', '>', after)
          .orderBy('id', 'asc')
          .limit(limit)
          .execute();
        return load(rows.reverse());
      }
      let query = base();
      if (before !== undefined) query = query.where('id', '<', before);
      return load(await query.orderBy('id', 'desc').limit(limit).execute());
    },

    async findByNonce({ channelId, authorId, nonce, sinceId }) {
      const row = await selectMessages()
        .where('channel_id', '=', channelId)
        .where('id', '>=', sinceId)
        .where('author_id', '=', authorId)
        .where('nonce', '=', nonce)
        .orderBy('id', 'asc')
        .limit(1)
        .executeTakeFirst();
      if (row === undefined) return null;
      const [message] = await load([row]);
      return message ?? null;
    },

    async lastPostedAt({ channelId, authorId, sinceId }) {
      const row = await db
        .selectFrom('messages')
        .select('created_at')
        .where('channel_id', '=', channelId)
        .where('id', '>=', sinceId)
        .where('author_id', '=', authorId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row === undefined ? null : int(row.created_at);
    },

    async update(channelId, messageId, patch) {
      const columns = {
        content: patch.content,
        embeds: patch.embeds === undefined ? undefined : JSON.stringify(patch.embeds),
        flags: patch.flags,
        mention_everyone:
          patch.mentionEveryone === undefined ? undefined : flag(patch.mentionEveryone),
        mention_user_ids:
          patch.mentionUserIds === undefined ? undefined : JSON.stringify(patch.mentionUserIds),
        mention_role_ids:
          patch.mentionRoleIds === undefined ? undefined : JSON.stringify(patch.mentionRoleIds),
        edited_at: patch.editedAt,
        components:
          patch.components === undefined
            ? undefined
            : patch.components.length === 0
              ? null
              : JSON.stringify(patch.components),
        call: patch.call === undefined ? undefined : callColumn(patch.call),
      };
      if (Object.values(columns).every((value) => value === undefined)) return;
      await db
        .updateTable('messages')
        .set(columns)
        .where('channel_id', '=', channelId)
        .where('id', '=', messageId)
        .execute();
    },

    async delete(channelId, messageIds) {
      if (messageIds.length === 0) return [];
      const rows = await db
        .deleteFrom('messages')
        .where('channel_id', '=', channelId)
        .where('id', 'in', [...new Set(messageIds)])
        .returning('id')
        .execute();
      return rows.map((row) => id(row.id));
    },

    async setPinnedAt(channelId, messageId, pinnedAt) {
      const result = await db
        .updateTable('messages')
        .set({ pinned_at: pinnedAt })
        .where('channel_id', '=', channelId)
        .where('id', '=', messageId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async listPins(channelId, { limit, before }) {
      let query = selectMessages()
        .where('channel_id', '=', channelId)
        .where('pinned_at', 'is not', null);
      if (before !== undefined) query = query.where('pinned_at', '<', before);
      return load(
        await query.orderBy('pinned_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
      );
    },

    async countPins(channelId) {
      const row = await db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('channel_id', '=', channelId)
        .where('pinned_at', 'is not', null)
        .where('ephemeral_user_id', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async listIdsByAuthor({ channelIds, authorId, sinceId }) {
      if (channelIds.length === 0) return [];
      const rows = await db
        .selectFrom('messages')
        .select(['id', 'channel_id'])
        .where('channel_id', 'in', [...channelIds])
        .where('id', '>=', sinceId)
        .where('author_id', '=', authorId)
        .where('ephemeral_user_id', 'is', null)
        .execute();
      return rows.map((row) => ({ channelId: id(row.channel_id), id: id(row.id) }));
    },

    async deleteAllByUser(userId) {
      await db.deleteFrom('message_reactions').where('user_id', '=', userId).execute();
      const result = await db
        .deleteFrom('messages')
        .where('author_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
