import type { Kysely, Selectable } from 'kysely';
import type { ChannelRecord, ChannelRepository } from '../types.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, idOrNull, int, intOrNull } from './rows.js';
import type { ChannelsTable, Database } from './schema.js';

function toChannel(row: Selectable<ChannelsTable>): ChannelRecord {
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
    lastMessageId: idOrNull(row.last_message_id),
    createdAt: int(row.created_at),
  };
}

export function createChannelRepository(db: Kysely<Database>): ChannelRepository {
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
          })
          .execute(),
      );
      return channel;
    },
    async findById(channelId) {
      const row = await db
        .selectFrom('channels')
        .selectAll()
        .where('id', '=', channelId)
        .executeTakeFirst();
      return row ? toChannel(row) : null;
    },
    async listByGuild(guildId) {
      const rows = await db
        .selectFrom('channels')
        .selectAll()
        .where('guild_id', '=', guildId)
        .orderBy('position')
        .orderBy('id')
        .execute();
      return rows.map(toChannel);
    },
  };
}
