import { z } from 'zod';
import { DisplayName, PermissionBits, Snowflake, UInt31 } from '../../http/schemas.js';
import { CHANNEL_FIELD_LIMITS as LIMITS, GUILD_CHANNEL_TYPES } from './rules.js';

/** Types 0, 2, 4, 5, 13, 15 and 16; anything else is a 50035 (spec, Channels). */
export const GuildChannelTypeInput = z.union(GUILD_CHANNEL_TYPES.map((type) => z.literal(type)));

export const OverwriteInput = z.object({
  id: Snowflake,
  type: z.union([z.literal(0), z.literal(1)]),
  allow: PermissionBits.nullable().optional(),
  deny: PermissionBits.nullable().optional(),
});
export type OverwriteInputValue = z.infer<typeof OverwriteInput>;

/** A forum or media channel's tag in `available_tags` (docs/threads.md#forum-and-media-posts). */
export const ForumTagInput = z.object({
  id: Snowflake.nullable().optional(),
  name: z.string().trim().min(1).max(LIMITS.tagName),
  moderated: z.boolean().nullable().optional(),
  emoji_id: Snowflake.nullable().optional(),
  emoji_name: z.string().min(1).max(LIMITS.tagEmojiName).nullable().optional(),
});
export type ForumTagInputValue = z.infer<typeof ForumTagInput>;

const channelFields = {
  available_tags: z.array(ForumTagInput).max(LIMITS.availableTags).nullable().optional(),
  topic: z.string().max(LIMITS.topic).nullable().optional(),
  bitrate: z.number().int().min(LIMITS.bitrate.min).max(LIMITS.bitrate.max).nullable().optional(),
  user_limit: z.number().int().min(0).max(LIMITS.userLimit).nullable().optional(),
  rate_limit_per_user: z
    .number()
    .int()
    .min(0)
    .max(LIMITS.rateLimitPerUserSeconds)
    .nullable()
    .optional(),
  position: UInt31.nullable().optional(),
  permission_overwrites: z.array(OverwriteInput).max(LIMITS.overwrites).nullable().optional(),
  parent_id: Snowflake.nullable().optional(),
  nsfw: z.boolean().nullable().optional(),
};

export const CreateChannelBody = z.object({
  name: DisplayName(LIMITS.name.min, LIMITS.name.max),
  type: GuildChannelTypeInput.nullable().optional(),
  ...channelFields,
});
export type CreateChannelInput = z.infer<typeof CreateChannelBody>;

export const ModifyChannelBody = z.object({
  name: DisplayName(LIMITS.name.min, LIMITS.name.max).optional(),
  type: GuildChannelTypeInput.optional(),
  ...channelFields,
});
export type ModifyChannelInput = z.infer<typeof ModifyChannelBody>;

export const ChannelPositionsBody = z
  .array(
    z.object({
      id: Snowflake,
      position: UInt31.nullable().optional(),
      parent_id: Snowflake.nullable().optional(),
      lock_permissions: z.boolean().nullable().optional(),
    }),
  )
  .min(1)
  .max(LIMITS.channels);
export type ChannelPositionsInput = z.infer<typeof ChannelPositionsBody>;

export const PutOverwriteBody = z.object({
  type: z.union([z.literal(0), z.literal(1)]),
  allow: PermissionBits.nullable().optional(),
  deny: PermissionBits.nullable().optional(),
});
export type PutOverwriteInput = z.infer<typeof PutOverwriteBody>;

export const VoiceStatusBody = z.object({ status: z.string().max(500).nullable() });

export const ChannelParams = z.object({ channel_id: z.string() });
export const OverwriteParams = z.object({ channel_id: z.string(), overwrite_id: z.string() });
