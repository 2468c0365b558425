import { z } from 'zod';
import { Snowflake, queryInt } from '../../http/schemas.js';

/** The platform's longest message-deletion window on a ban: 7 days. */
export const MAX_DELETE_MESSAGE_SECONDS = 604800;

const DeleteMessageSeconds = z.number().int().min(0).max(MAX_DELETE_MESSAGE_SECONDS);

export const BanParams = z.object({ guild_id: z.string(), user_id: z.string() });

export const ListBansQuery = z.object({
  limit: queryInt(1, 1000).default(1000),
  before: Snowflake.optional(),
  after: Snowflake.optional(),
});

/** PUT /guilds/{id}/bans/{user_id}; `delete_message_days` is the deprecated form. */
export const BanBody = z.object({
  delete_message_seconds: DeleteMessageSeconds.nullable().optional(),
  delete_message_days: z.number().int().min(0).max(7).nullable().optional(),
});
export type BanInput = z.infer<typeof BanBody>;

export const BulkBanBody = z.object({
  user_ids: z
    .array(Snowflake)
    .min(1)
    .max(200)
    .refine((ids) => new Set(ids).size === ids.length, 'User ids must be unique.'),
  delete_message_seconds: DeleteMessageSeconds.nullable().optional(),
});
export type BulkBanInput = z.infer<typeof BulkBanBody>;
