import type { Kysely } from 'kysely';
import type { VoiceStatusRepository } from '../types/channels.js';
import { id, int } from './rows.js';
import type { Database } from './schema.js';

/** Voice channel statuses: one row per channel that has one; clearing deletes the row. */
export function createVoiceStatusRepository(db: Kysely<Database>): VoiceStatusRepository {
  return {
    async find(channelId) {
      const row = await db
        .selectFrom('voice_channel_status')
        .selectAll()
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      if (row?.status == null) return null;
      return { channelId: id(row.channel_id), status: row.status, updatedAt: int(row.updated_at) };
    },
    async put(record) {
      await db
        .insertInto('voice_channel_status')
        .values({
          channel_id: record.channelId,
          status: record.status,
          updated_at: record.updatedAt,
        })
        .onConflict((oc) =>
          oc
            .column('channel_id')
            .doUpdateSet({ status: record.status, updated_at: record.updatedAt }),
        )
        .execute();
    },
    async delete(channelId) {
      const result = await db
        .deleteFrom('voice_channel_status')
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
