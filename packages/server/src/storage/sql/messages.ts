import {
  createQueryId,
  sql,
  type CompiledQuery,
  type Insertable,
  type Kysely,
  type Selectable,
} from 'kysely';
import type {
  AttachmentRecord,
  MessageActivityRecord,
  MessageCallRecord,
  MessageRecord,
  MessageRepository,
  NewMessage,
  ReactionRepository,
  ReactionSummary,
  WebhookAuthorRecord,
} from '../types/messages.js';
import { bool, flag, id, idOrNull, int, intOrNull, jsonArray } from './rows.js';
import type { Database, MessageAttachmentsTable, MessagesTable } from './schema.js';

function toAttachment(row: Selectable<MessageAttachmentsTable>): AttachmentRecord {
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

function toMessage(
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

const callColumn = (call: MessageCallRecord | null | undefined): string | null =>
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

function attachmentRow(attachment: AttachmentRecord) {
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
async function withAttachments(
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
function messageRow(message: NewMessage): Insertable<MessagesTable> {
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

    async findAttachment(attachmentId) {
      const row = await db
        .selectFrom('message_attachments')
        .selectAll()
        .where('id', '=', attachmentId)
        .executeTakeFirst();
      return row === undefined ? null : toAttachment(row);
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
