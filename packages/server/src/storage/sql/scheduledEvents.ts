import type { Kysely, Selectable, Updateable } from 'kysely';
import type { ScheduledEventRecord, ScheduledEventRepository } from '../types/expressions.js';
import { id, idOrNull, int, intOrNull } from './rows.js';
import type { Database, ScheduledEventsTable } from './schema.js';

function toEvent(row: Selectable<ScheduledEventsTable>): ScheduledEventRecord {
  return {
    id: id(row.id),
    guildId: id(row.guild_id),
    channelId: idOrNull(row.channel_id),
    creatorId: idOrNull(row.creator_id),
    name: row.name,
    description: row.description,
    image: row.image,
    scheduledStartTime: int(row.scheduled_start_time),
    scheduledEndTime: intOrNull(row.scheduled_end_time),
    privacyLevel: int(row.privacy_level),
    status: int(row.status),
    entityType: int(row.entity_type),
    location: row.location,
    createdAt: int(row.created_at),
  };
}

/** Record fields to their columns, for inserts and partial updates alike. */
const COLUMNS = {
  channelId: 'channel_id',
  name: 'name',
  description: 'description',
  image: 'image',
  scheduledStartTime: 'scheduled_start_time',
  scheduledEndTime: 'scheduled_end_time',
  privacyLevel: 'privacy_level',
  status: 'status',
  entityType: 'entity_type',
  location: 'location',
} as const satisfies Partial<Record<keyof ScheduledEventRecord, keyof ScheduledEventsTable>>;

export function createScheduledEventRepository(db: Kysely<Database>): ScheduledEventRepository {
  const findById = async (eventId: string) => {
    const row = await db
      .selectFrom('scheduled_events')
      .selectAll()
      .where('id', '=', eventId)
      .executeTakeFirst();
    return row === undefined ? null : toEvent(row);
  };
  return {
    async create(event) {
      await db
        .insertInto('scheduled_events')
        .values({
          id: event.id,
          guild_id: event.guildId,
          channel_id: event.channelId,
          creator_id: event.creatorId,
          name: event.name,
          description: event.description,
          image: event.image,
          scheduled_start_time: event.scheduledStartTime,
          scheduled_end_time: event.scheduledEndTime,
          privacy_level: event.privacyLevel,
          status: event.status,
          entity_type: event.entityType,
          location: event.location,
          created_at: event.createdAt,
        })
        .execute();
      return event;
    },
    findById,
    async listByGuild(guildId) {
      const rows = await db
        .selectFrom('scheduled_events')
        .selectAll()
        .where('guild_id', '=', guildId)
        .orderBy('scheduled_start_time')
        .orderBy('id')
        .execute();
      return rows.map(toEvent);
    },
    async update(eventId, patch) {
      const set: Record<string, unknown> = {};
      for (const [field, column] of Object.entries(COLUMNS)) {
        const value = patch[field as keyof typeof COLUMNS];
        if (value !== undefined) set[column] = value;
      }
      if (Object.keys(set).length > 0) {
        await db
          .updateTable('scheduled_events')
          .set(set as Updateable<ScheduledEventsTable>)
          .where('id', '=', eventId)
          .execute();
      }
      return findById(eventId);
    },
    async delete(eventId) {
      const result = await db
        .deleteFrom('scheduled_events')
        .where('id', '=', eventId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
