import type { Kysely, Selectable } from 'kysely';
import type { OverwriteRecord, OverwriteRepository } from '../types/channels.js';
import { id, int } from './rows.js';
import type { Database, PermissionOverwritesTable } from './schema.js';

export function toOverwrite(row: Selectable<PermissionOverwritesTable>): OverwriteRecord {
  return {
    channelId: id(row.channel_id),
    targetId: id(row.target_id),
    type: int(row.type) === 1 ? 1 : 0,
    allow: BigInt(row.allow),
    deny: BigInt(row.deny),
  };
}

export function createOverwriteRepository(db: Kysely<Database>): OverwriteRepository {
  return {
    async listByChannel(channelId) {
      const rows = await db
        .selectFrom('permission_overwrites')
        .selectAll()
        .where('channel_id', '=', channelId)
        .orderBy('target_id')
        .execute();
      return rows.map(toOverwrite);
    },
    async listByChannels(channelIds) {
      if (channelIds.length === 0) return [];
      const rows = await db
        .selectFrom('permission_overwrites')
        .selectAll()
        .where('channel_id', 'in', [...channelIds])
        .orderBy('channel_id')
        .orderBy('target_id')
        .execute();
      return rows.map(toOverwrite);
    },
    async put(overwrite) {
      const existed = await db
        .deleteFrom('permission_overwrites')
        .where('channel_id', '=', overwrite.channelId)
        .where('target_id', '=', overwrite.targetId)
        .executeTakeFirst();
      await db
        .insertInto('permission_overwrites')
        .values({
          channel_id: overwrite.channelId,
          target_id: overwrite.targetId,
          type: overwrite.type,
          allow: overwrite.allow.toString(),
          deny: overwrite.deny.toString(),
        })
        .execute();
      return existed.numDeletedRows > 0n;
    },
    async delete(channelId, targetId) {
      const result = await db
        .deleteFrom('permission_overwrites')
        .where('channel_id', '=', channelId)
        .where('target_id', '=', targetId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
