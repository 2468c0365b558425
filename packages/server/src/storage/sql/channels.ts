import type { Kysely, Selectable } from 'kysely';
import type { ChannelPatch, ChannelRecord, ChannelRepository } from '../types/channels.js';
import type { StorageDialect } from '../types/storage.js';
import { findAccessContext, latestMessageId } from './channelAccess.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, idOrNull, int, intOrNull } from './rows.js';
import type { ChannelsTable, Database } from './schema.js';

/** Announcement, public and private threads: not among a guild's channels. */
const THREAD_CHANNEL_TYPES = [10, 11, 12];

/** A channel row with its newest message's id, derived on read (creates never write the row). */
export type ChannelRow = Selectable<ChannelsTable> & { latest_message_id: string | bigint | null };

export function toChannel(row: ChannelRow): ChannelRecord {
  return {
    id: id(row.id),
    guildId: idOrNull(row.guild_id),
    type: int(row.type),
    name: row.name,
    position: int(row.position),
    parentId: idOrNull(row.parent_id),
    topic: row.topic,
    nsfw: bool(row.nsfw),
    rateLimitPerUser: int(row.rate_limit_per_user),
    bitrate: intOrNull(row.bitrate),
    userLimit: intOrNull(row.user_limit),
    flags: int(row.flags),
    lastMessageId: idOrNull(row.latest_message_id ?? row.last_message_id),
    createdAt: int(row.created_at),
    applicationId: idOrNull(row.application_id),
  };
}

function patchColumns(patch: ChannelPatch) {
  return {
    type: patch.type,
    name: patch.name,
    position: patch.position,
    parent_id: patch.parentId,
    topic: patch.topic,
    nsfw: patch.nsfw === undefined ? undefined : flag(patch.nsfw),
    rate_limit_per_user: patch.rateLimitPerUser,
    bitrate: patch.bitrate,
    user_limit: patch.userLimit,
    flags: patch.flags,
  };
}

/**
 * Channels with their `latest_message_id`: one seek on messages (channel_id, id), so posting a
 * message is one insert and never locks the channel's row (channelAccess.ts, latestMessageId). Guild and private channels alike.
 */
export function selectChannelsWithLatest(db: Kysely<Database>) {
  return db.selectFrom('channels').selectAll('channels').select(latestMessageId);
}

export function createChannelRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): ChannelRepository {
  const selectChannels = () => selectChannelsWithLatest(db);
  const findById = async (channelId: string) => {
    const row = await selectChannels().where('channels.id', '=', channelId).executeTakeFirst();
    return row ? toChannel(row) : null;
  };
  return {
    async create(channel) {
      await conflictsAsStorageErrors(
        db
          .insertInto('channels')
          .values({
            id: channel.id,
            guild_id: channel.guildId,
            type: channel.type,
            name: channel.name,
            position: channel.position,
            parent_id: channel.parentId,
            topic: channel.topic,
            nsfw: flag(channel.nsfw),
            rate_limit_per_user: channel.rateLimitPerUser,
            bitrate: channel.bitrate,
            user_limit: channel.userLimit,
            flags: channel.flags,
            last_message_id: channel.lastMessageId,
            created_at: channel.createdAt,
            application_id: channel.applicationId ?? null,
          })
          .execute(),
      );
      return { applicationId: null, ...channel };
    },
    findById,
    async listByGuild(guildId) {
      const rows = await selectChannels()
        .where('channels.guild_id', '=', guildId)
        // Threads are channels too, listed by the thread repository (migration 0032).
        .where('channels.type', 'not in', THREAD_CHANNEL_TYPES)
        .orderBy('channels.position')
        .orderBy('channels.id')
        .execute();
      return rows.map(toChannel);
    },
    async update(channelId, patch) {
      const columns = patchColumns(patch);
      if (Object.values(columns).some((v) => v !== undefined)) {
        await db.updateTable('channels').set(columns).where('id', '=', channelId).execute();
      }
      return findById(channelId);
    },
    async delete(channelId) {
      const result = await db.deleteFrom('channels').where('id', '=', channelId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    findAccessContext: (channelId, userId) =>
      findAccessContext(db, dialect, { channelId, userId, toChannel }),
  };
}
