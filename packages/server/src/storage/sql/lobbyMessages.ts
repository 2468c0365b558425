/**
 * Lobby messages and the moderation metadata apps put on them: the part of the lobby repository
 * over lobby_messages and lobby_message_moderation.
 */
import type { Kysely } from 'kysely';
import type { LobbyMetadata, LobbyRepository } from '../types/lobbies.js';
import { metadataOf, metadataText, toMessage } from './lobbyRows.js';
import { id } from './rows.js';
import type { Database } from './schema.js';

type LobbyMessageRepository = Pick<
  LobbyRepository,
  | 'createMessage'
  | 'findMessage'
  | 'listMessages'
  | 'updateMessage'
  | 'deleteMessage'
  | 'clearModeration'
  | 'putModeration'
  | 'listModeration'
>;

export function createLobbyMessageRepository(db: Kysely<Database>): LobbyMessageRepository {
  return {
    async createMessage(message) {
      await db
        .insertInto('lobby_messages')
        .values({
          id: message.id,
          lobby_id: message.lobbyId,
          author_id: message.authorId,
          application_id: message.applicationId,
          content: message.content,
          metadata: metadataText(message.metadata),
          flags: message.flags,
          additional_name: message.additionalName,
          created_at: message.createdAt,
          edited_at: message.editedAt,
        })
        .execute();
    },
    async findMessage(lobbyId, messageId) {
      const row = await db
        .selectFrom('lobby_messages')
        .selectAll()
        .where('lobby_id', '=', lobbyId)
        .where('id', '=', messageId)
        .executeTakeFirst();
      return row ? toMessage(row) : null;
    },
    async listMessages(lobbyId, { since, limit }) {
      const rows = await db
        .selectFrom('lobby_messages')
        .selectAll()
        .where('lobby_id', '=', lobbyId)
        .where('created_at', '>=', since)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toMessage);
    },
    async updateMessage(messageId, { content, metadata, editedAt }) {
      await db
        .updateTable('lobby_messages')
        .set({ content, metadata: metadataText(metadata), edited_at: editedAt })
        .where('id', '=', messageId)
        .execute();
    },
    async deleteMessage(lobbyId, messageId) {
      const found = await db
        .selectFrom('lobby_messages')
        .select('id')
        .where('lobby_id', '=', lobbyId)
        .where('id', '=', messageId)
        .executeTakeFirst();
      if (found === undefined) return false;
      await db.deleteFrom('lobby_message_moderation').where('message_id', '=', messageId).execute();
      await db.deleteFrom('lobby_messages').where('id', '=', messageId).execute();
      return true;
    },
    async clearModeration(messageId) {
      await db.deleteFrom('lobby_message_moderation').where('message_id', '=', messageId).execute();
    },

    async putModeration({ messageId, applicationId, metadata, updatedAt }) {
      if (Object.keys(metadata).length === 0) {
        await db
          .deleteFrom('lobby_message_moderation')
          .where('message_id', '=', messageId)
          .where('application_id', '=', applicationId)
          .execute();
        return;
      }
      const values = { metadata: JSON.stringify(metadata), updated_at: updatedAt };
      await db
        .insertInto('lobby_message_moderation')
        .values({ message_id: messageId, application_id: applicationId, ...values })
        .onConflict((oc) => oc.columns(['message_id', 'application_id']).doUpdateSet(values))
        .execute();
    },
    async listModeration(applicationId, messageIds) {
      const found = new Map<string, LobbyMetadata>();
      if (messageIds.length === 0) return found;
      const rows = await db
        .selectFrom('lobby_message_moderation')
        .select(['message_id', 'metadata'])
        .where('application_id', '=', applicationId)
        .where('message_id', 'in', [...messageIds])
        .execute();
      for (const row of rows) found.set(id(row.message_id), metadataOf(row.metadata) ?? {});
      return found;
    },
  };
}
