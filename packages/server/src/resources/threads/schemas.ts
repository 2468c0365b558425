import { z } from 'zod';
import {
  DisplayName,
  IsoTimestamp,
  QueryBoolean,
  Snowflake,
  queryInt,
} from '../../http/schemas.js';
import { CreateMessageBody } from '../messages/index.js';
import { AUTO_ARCHIVE_DURATIONS, THREAD_LIMITS as LIMITS } from './rules.js';

const AutoArchiveDuration = z.union(AUTO_ARCHIVE_DURATIONS.map((d) => z.literal(d)));
const RateLimitPerUser = z.number().int().min(0).max(21_600);
const AppliedTags = z.array(Snowflake).max(LIMITS.appliedTags);

const threadFields = {
  name: DisplayName(LIMITS.name.min, LIMITS.name.max),
  auto_archive_duration: AutoArchiveDuration.nullable().optional(),
  rate_limit_per_user: RateLimitPerUser.nullable().optional(),
};

/** POST /channels/{id}/messages/{message_id}/threads. */
export const ThreadFromMessageBody = z.object(threadFields);
export type ThreadFromMessageInput = z.infer<typeof ThreadFromMessageBody>;

/**
 * POST /channels/{id}/threads: in a text or announcement channel a thread without a message
 * (`type`, `invitable`); in a forum or media channel a post (`message`, `applied_tags`).
 */
export const CreateThreadBody = z.object({
  ...threadFields,
  type: z
    .union([z.literal(10), z.literal(11), z.literal(12)])
    .nullable()
    .optional(),
  invitable: z.boolean().nullable().optional(),
  applied_tags: AppliedTags.nullable().optional(),
  message: CreateMessageBody.nullable().optional(),
});
export type CreateThreadInput = z.infer<typeof CreateThreadBody>;

/** PATCH /channels/{id} of a thread. */
export const ModifyThreadBody = z.object({
  name: DisplayName(LIMITS.name.min, LIMITS.name.max).optional(),
  archived: z.boolean().nullable().optional(),
  locked: z.boolean().nullable().optional(),
  invitable: z.boolean().nullable().optional(),
  auto_archive_duration: AutoArchiveDuration.nullable().optional(),
  rate_limit_per_user: RateLimitPerUser.nullable().optional(),
  flags: z.number().int().min(0).nullable().optional(),
  applied_tags: AppliedTags.nullable().optional(),
});
export type ModifyThreadInput = z.infer<typeof ModifyThreadBody>;

export const ThreadParams = z.object({ channel_id: z.string() });
export const ThreadMessageParams = z.object({ channel_id: z.string(), message_id: z.string() });
export const ThreadMemberParams = z.object({ channel_id: z.string(), user_id: z.string() });

export const WithMemberQuery = z.object({ with_member: QueryBoolean.optional() });
export const ListThreadMembersQuery = z.object({
  with_member: QueryBoolean.optional(),
  after: Snowflake.optional(),
  limit: queryInt(1, LIMITS.members.max).default(LIMITS.members.default),
});

/** The archived lists: `before` an ISO timestamp (the private list of the caller: an id). */
export const ArchivedQuery = z.object({
  before: IsoTimestamp.optional(),
  limit: queryInt(LIMITS.archived.min, LIMITS.archived.max).default(LIMITS.archived.default),
});
export const MyArchivedQuery = z.object({
  before: Snowflake.optional(),
  limit: queryInt(LIMITS.archived.min, LIMITS.archived.max).default(LIMITS.archived.default),
});

/** GET /channels/{id}/threads/search (a forum's search box). */
export const ThreadSearchQuery = z.object({
  name: z.string().max(100).optional(),
  slop: queryInt(0, 100).optional(),
  min_id: Snowflake.optional(),
  max_id: Snowflake.optional(),
  tag: z.union([Snowflake, z.array(Snowflake).max(20)]).optional(),
  tag_setting: z.enum(['match_some', 'match_all']).optional(),
  archived: QueryBoolean.optional(),
  sort_by: z.enum(['last_message_time', 'archive_time', 'relevance', 'creation_time']).optional(),
  sort_order: z.enum(['asc', 'desc']).optional(),
  limit: queryInt(1, LIMITS.search.max).default(LIMITS.search.default),
  offset: queryInt(0, LIMITS.search.maxOffset).default(0),
});
export type ThreadSearchInput = z.infer<typeof ThreadSearchQuery>;
