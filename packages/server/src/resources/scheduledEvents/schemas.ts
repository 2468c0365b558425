import { z } from 'zod';
import {
  DisplayName,
  IsoTimestamp,
  QueryBoolean,
  Snowflake,
  queryInt,
} from '../../http/schemas.js';

/** GuildScheduledEventEntityTypes. */
export const EntityTypes = { STAGE_INSTANCE: 1, VOICE: 2, EXTERNAL: 3 } as const;
/** GuildScheduledEventStatuses. */
export const EventStatuses = { SCHEDULED: 1, ACTIVE: 2, COMPLETED: 3, CANCELED: 4 } as const;
/** GuildScheduledEventPrivacyLevels: GUILD_ONLY is the only level. */
export const GUILD_ONLY = 2;

const EntityMetadata = z.object({ location: z.string().min(1).max(100).optional() });

/** Recurring events are not offered: only null (or nothing) is taken. */
const RecurrenceRule = z.null().optional();

export const CreateEventBody = z.object({
  name: DisplayName(1, 100),
  description: z.string().max(1000).nullish(),
  image: z.string().nullish(),
  scheduled_start_time: IsoTimestamp,
  scheduled_end_time: IsoTimestamp.nullish(),
  privacy_level: z.literal(GUILD_ONLY),
  entity_type: z.literal([EntityTypes.STAGE_INSTANCE, EntityTypes.VOICE, EntityTypes.EXTERNAL]),
  channel_id: Snowflake.nullish(),
  entity_metadata: EntityMetadata.nullish(),
  recurrence_rule: RecurrenceRule,
});
export type CreateEventInput = z.infer<typeof CreateEventBody>;

export const ModifyEventBody = z.object({
  name: DisplayName(1, 100).optional(),
  description: z.string().max(1000).nullish(),
  image: z.string().nullish(),
  scheduled_start_time: IsoTimestamp.optional(),
  scheduled_end_time: IsoTimestamp.nullish(),
  privacy_level: z.literal(GUILD_ONLY).optional(),
  entity_type: z
    .literal([EntityTypes.STAGE_INSTANCE, EntityTypes.VOICE, EntityTypes.EXTERNAL])
    .optional(),
  channel_id: Snowflake.nullish(),
  entity_metadata: EntityMetadata.nullish(),
  status: z
    .literal([
      EventStatuses.SCHEDULED,
      EventStatuses.ACTIVE,
      EventStatuses.COMPLETED,
      EventStatuses.CANCELED,
    ])
    .optional(),
  recurrence_rule: RecurrenceRule,
});
export type ModifyEventInput = z.infer<typeof ModifyEventBody>;

export const EventQuery = z.object({ with_user_count: QueryBoolean.optional() });

export const EventParams = z.object({
  guild_id: z.string(),
  guild_scheduled_event_id: z.string(),
});

export const ExceptionParams = EventParams.extend({ exception_id: z.string() });

/** GET .../users and .../{exception_id}/users. */
export const EventUsersQuery = z.object({
  limit: queryInt(1, 100).optional(),
  with_member: QueryBoolean.optional(),
  before: Snowflake.optional(),
  after: Snowflake.optional(),
});
export type EventUsersQueryInput = z.infer<typeof EventUsersQuery>;

/** GET .../users/counts: up to 10 exception ids, repeated or comma-separated. */
export const EventUserCountsQuery = z.object({
  guild_scheduled_event_exception_ids: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) =>
      v === undefined ? [] : (Array.isArray(v) ? v : v.split(',')).filter((id) => id !== ''),
    )
    .pipe(z.array(Snowflake).max(10)),
});

export const CreateExceptionBody = z.object({
  original_scheduled_start_time: IsoTimestamp,
  scheduled_start_time: IsoTimestamp.nullable().optional(),
  scheduled_end_time: IsoTimestamp.nullable().optional(),
  is_canceled: z.boolean().nullable().optional(),
});
export type CreateExceptionInput = z.infer<typeof CreateExceptionBody>;

export const ModifyExceptionBody = z.object({
  scheduled_start_time: IsoTimestamp.nullable().optional(),
  scheduled_end_time: IsoTimestamp.nullable().optional(),
  is_canceled: z.boolean().nullable().optional(),
});
export type ModifyExceptionInput = z.infer<typeof ModifyExceptionBody>;

/** The client route's body: an occurrence may be answered "not interested" (response 0). */
export const AnswerBody = z.object({ response: z.literal([0, 1]).optional() });
