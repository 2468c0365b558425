import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  ActivityConfigRecord,
  ActivityInstanceRecord,
  ActivityLocationKind,
  ActivityRepository,
  ActivityUrlMapping,
} from '../types/activities.js';
import type {
  ActivityInstancesTable,
  ApplicationActivityConfigsTable,
} from './activitiesSchema.js';
import { bool, flag, id, idOrNull, int, intOrNull, jsonArray } from './rows.js';
import type { Database } from './schema.js';
import type { StorageDialect } from '../types/storage.js';

function toMappings(text: string): ActivityUrlMapping[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { prefix, target } = entry as Record<string, unknown>;
    return typeof prefix === 'string' && typeof target === 'string' ? [{ prefix, target }] : [];
  });
}

function toConfig(row: Selectable<ApplicationActivityConfigsTable>): ActivityConfigRecord {
  return {
    applicationId: id(row.application_id),
    urlMappings: toMappings(row.url_mappings),
    supportedPlatforms: jsonArray(row.supported_platforms),
    defaultOrientationLockState: intOrNull(row.default_orientation_lock_state),
    tabletDefaultOrientationLockState: intOrNull(row.tablet_default_orientation_lock_state),
    requiresAgeGate: bool(row.requires_age_gate),
    updatedAt: int(row.updated_at),
  };
}

function toInstance(row: Selectable<ActivityInstancesTable>): ActivityInstanceRecord {
  return {
    id: row.id,
    applicationId: id(row.application_id),
    launchId: id(row.launch_id),
    locationKind: row.location_kind as ActivityLocationKind,
    channelId: id(row.channel_id),
    guildId: idOrNull(row.guild_id),
    launchedBy: id(row.launched_by),
    createdAt: int(row.created_at),
    endedAt: intOrNull(row.ended_at),
  };
}

/** The activity tables (migration 0030), the same SQL on both drivers. */
export function createActivityRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): ActivityRepository {
  const liveInstances = () =>
    db.selectFrom('activity_instances').selectAll().where('ended_at', 'is', null);
  return {
    async urlMappings(applicationId) {
      const row = await db
        .selectFrom('application_activity_configs')
        .select('url_mappings')
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      return row ? toMappings(row.url_mappings) : null;
    },
    async findConfig(applicationId) {
      const row = await db
        .selectFrom('application_activity_configs')
        .selectAll()
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      return row ? toConfig(row) : null;
    },
    async saveConfig(config) {
      const values = {
        url_mappings: JSON.stringify(config.urlMappings),
        supported_platforms: JSON.stringify(config.supportedPlatforms),
        default_orientation_lock_state: config.defaultOrientationLockState,
        tablet_default_orientation_lock_state: config.tabletDefaultOrientationLockState,
        requires_age_gate: flag(config.requiresAgeGate),
        updated_at: config.updatedAt,
      };
      await db
        .insertInto('application_activity_configs')
        .values({ application_id: config.applicationId, ...values })
        .onConflict((oc) => oc.column('application_id').doUpdateSet(values))
        .execute();
    },
    async findInstance(instanceId) {
      const row = await db
        .selectFrom('activity_instances')
        .selectAll()
        .where('id', '=', instanceId)
        .executeTakeFirst();
      return row ? toInstance(row) : null;
    },
    async lockInstance(instanceId) {
      const query = db.selectFrom('activity_instances').selectAll().where('id', '=', instanceId);
      // SQLite runs one write transaction at a time: no row lock is needed there.
      const row = await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
      return row ? toInstance(row) : null;
    },
    async findLiveInstance(applicationId, channelId) {
      const row = await liveInstances()
        .where('application_id', '=', applicationId)
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      return row ? toInstance(row) : null;
    },
    async listLiveInstances(channelId) {
      const rows = await liveInstances()
        .where('channel_id', '=', channelId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toInstance);
    },
    async createInstance(instance) {
      // The partial unique index keeps one live instance per application and channel.
      const result = await db
        .insertInto('activity_instances')
        .values({
          id: instance.id,
          application_id: instance.applicationId,
          launch_id: instance.launchId,
          location_kind: instance.locationKind,
          channel_id: instance.channelId,
          guild_id: instance.guildId,
          launched_by: instance.launchedBy,
          created_at: instance.createdAt,
          ended_at: null,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async addParticipant(participant) {
      const result = await db
        .insertInto('activity_participants')
        .values({
          instance_id: participant.instanceId,
          user_id: participant.userId,
          joined_at: participant.joinedAt,
        })
        .onConflict((oc) => oc.columns(['instance_id', 'user_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async removeParticipant(instanceId, userId) {
      const result = await db
        .deleteFrom('activity_participants')
        .where('instance_id', '=', instanceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listParticipants(instanceId) {
      const rows = await db
        .selectFrom('activity_participants')
        .selectAll()
        .where('instance_id', '=', instanceId)
        .orderBy('joined_at')
        .orderBy('user_id')
        .execute();
      return rows.map((row) => ({
        instanceId: row.instance_id,
        userId: id(row.user_id),
        joinedAt: int(row.joined_at),
      }));
    },
    async endIfEmpty(instanceId, at) {
      const result = await db
        .updateTable('activity_instances')
        .set({ ended_at: at })
        .where('id', '=', instanceId)
        .where('ended_at', 'is', null)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('activity_participants')
                .select(sql<number>`1`.as('one'))
                .where('activity_participants.instance_id', '=', instanceId),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async listLiveInstancesOfUser(userId) {
      const rows = await db
        .selectFrom('activity_instances')
        .innerJoin(
          'activity_participants',
          'activity_participants.instance_id',
          'activity_instances.id',
        )
        .selectAll('activity_instances')
        .where('activity_participants.user_id', '=', userId)
        .where('activity_instances.ended_at', 'is', null)
        .orderBy('activity_instances.created_at')
        .execute();
      return rows.map(toInstance);
    },
  };
}
