import { z } from 'zod';
import { Snowflake, queryInt } from '../../http/schemas.js';
import { DAY_SECONDS } from '../../domain/time.js';

/** The platform's longest message-deletion window on a ban: 7 days. */
const MAX_DELETE_MESSAGE_DAYS = 7;
export const MAX_DELETE_MESSAGE_SECONDS = MAX_DELETE_MESSAGE_DAYS * DAY_SECONDS;
/** The most bans one page lists (and the default). */
const MAX_BANS_PAGE = 1000;
/** The most users one bulk ban names. */
const MAX_BULK_BAN_USERS = 200;

const DeleteMessageSeconds = z.number().int().min(0).max(MAX_DELETE_MESSAGE_SECONDS);

export const BanParams = z.object({ guild_id: z.string(), user_id: z.string() });

export const ListBansQuery = z.object({
  limit: queryInt(1, MAX_BANS_PAGE).default(MAX_BANS_PAGE),
  before: Snowflake.optional(),
  after: Snowflake.optional(),
});

/** PUT /guilds/{id}/bans/{user_id}; `delete_message_days` is the deprecated form. */
export const BanBody = z.object({
  delete_message_seconds: DeleteMessageSeconds.nullable().optional(),
  delete_message_days: z.number().int().min(0).max(MAX_DELETE_MESSAGE_DAYS).nullable().optional(),
});
export type BanInput = z.infer<typeof BanBody>;

export const BulkBanBody = z.object({
  user_ids: z
    .array(Snowflake)
    .min(1)
    .max(MAX_BULK_BAN_USERS)
    .refine((ids) => new Set(ids).size === ids.length, 'User ids must be unique.'),
  delete_message_seconds: DeleteMessageSeconds.nullable().optional(),
});
export type BulkBanInput = z.infer<typeof BulkBanBody>;
