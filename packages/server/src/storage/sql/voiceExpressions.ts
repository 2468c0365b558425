/**
 * The repositories of migration 0034 (issue 18, "guild2"), shared by both drivers; the answers
 * to scheduled events and their exceptions are in scheduledEventUsers.ts.
 */
import type { Kysely, Selectable } from 'kysely';
import type {
  ApplicationAttachmentRepository,
  ApplicationEmojiRecord,
  ApplicationEmojiRepository,
  RoleConnectionMetadataRecord,
  RoleConnectionRepository,
  SoundboardRepository,
  SoundboardSoundRecord,
  StageInstanceRecord,
  StageInstanceRepository,
} from '../types/voiceExpressions.js';
import { bool, flag, id, idOrNull, int, intOrNull } from './rows.js';
import type { Database } from './schema.js';
import type {
  ApplicationEmojisTable,
  SoundboardSoundsTable,
  StageInstancesTable,
} from './voiceExpressionsSchema.js';

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
