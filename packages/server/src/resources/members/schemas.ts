import { z } from 'zod';
import { Snowflake, queryInt } from '../../http/schemas.js';

const ISO_TIMESTAMP =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO 8601 timestamp with its zone, as epoch ms. */
const Timestamp = z
  .string()
  .refine((value) => ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)), {
    message: 'Could not parse timestamp. Should be ISO8601.',
    params: { code: 'DATE_TYPE_PARSE' },
  })
  .transform((value) => Date.parse(value));

/** A nickname: at most 32 characters; an empty one clears it (as on the platform). */
const Nick = z
  .string()
  .max(32)
  .nullable()
  .optional()
  .transform((nick) => (nick === '' ? null : nick));

export const GuildParams = z.object({ guild_id: z.string() });
export const MemberParams = z.object({ guild_id: z.string(), user_id: z.string() });
export const MemberRoleParams = MemberParams.extend({ role_id: z.string() });

export const ListMembersQuery = z.object({
  limit: queryInt(1, 1000).default(1),
  after: Snowflake.optional(),
});

export const SearchMembersQuery = z.object({
  query: z.string().min(1).max(100),
  limit: queryInt(1, 1000).default(1),
});

/** PATCH /guilds/{id}/members/{user_id}. */
export const ModifyMemberBody = z.object({
  nick: Nick,
  roles: z
    .array(Snowflake)
    .max(350)
    .refine((ids) => new Set(ids).size === ids.length, 'Role ids must be unique.')
    .nullable()
    .optional(),
  mute: z.boolean().nullable().optional(),
  deaf: z.boolean().nullable().optional(),
  channel_id: Snowflake.nullable().optional(),
  communication_disabled_until: Timestamp.nullable().optional(),
  flags: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .nullable()
    .optional(),
});
export type ModifyMemberInput = z.infer<typeof ModifyMemberBody>;

/** PATCH /guilds/{id}/members/@me: images are data URIs. */
export const ModifyCurrentMemberBody = z.object({
  nick: Nick,
  avatar: z.string().nullable().optional(),
  banner: z.string().nullable().optional(),
  bio: z.string().max(190).nullable().optional(),
});
export type ModifyCurrentMemberInput = z.infer<typeof ModifyCurrentMemberBody>;

/** `include_roles`: comma-separated ids, or the key repeated (at most 100). */
const IncludeRoles = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((part) => part.split(','))
      .map((id) => id.trim())
      .filter((id) => id !== ''),
  )
  .pipe(z.array(Snowflake).max(100));

export const PruneCountQuery = z.object({
  days: queryInt(1, 30).default(7),
  include_roles: IncludeRoles.optional(),
});

export const PruneBody = z.object({
  days: z.number().int().min(1).max(30).nullable().optional(),
  compute_prune_count: z.boolean().nullable().optional(),
  include_roles: IncludeRoles.nullable().optional(),
});
export type PruneInput = z.infer<typeof PruneBody>;
