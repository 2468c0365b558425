import { z } from 'zod';
import { Snowflake, queryInt } from '../../http/schemas.js';

/** A group DM holds at most this many users (error 30011 past it). */
export const MAX_GROUP_DM_RECIPIENTS = 10;
/** The longest group DM nickname. */
export const MAX_GROUP_DM_NICK_LENGTH = 32;
/** The most moderation metadata keys, and the longest key and value (spec). */
export const MODERATION_METADATA_LIMITS = { keys: 5, key: 1024, value: 2000 } as const;
/** The largest access token a group DM create reads (a longer one is no token of ours). */
const MAX_ACCESS_TOKEN_LENGTH = 512;

/**
 * POST /users/@me/channels (CreatePrivateChannelRequest): `recipient_id` opens a DM;
 * `access_tokens` (OAuth2 tokens with gdm.join of the caller's application) with `nicks`, or
 * `recipients` (user ids, sessions only), make a group DM.
 */
export const CreatePrivateChannelBody = z
  .object({
    recipient_id: Snowflake.nullable().optional(),
    access_tokens: z
      .array(z.string().min(1).max(MAX_ACCESS_TOKEN_LENGTH))
      .max(MAX_GROUP_DM_RECIPIENTS)
      .nullable()
      .optional(),
    nicks: z
      .record(Snowflake, z.string().max(MAX_GROUP_DM_NICK_LENGTH).nullable())
      .nullable()
      .optional(),
    recipients: z.array(Snowflake).max(MAX_GROUP_DM_RECIPIENTS).nullable().optional(),
  })
  .strict();
export type CreatePrivateChannelInput = z.infer<typeof CreatePrivateChannelBody>;

export const UserParams = z.object({ user_id: z.string() });
export const UserMessageParams = z.object({ user_id: z.string(), message_id: z.string() });

export const ModerationParams = z.object({
  user_id_1: z.string(),
  user_id_2: z.string(),
  message_id: z.string(),
});

/** Moderation metadata: a JSON object of strings (≤5 keys, key ≤1024, value ≤2000). */
export const ModerationMetadataBody = z
  .record(
    z.string().min(1).max(MODERATION_METADATA_LIMITS.key),
    z.string().max(MODERATION_METADATA_LIMITS.value),
  )
  .refine((value) => Object.keys(value).length <= MODERATION_METADATA_LIMITS.keys, {
    message: `Must be ${String(MODERATION_METADATA_LIMITS.keys)} or fewer in length.`,
  });

/** GET /users/{user.id}/messages (SDK): the newest messages of the DM with the user. */
export const SdkMessagesQuery = z.object({
  limit: queryInt(1, 100).default(50),
  before: Snowflake.optional(),
});

/** The longest group DM name. */
export const MAX_GROUP_DM_NAME_LENGTH = 100;

/** PATCH /channels/{id} of a group DM (UpdateGroupDMRequestPartial): its name; null clears it. */
export const ModifyGroupDmBody = z
  .object({ name: z.string().max(MAX_GROUP_DM_NAME_LENGTH).nullable().optional() })
  .strict();

export const RecipientParams = z.object({ channel_id: z.string(), user_id: z.string() });

/** PUT /channels/{id}/recipients/{user_id}: the user's gdm.join token and a nickname. */
export const AddRecipientBody = z
  .object({
    access_token: z.string().min(1).max(512).nullable().optional(),
    nick: z.string().max(MAX_GROUP_DM_NICK_LENGTH).nullable().optional(),
  })
  .strict();
