/** The repositories of migration 0034 (issue 18, "guild2"), shared by both drivers. */
import type { Kysely, Selectable } from 'kysely';
import type {
  ApplicationAttachmentRepository,
  ApplicationEmojiRecord,
  ApplicationEmojiRepository,
  RoleConnectionMetadataRecord,
  RoleConnectionRepository,
  ScheduledEventExceptionRecord,
  ScheduledEventUserRecord,
  ScheduledEventUserRepository,
  SoundboardRepository,
  SoundboardSoundRecord,
  StageInstanceRecord,
  StageInstanceRepository,
} from '../types/voiceExpressions.js';
import { bool, flag, id, idOrNull, int, intOrNull } from './rows.js';
import type { Database } from './schema.js';
import type {
  ApplicationEmojisTable,
  ScheduledEventExceptionsTable,
  ScheduledEventUsersTable,
  SoundboardSoundsTable,
  StageInstancesTable,
} from './voiceExpressionsSchema.js';

/** The exception id column of an answer to the whole event. */
const WHOLE_EVENT = '0';

function toSound(row: Selectable<SoundboardSoundsTable>): SoundboardSoundRecord {
  return {
    id: id(row.id),
    guildId: id(row.guild_id),
    name: row.name,
    volume: Number(row.volume),
    emojiId: idOrNull(row.emoji_id),
    emojiName: row.emoji_name,
    creatorId: idOrNull(row.creator_id),
    contentType: row.content_type,
    available: bool(row.available),
    createdAt: int(row.created_at),
  };
}

export function createSoundboardRepository(db: Kysely<Database>): SoundboardRepository {
  const findById = async (soundId: string) => {
    const row = await db
      .selectFrom('soundboard_sounds')
      .selectAll()
      .where('id', '=', soundId)
      .executeTakeFirst();
    return row === undefined ? null : toSound(row);
  };
  return {
    async create(sound) {
      await db
        .insertInto('soundboard_sounds')
        .values({
          id: sound.id,
          guild_id: sound.guildId,
          name: sound.name,
          volume: sound.volume,
          emoji_id: sound.emojiId,
          emoji_name: sound.emojiName,
          creator_id: sound.creatorId,
          content_type: sound.contentType,
          available: flag(sound.available),
          created_at: sound.createdAt,
        })
        .execute();
      return sound;
    },
    findById,
    async listByGuild(guildId) {
      const rows = await db
        .selectFrom('soundboard_sounds')
        .selectAll()
        .where('guild_id', '=', guildId)
        .orderBy('id')
        .execute();
      return rows.map(toSound);
    },
    async update(soundId, patch) {
      const set = {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.volume === undefined ? {} : { volume: patch.volume }),
        ...(patch.emojiId === undefined ? {} : { emoji_id: patch.emojiId }),
        ...(patch.emojiName === undefined ? {} : { emoji_name: patch.emojiName }),
      };
      if (Object.keys(set).length > 0) {
        await db.updateTable('soundboard_sounds').set(set).where('id', '=', soundId).execute();
      }
      return findById(soundId);
    },
    async delete(soundId) {
      const result = await db
        .deleteFrom('soundboard_sounds')
        .where('id', '=', soundId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

function toStage(row: Selectable<StageInstancesTable>): StageInstanceRecord {
  return {
    id: id(row.id),
    guildId: id(row.guild_id),
    channelId: id(row.channel_id),
    topic: row.topic,
    privacyLevel: int(row.privacy_level),
    scheduledEventId: idOrNull(row.scheduled_event_id),
    createdAt: int(row.created_at),
  };
}

export function createStageInstanceRepository(db: Kysely<Database>): StageInstanceRepository {
  const findByChannel = async (channelId: string) => {
    const row = await db
      .selectFrom('stage_instances')
      .selectAll()
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
    return row === undefined ? null : toStage(row);
  };
  return {
    async create(instance) {
      await db
        .insertInto('stage_instances')
        .values({
          id: instance.id,
          guild_id: instance.guildId,
          channel_id: instance.channelId,
          topic: instance.topic,
          privacy_level: instance.privacyLevel,
          scheduled_event_id: instance.scheduledEventId,
          created_at: instance.createdAt,
        })
        .execute();
      return instance;
    },
    findByChannel,
    async listByGuild(guildId) {
      const rows = await db
        .selectFrom('stage_instances')
        .selectAll()
        .where('guild_id', '=', guildId)
        .orderBy('id')
        .execute();
      return rows.map(toStage);
    },
    async update(channelId, patch) {
      const set = {
        ...(patch.topic === undefined ? {} : { topic: patch.topic }),
        ...(patch.privacyLevel === undefined ? {} : { privacy_level: patch.privacyLevel }),
      };
      if (Object.keys(set).length > 0) {
        await db
          .updateTable('stage_instances')
          .set(set)
          .where('channel_id', '=', channelId)
          .execute();
      }
      return findByChannel(channelId);
    },
    async delete(channelId) {
      const result = await db
        .deleteFrom('stage_instances')
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

function toException(
  row: Selectable<ScheduledEventExceptionsTable>,
): ScheduledEventExceptionRecord {
  return {
    id: id(row.id),
    eventId: id(row.event_id),
    originalStartTime: int(row.original_start_time),
    scheduledStartTime: intOrNull(row.scheduled_start_time),
    scheduledEndTime: intOrNull(row.scheduled_end_time),
    isCanceled: bool(row.is_canceled),
  };
}

function toEventUser(row: Selectable<ScheduledEventUsersTable>): ScheduledEventUserRecord {
  const exceptionId = id(row.exception_id);
  return {
    eventId: id(row.event_id),
    exceptionId: exceptionId === WHOLE_EVENT ? null : exceptionId,
    userId: id(row.user_id),
    response: int(row.response),
    createdAt: int(row.created_at),
  };
}

export function createScheduledEventUserRepository(
  db: Kysely<Database>,
): ScheduledEventUserRepository {
  const findException = async (exceptionId: string) => {
    const row = await db
      .selectFrom('scheduled_event_exceptions')
      .selectAll()
      .where('id', '=', exceptionId)
      .executeTakeFirst();
    return row === undefined ? null : toException(row);
  };
  return {
    async putUser(user) {
      const exceptionId = user.exceptionId ?? WHOLE_EVENT;
      const existing = await db
        .selectFrom('scheduled_event_users')
        .select('response')
        .where('event_id', '=', user.eventId)
        .where('exception_id', '=', exceptionId)
        .where('user_id', '=', user.userId)
        .executeTakeFirst();
      if (existing !== undefined && int(existing.response) === user.response) return false;
      await db
        .insertInto('scheduled_event_users')
        .values({
          event_id: user.eventId,
          exception_id: exceptionId,
          user_id: user.userId,
          response: user.response,
          created_at: user.createdAt,
        })
        .onConflict((oc) =>
          oc
            .columns(['event_id', 'exception_id', 'user_id'])
            .doUpdateSet({ response: user.response }),
        )
        .execute();
      return true;
    },
    async deleteUser(eventId, exceptionId, userId) {
      const result = await db
        .deleteFrom('scheduled_event_users')
        .where('event_id', '=', eventId)
        .where('exception_id', '=', exceptionId ?? WHOLE_EVENT)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async listUsers(eventId, exceptionId, page) {
      let query = db
        .selectFrom('scheduled_event_users')
        .selectAll()
        .where('event_id', '=', eventId)
        .where('exception_id', '=', exceptionId ?? WHOLE_EVENT);
      if (page.after !== undefined) query = query.where('user_id', '>', page.after);
      if (page.before !== undefined) query = query.where('user_id', '<', page.before);
      // Before a user, the nearest ones: read downwards, answer upwards.
      const descending = page.before !== undefined && page.after === undefined;
      const rows = await query
        .orderBy('user_id', descending ? 'desc' : 'asc')
        .limit(page.limit)
        .execute();
      const users = rows.map(toEventUser);
      return descending ? users.reverse() : users;
    },
    async countUsers(eventId) {
      const rows = await db
        .selectFrom('scheduled_event_users')
        .select(['exception_id', (eb) => eb.fn.countAll<number | bigint | string>().as('n')])
        .where('event_id', '=', eventId)
        .where('response', '=', 1)
        .groupBy('exception_id')
        .execute();
      const exceptions = new Map<string, number>();
      let event = 0;
      for (const row of rows) {
        const exceptionId = id(row.exception_id);
        if (exceptionId === WHOLE_EVENT) event = int(row.n);
        else exceptions.set(exceptionId, int(row.n));
      }
      return { event, exceptions };
    },
    async countInterested(eventIds) {
      const out = new Map<string, number>();
      if (eventIds.length === 0) return out;
      const rows = await db
        .selectFrom('scheduled_event_users')
        .select(['event_id', (eb) => eb.fn.countAll<number | bigint | string>().as('n')])
        .where('event_id', 'in', [...eventIds])
        .where('exception_id', '=', WHOLE_EVENT)
        .where('response', '=', 1)
        .groupBy('event_id')
        .execute();
      for (const row of rows) out.set(id(row.event_id), int(row.n));
      return out;
    },
    async createException(exception) {
      await db
        .insertInto('scheduled_event_exceptions')
        .values({
          id: exception.id,
          event_id: exception.eventId,
          original_start_time: exception.originalStartTime,
          scheduled_start_time: exception.scheduledStartTime,
          scheduled_end_time: exception.scheduledEndTime,
          is_canceled: flag(exception.isCanceled),
        })
        .execute();
    },
    findException,
    async findExceptionAt(eventId, originalStartTime) {
      const row = await db
        .selectFrom('scheduled_event_exceptions')
        .selectAll()
        .where('event_id', '=', eventId)
        .where('original_start_time', '=', originalStartTime)
        .executeTakeFirst();
      return row === undefined ? null : toException(row);
    },
    async listExceptions(eventId) {
      const rows = await db
        .selectFrom('scheduled_event_exceptions')
        .selectAll()
        .where('event_id', '=', eventId)
        .orderBy('original_start_time')
        .execute();
      return rows.map(toException);
    },
    async updateException(exceptionId, patch) {
      const set = {
        ...(patch.scheduledStartTime === undefined
          ? {}
          : { scheduled_start_time: patch.scheduledStartTime }),
        ...(patch.scheduledEndTime === undefined
          ? {}
          : { scheduled_end_time: patch.scheduledEndTime }),
        ...(patch.isCanceled === undefined ? {} : { is_canceled: flag(patch.isCanceled) }),
      };
      if (Object.keys(set).length > 0) {
        await db
          .updateTable('scheduled_event_exceptions')
          .set(set)
          .where('id', '=', exceptionId)
          .execute();
      }
      return findException(exceptionId);
    },
    async deleteException(exceptionId) {
      await db
        .deleteFrom('scheduled_event_users')
        .where('exception_id', '=', exceptionId)
        .execute();
      const result = await db
        .deleteFrom('scheduled_event_exceptions')
        .where('id', '=', exceptionId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

function toAppEmoji(row: Selectable<ApplicationEmojisTable>): ApplicationEmojiRecord {
  return {
    id: id(row.id),
    applicationId: id(row.application_id),
    name: row.name,
    animated: bool(row.animated),
    creatorId: idOrNull(row.creator_id),
    createdAt: int(row.created_at),
  };
}

export function createApplicationEmojiRepository(db: Kysely<Database>): ApplicationEmojiRepository {
  const findById = async (emojiId: string) => {
    const row = await db
      .selectFrom('application_emojis')
      .selectAll()
      .where('id', '=', emojiId)
      .executeTakeFirst();
    return row === undefined ? null : toAppEmoji(row);
  };
  return {
    async create(emoji) {
      await db
        .insertInto('application_emojis')
        .values({
          id: emoji.id,
          application_id: emoji.applicationId,
          name: emoji.name,
          animated: flag(emoji.animated),
          creator_id: emoji.creatorId,
          created_at: emoji.createdAt,
        })
        .execute();
      return emoji;
    },
    findById,
    async listByApplication(applicationId) {
      const rows = await db
        .selectFrom('application_emojis')
        .selectAll()
        .where('application_id', '=', applicationId)
        .orderBy('id')
        .execute();
      return rows.map(toAppEmoji);
    },
    async rename(emojiId, name) {
      await db.updateTable('application_emojis').set({ name }).where('id', '=', emojiId).execute();
      return findById(emojiId);
    },
    async delete(emojiId) {
      const result = await db
        .deleteFrom('application_emojis')
        .where('id', '=', emojiId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

function parseObject(text: string): Record<string, string> {
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
}

export function createRoleConnectionRepository(db: Kysely<Database>): RoleConnectionRepository {
  return {
    async listMetadata(applicationId) {
      const row = await db
        .selectFrom('application_role_connection_metadata')
        .select('records')
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      if (row === undefined) return [];
      const parsed: unknown = JSON.parse(row.records);
      return Array.isArray(parsed) ? (parsed as RoleConnectionMetadataRecord[]) : [];
    },
    async putMetadata(applicationId, records, updatedAt) {
      const values = { records: JSON.stringify(records), updated_at: updatedAt };
      await db
        .insertInto('application_role_connection_metadata')
        .values({ application_id: applicationId, ...values })
        .onConflict((oc) => oc.column('application_id').doUpdateSet(values))
        .execute();
    },
    async findConnection(userId, applicationId) {
      const row = await db
        .selectFrom('user_role_connections')
        .selectAll()
        .where('user_id', '=', userId)
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      if (row === undefined) return null;
      return {
        userId: id(row.user_id),
        applicationId: id(row.application_id),
        platformName: row.platform_name,
        platformUsername: row.platform_username,
        metadata: parseObject(row.metadata),
        updatedAt: int(row.updated_at),
      };
    },
    async putConnection(connection) {
      const values = {
        platform_name: connection.platformName,
        platform_username: connection.platformUsername,
        metadata: JSON.stringify(connection.metadata),
        updated_at: connection.updatedAt,
      };
      await db
        .insertInto('user_role_connections')
        .values({ user_id: connection.userId, application_id: connection.applicationId, ...values })
        .onConflict((oc) => oc.columns(['user_id', 'application_id']).doUpdateSet(values))
        .execute();
    },
    async deleteConnection(userId, applicationId) {
      const result = await db
        .deleteFrom('user_role_connections')
        .where('user_id', '=', userId)
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export function createApplicationAttachmentRepository(
  db: Kysely<Database>,
): ApplicationAttachmentRepository {
  return {
    async create(a) {
      await db
        .insertInto('application_attachments')
        .values({
          id: a.id,
          application_id: a.applicationId,
          filename: a.filename,
          content_type: a.contentType,
          size: a.size,
          width: a.width,
          height: a.height,
          created_at: a.createdAt,
        })
        .execute();
    },
    async findById(attachmentId) {
      const row = await db
        .selectFrom('application_attachments')
        .selectAll()
        .where('id', '=', attachmentId)
        .executeTakeFirst();
      if (row === undefined) return null;
      return {
        id: id(row.id),
        applicationId: id(row.application_id),
        filename: row.filename,
        contentType: row.content_type,
        size: int(row.size),
        width: intOrNull(row.width),
        height: intOrNull(row.height),
        createdAt: int(row.created_at),
      };
    },
  };
}
