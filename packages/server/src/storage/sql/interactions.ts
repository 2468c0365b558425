import type { Kysely, Selectable } from 'kysely';
import type { InteractionRecord, InteractionRepository } from '../types/interactions.js';
import { id, idOrNull, int, intOrNull } from './rows.js';
import type { Database, InteractionsTable } from './schema.js';

function toInteraction(row: Selectable<InteractionsTable>): InteractionRecord {
  return {
    id: id(row.id),
    applicationId: id(row.application_id),
    type: int(row.type),
    tokenHash: row.token_hash,
    userId: id(row.user_id),
    guildId: idOrNull(row.guild_id),
    channelId: id(row.channel_id),
    messageId: idOrNull(row.message_id),
    nonce: row.nonce,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    triggeringMetadata:
      row.triggering_metadata === null
        ? null
        : (JSON.parse(row.triggering_metadata) as Record<string, unknown>),
    modal: row.modal === null ? null : (JSON.parse(row.modal) as unknown),
    modalCustomId: row.modal_custom_id,
    responseType: intOrNull(row.response_type),
    originalMessageId: idOrNull(row.original_message_id),
    failedAt: intOrNull(row.failed_at),
    createdAt: int(row.created_at),
    ackDeadlineAt: int(row.ack_deadline_at),
    expiresAt: int(row.expires_at),
  };
}

/** The interactions table (migration 0026), the same SQL on both drivers. */
export function createInteractionRepository(db: Kysely<Database>): InteractionRepository {
  const updated = (result: { numUpdatedRows: bigint }) => Number(result.numUpdatedRows) > 0;
  return {
    async create(interaction) {
      await db
        .insertInto('interactions')
        .values({
          id: interaction.id,
          application_id: interaction.applicationId,
          type: interaction.type,
          token_hash: interaction.tokenHash,
          user_id: interaction.userId,
          guild_id: interaction.guildId,
          channel_id: interaction.channelId,
          message_id: interaction.messageId,
          nonce: interaction.nonce,
          payload: JSON.stringify(interaction.payload),
          triggering_metadata:
            interaction.triggeringMetadata === null
              ? null
              : JSON.stringify(interaction.triggeringMetadata),
          modal: null,
          modal_custom_id: null,
          response_type: null,
          original_message_id: null,
          failed_at: null,
          created_at: interaction.createdAt,
          ack_deadline_at: interaction.ackDeadlineAt,
          expires_at: interaction.expiresAt,
        })
        .execute();
    },
    async findById(interactionId) {
      const row = await db
        .selectFrom('interactions')
        .selectAll()
        .where('id', '=', interactionId)
        .executeTakeFirst();
      return row ? toInteraction(row) : null;
    },
    async findByToken(applicationId, tokenHash) {
      const row = await db
        .selectFrom('interactions')
        .selectAll()
        .where('application_id', '=', applicationId)
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ? toInteraction(row) : null;
    },
    async acknowledge(interactionId, responseType) {
      const result = await db
        .updateTable('interactions')
        .set({ response_type: responseType })
        .where('id', '=', interactionId)
        .where('response_type', 'is', null)
        .where('failed_at', 'is', null)
        .executeTakeFirst();
      return updated(result);
    },
    async markFailed(interactionId, at) {
      const result = await db
        .updateTable('interactions')
        .set({ failed_at: at })
        .where('id', '=', interactionId)
        .where('response_type', 'is', null)
        .where('failed_at', 'is', null)
        .executeTakeFirst();
      return updated(result);
    },
    async listOverdue(now, limit) {
      const rows = await db
        .selectFrom('interactions')
        .selectAll()
        .where('response_type', 'is', null)
        .where('failed_at', 'is', null)
        .where('ack_deadline_at', '<=', now)
        .orderBy('ack_deadline_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toInteraction);
    },
    async setOriginalMessage(interactionId, messageId) {
      await db
        .updateTable('interactions')
        .set({ original_message_id: messageId })
        .where('id', '=', interactionId)
        .execute();
    },
    async setModal(interactionId, customId, modal) {
      await db
        .updateTable('interactions')
        .set({ modal: JSON.stringify(modal), modal_custom_id: customId })
        .where('id', '=', interactionId)
        .execute();
    },
    async findShownModal({ applicationId, userId, customId, now }) {
      const row = await db
        .selectFrom('interactions')
        .selectAll()
        .where('application_id', '=', applicationId)
        .where('user_id', '=', userId)
        .where('modal_custom_id', '=', customId)
        .where('expires_at', '>', now)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toInteraction(row) : null;
    },
    async clearModal(interactionId) {
      const result = await db
        .updateTable('interactions')
        .set({ modal: null, modal_custom_id: null })
        .where('id', '=', interactionId)
        .where('modal_custom_id', 'is not', null)
        .executeTakeFirst();
      return updated(result);
    },
    async expireToken(tokenHash, at) {
      const result = await db
        .updateTable('interactions')
        .set({ expires_at: at })
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async deleteExpired(now) {
      const result = await db
        .deleteFrom('interactions')
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
