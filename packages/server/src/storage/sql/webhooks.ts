import type { Kysely, Selectable } from 'kysely';
import { WebhookTypes, type WebhookRecord, type WebhookRepository } from '../types/webhooks.js';
import { id, idOrNull, int } from './rows.js';
import type { Database, WebhooksTable } from './schema.js';

function toWebhook(row: Selectable<WebhooksTable>): WebhookRecord {
  return {
    id: id(row.id),
    type: int(row.type),
    guildId: id(row.guild_id),
    channelId: id(row.channel_id),
    creatorId: idOrNull(row.creator_id),
    name: row.name,
    avatar: row.avatar,
    tokenHash: row.token_hash,
    tokenSealed: row.token_sealed,
    applicationId: idOrNull(row.application_id),
    sourceGuildId: idOrNull(row.source_guild_id),
    sourceChannelId: idOrNull(row.source_channel_id),
    createdAt: int(row.created_at),
  };
}

/** Webhooks (migration 0025). */
export function createWebhookRepository(db: Kysely<Database>): WebhookRepository {
  const findById = async (webhookId: string) => {
    const row = await db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', webhookId)
      .executeTakeFirst();
    return row === undefined ? null : toWebhook(row);
  };
  return {
    async create(webhook) {
      await db
        .insertInto('webhooks')
        .values({
          id: webhook.id,
          type: webhook.type,
          guild_id: webhook.guildId,
          channel_id: webhook.channelId,
          creator_id: webhook.creatorId,
          name: webhook.name,
          avatar: webhook.avatar,
          token_hash: webhook.tokenHash,
          token_sealed: webhook.tokenSealed,
          application_id: webhook.applicationId,
          source_guild_id: webhook.sourceGuildId,
          source_channel_id: webhook.sourceChannelId,
          created_at: webhook.createdAt,
        })
        .execute();
    },
    findById,
    async listByChannel(channelId) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('channel_id', '=', channelId)
        .orderBy('id')
        .execute();
      return rows.map(toWebhook);
    },
    async listFollowers(sourceChannelId) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('type', '=', WebhookTypes.CHANNEL_FOLLOWER)
        .where('source_channel_id', '=', sourceChannelId)
        .orderBy('id')
        .execute();
      return rows.map(toWebhook);
    },
    async listByGuild(guildId) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('guild_id', '=', guildId)
        .orderBy('id')
        .execute();
      return rows.map(toWebhook);
    },
    async countByChannel(channelId) {
      const row = await db
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('channel_id', '=', channelId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async update(webhookId, patch) {
      const set = {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.avatar === undefined ? {} : { avatar: patch.avatar }),
        ...(patch.channelId === undefined ? {} : { channel_id: patch.channelId }),
      };
      if (Object.keys(set).length > 0) {
        await db.updateTable('webhooks').set(set).where('id', '=', webhookId).execute();
      }
      return findById(webhookId);
    },
    async delete(webhookId) {
      const result = await db.deleteFrom('webhooks').where('id', '=', webhookId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
