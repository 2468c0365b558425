/**
 * The rows of the messages and message_attachments tables as the repository's records, and the
 * records as rows: what messages.ts writes and reads.
 */
import { type Insertable, type Kysely, type Selectable } from 'kysely';
import type {
  AttachmentRecord,
  MessageActivityRecord,
  MessageCallRecord,
  MessageRecord,
  NewMessage,
  WebhookAuthorRecord,
} from '../types/messages.js';
import { bool, flag, id, idOrNull, int, intOrNull, jsonArray } from './rows.js';
import type { Database, MessageAttachmentsTable, MessagesTable } from './schema.js';

export function toAttachment(row: Selectable<MessageAttachmentsTable>): AttachmentRecord {
  return {
    id: id(row.id),
    messageId: id(row.message_id),
    channelId: id(row.channel_id),
    position: int(row.position),
    filename: row.filename,
    description: row.description,
    contentType: row.content_type,
    size: int(row.size),
    flags: int(row.flags),
    title: row.title,
  };
}

function jsonList(value: string | null): unknown[] | null {
  if (value === null) return null;
  const parsed: unknown = JSON.parse(value);
  return Array.isArray(parsed) ? (parsed as unknown[]) : [];
}

export function toMessage(
  row: Selectable<MessagesTable>,
  attachments: readonly AttachmentRecord[],
): MessageRecord {
  const referenceChannelId = idOrNull(row.reference_channel_id);
  return {
    id: id(row.id),
    channelId: id(row.channel_id),
    guildId: idOrNull(row.guild_id),
    authorId: id(row.author_id),
    type: int(row.type),
    content: row.content,
    embeds: jsonList(row.embeds) ?? [],
    flags: int(row.flags),
    tts: bool(row.tts),
    mentionEveryone: bool(row.mention_everyone),
    mentionUserIds: jsonArray(row.mention_user_ids),
    mentionRoleIds: jsonArray(row.mention_role_ids),
    reference:
      referenceChannelId === null
        ? null
        : {
            type: int(row.reference_type ?? 0),
            channelId: referenceChannelId,
            messageId: idOrNull(row.reference_message_id),
            guildId: idOrNull(row.reference_guild_id),
          },
    snapshots: jsonList(row.snapshots),
    nonce: row.nonce,
    applicationId: idOrNull(row.application_id),
    webhookId: idOrNull(row.webhook_id),
    pinnedAt: intOrNull(row.pinned_at),
    editedAt: intOrNull(row.edited_at),
    createdAt: int(row.created_at),
    attachments: [...attachments],
    // Only the messages that carry these fields have them (most messages have none).
    ...(row.activity === null ? {} : { activity: activityOf(row.activity) }),
    ...(row.components === null ? {} : { components: jsonList(row.components) ?? [] }),
    ...(row.interaction_metadata === null ? {} : interactionOf(row.interaction_metadata)),
    ...(row.webhook_author === null
      ? {}
      : { webhookAuthor: JSON.parse(row.webhook_author) as WebhookAuthorRecord }),
    ...(row.ephemeral_user_id === null ? {} : { ephemeralUserId: id(row.ephemeral_user_id) }),
    ...(row.metadata == null
      ? {}
      : { metadata: JSON.parse(row.metadata) as Record<string, string> }),
    ...(row.call == null ? {} : { call: callOf(row.call) }),
  };
}

/** The call column: `{"participants": [ids], "ended_at": ms or null}`. */
function callOf(value: string): MessageCallRecord {
  const parsed = JSON.parse(value) as { participants: string[]; ended_at: number | null };
  return { participants: parsed.participants, endedAt: parsed.ended_at };
}

export const callColumn = (call: MessageCallRecord | null | undefined): string | null =>
  call == null ? null : JSON.stringify({ participants: call.participants, ended_at: call.endedAt });

/**
 * The interaction_metadata column: the wire metadata alone, or with a command's deprecated
 * `interaction` beside it as `{"metadata": …, "interaction": …}` (a metadata object always has
 * an `id`, so the two read apart; rows stored before the second form hold the first).
 */
function interactionColumn(message: NewMessage): string | null {
  if (message.interactionMetadata == null) return null;
  return JSON.stringify(
    message.interaction == null
      ? message.interactionMetadata
      : { metadata: message.interactionMetadata, interaction: message.interaction },
  );
}

function interactionOf(value: string): Pick<MessageRecord, 'interactionMetadata' | 'interaction'> {
  const parsed = JSON.parse(value) as Record<string, unknown>;
  if ('id' in parsed) return { interactionMetadata: parsed };
  return {
    interactionMetadata: parsed['metadata'] as Record<string, unknown>,
    interaction: parsed['interaction'] as Record<string, unknown>,
  };
}

function activityOf(value: string): MessageActivityRecord {
  const parsed = JSON.parse(value) as { type: number; party_id: string };
  return { type: parsed.type, partyId: parsed.party_id };
}

export function attachmentRow(attachment: AttachmentRecord) {
  return {
    id: attachment.id,
    message_id: attachment.messageId,
    channel_id: attachment.channelId,
    position: attachment.position,
    filename: attachment.filename,
    description: attachment.description,
    content_type: attachment.contentType,
    size: attachment.size,
    flags: attachment.flags,
    title: attachment.title,
  };
}

/** Messages with their attachments: one query for the rows, one for every attachment. */
export async function withAttachments(
  db: Kysely<Database>,
  rows: readonly Selectable<MessagesTable>[],
): Promise<MessageRecord[]> {
  if (rows.length === 0) return [];
  const attachments = await db
    .selectFrom('message_attachments')
    .selectAll()
    .where(
      'message_id',
      'in',
      rows.map((row) => id(row.id)),
    )
    .orderBy('message_id')
    .orderBy('position')
    .execute();
  const byMessage = new Map<string, AttachmentRecord[]>();
  for (const row of attachments) {
    const attachment = toAttachment(row);
    const list = byMessage.get(attachment.messageId) ?? [];
    list.push(attachment);
    byMessage.set(attachment.messageId, list);
  }
  return rows.map((row) => toMessage(row, byMessage.get(id(row.id)) ?? []));
}

/** A message's row, its columns always in this order. */
export function messageRow(message: NewMessage): Insertable<MessagesTable> {
  return {
    id: message.id,
    channel_id: message.channelId,
    guild_id: message.guildId,
    author_id: message.authorId,
    type: message.type,
    content: message.content,
    embeds: JSON.stringify(message.embeds),
    flags: message.flags,
    tts: flag(message.tts),
    mention_everyone: flag(message.mentionEveryone),
    mention_user_ids: JSON.stringify(message.mentionUserIds),
    mention_role_ids: JSON.stringify(message.mentionRoleIds),
    reference_type: message.reference?.type ?? null,
    reference_channel_id: message.reference?.channelId ?? null,
    reference_message_id: message.reference?.messageId ?? null,
    reference_guild_id: message.reference?.guildId ?? null,
    snapshots: message.snapshots === null ? null : JSON.stringify(message.snapshots),
    nonce: message.nonce,
    application_id: message.applicationId,
    webhook_id: message.webhookId,
    created_at: message.createdAt,
    activity:
      message.activity == null
        ? null
        : JSON.stringify({ type: message.activity.type, party_id: message.activity.partyId }),
    components:
      message.components === undefined || message.components.length === 0
        ? null
        : JSON.stringify(message.components),
    interaction_metadata: interactionColumn(message),
    webhook_author: message.webhookAuthor == null ? null : JSON.stringify(message.webhookAuthor),
    ephemeral_user_id: message.ephemeralUserId ?? null,
    metadata: message.metadata == null ? null : JSON.stringify(message.metadata),
    call: callColumn(message.call),
  };
}
