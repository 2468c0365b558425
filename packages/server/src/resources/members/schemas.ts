import { z } from 'zod';
import { IsoTimestamp, queryInt, Snowflake, UInt31 } from '../../http/schemas.js';

/** A nickname: at most 32 characters; an empty one clears it (as on the platform). */
const Nick = z
  .string()
  .max(32)
  .nullable()
  .optional()
  .transform((nick) => (nick === '' ? null : nick));

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
  communication_disabled_until: IsoTimestamp.nullable().optional(),
  flags: UInt31.nullable().optional(),
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
