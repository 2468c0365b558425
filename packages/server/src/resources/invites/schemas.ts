import { z } from 'zod';
import { QueryBoolean, Snowflake } from '../../http/schemas.js';
import { DAY_SECONDS } from '../../domain/time.js';

/**
 * The longest max_age: 60 days, as openapi.json's CreateGuildInviteRequest allows
 * (docs/platform-notes.md#invite-routes).
 */
export const MAX_INVITE_AGE_SECONDS = 5_184_000;
export const DEFAULT_INVITE_AGE_SECONDS = DAY_SECONDS;
export const MAX_INVITE_USES = 100;
/** Roles an invite may give (spec). */
export const MAX_INVITE_ROLES = 250;
/** User ids per JSON request: target_user_ids on create, bulk-add and bulk-delete. */
export const MAX_TARGET_USER_IDS = 1000;

export const InviteTargetTypes = { STREAM: 1, EMBEDDED_APPLICATION: 2 } as const;

const UniqueSnowflakes = (max: number) =>
  z
    .array(Snowflake)
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, 'Ids must be unique.');

/**
 * role_ids as JSON gives it (an array), or as a form field may (a comma-separated string; the
 * document allows both).
 */
/** A snowflake of at most 20 digits and its comma. */
const SNOWFLAKE_FIELD_CHARS = 21;

const RoleIds = z
  .union([
    UniqueSnowflakes(MAX_INVITE_ROLES),
    z
      .string()
      .max(MAX_INVITE_ROLES * SNOWFLAKE_FIELD_CHARS)
      .transform((value) =>
        value
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
      )
      .pipe(UniqueSnowflakes(MAX_INVITE_ROLES)),
  ])
  .nullable()
  .optional();

/** POST /channels/{id}/invites (JSON, or multipart `payload_json`). */
export const CreateInviteBody = z.object({
  max_age: z.number().int().min(0).max(MAX_INVITE_AGE_SECONDS).nullable().optional(),
  max_uses: z.number().int().min(0).max(MAX_INVITE_USES).nullable().optional(),
  temporary: z.boolean().nullable().optional(),
  unique: z.boolean().nullable().optional(),
  target_type: z
    .union([z.literal(InviteTargetTypes.STREAM), z.literal(InviteTargetTypes.EMBEDDED_APPLICATION)])
    .nullable()
    .optional(),
  target_user_id: Snowflake.nullable().optional(),
  target_application_id: Snowflake.nullable().optional(),
  role_ids: RoleIds,
  target_user_ids: UniqueSnowflakes(MAX_TARGET_USER_IDS).nullable().optional(),
});
export type CreateInviteInput = z.infer<typeof CreateInviteBody>;

export const CodeParams = z.object({ code: z.string() });
export const TargetUserParams = z.object({ code: z.string(), user_id: Snowflake });

export const GetInviteQuery = z.object({
  with_counts: QueryBoolean.optional(),
  /** Deprecated: expires_at is always sent. Accepted and ignored. */
  with_expiration: QueryBoolean.optional(),
  guild_scheduled_event_id: Snowflake.optional(),
});

/** POST /invites/{code}/target-users/bulk-add and bulk-delete. */
export const BulkTargetUsersBody = z.object({
  user_ids: UniqueSnowflakes(MAX_TARGET_USER_IDS).min(1),
});
