/**
 * A message's attachments on their own: one found by its id, and an edit's replacement of the
 * set (the part of the message repository over message_attachments alone).
 */
import type { Kysely } from 'kysely';
import type { MessageRepository } from '../types/messages.js';
import { attachmentRow, toAttachment } from './messageRows.js';
import type { Database } from './schema.js';

type MessageAttachmentRepository = Pick<MessageRepository, 'findAttachment' | 'replaceAttachments'>;

export function createMessageAttachmentRepository(
  db: Kysely<Database>,
): MessageAttachmentRepository {
  return {
    async findAttachment(attachmentId) {
      const row = await db
        .selectFrom('message_attachments')
        .selectAll()
        .where('id', '=', attachmentId)
        .executeTakeFirst();
      return row === undefined ? null : toAttachment(row);
    },

    async replaceAttachments(messageId, { kept, added }) {
      const current = await db
        .selectFrom('message_attachments')
        .selectAll()
        .where('message_id', '=', messageId)
        .execute();
      const keptIds = new Set(kept.map((attachment) => attachment.id));
      const removed = current.map(toAttachment).filter((a) => !keptIds.has(a.id));
      if (removed.length > 0) {
        await db
          .deleteFrom('message_attachments')
          .where(
            'id',
            'in',
            removed.map((a) => a.id),
          )
          .execute();
      }
      for (const attachment of kept) {
        await db
          .updateTable('message_attachments')
          .set({
            position: attachment.position,
            description: attachment.description,
            flags: attachment.flags,
          })
          .where('message_id', '=', messageId)
          .where('id', '=', attachment.id)
          .execute();
      }
      if (added.length > 0) {
        await db.insertInto('message_attachments').values(added.map(attachmentRow)).execute();
      }
      return removed;
    },
  };
}
