import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';
import { EmojiName } from '../emojis/index.js';

export const AppParams = z.object({ application_id: z.string() });
export const AppEmojiParams = AppParams.extend({ emoji_id: z.string() });

export const CreateAppEmojiBody = z.object({ name: EmojiName, image: z.string() });
export const ModifyAppEmojiBody = z.object({ name: EmojiName });

/** The largest application emoji image: 256 KiB, as for guild emoji. */
export const MAX_APP_EMOJI_BYTES = 256 * 1024;
/** Emoji an application may own. */
export const APP_EMOJI_LIMIT = 2000;

/** Role connection metadata types (MetadataItemTypes 1–8). */
export const MetadataTypes = {
  INTEGER_LESS_THAN_OR_EQUAL: 1,
  INTEGER_GREATER_THAN_OR_EQUAL: 2,
  INTEGER_EQUAL: 3,
  INTEGER_NOT_EQUAL: 4,
  DATETIME_LESS_THAN_OR_EQUAL: 5,
  DATETIME_GREATER_THAN_OR_EQUAL: 6,
  BOOLEAN_EQUAL: 7,
  BOOLEAN_NOT_EQUAL: 8,
} as const;

const Localizations = (max: number) =>
  z.record(z.string(), z.string().min(1).max(max)).nullable().optional();

export const MetadataRecordBody = z.object({
  type: z.literal([1, 2, 3, 4, 5, 6, 7, 8]),
  key: z
    .string()
    .min(1)
    .max(50)
    .regex(/^[a-z0-9_]+$/, 'Keys may only contain a-z, 0-9 and _.'),
  name: z.string().min(1).max(100),
  description: z.string().min(1).max(200),
  name_localizations: Localizations(100),
  description_localizations: Localizations(200),
});

/** PUT .../role-connections/metadata: at most 5 records. */
export const MetadataBody = z.array(MetadataRecordBody).max(5);

export const UserRoleConnectionBody = z.object({
  platform_name: z.string().max(50).nullable().optional(),
  platform_username: z.string().max(100).nullable().optional(),
  metadata: z.record(z.string(), z.string().min(1).max(100)).nullable().optional(),
});
export type UserRoleConnectionInput = z.infer<typeof UserRoleConnectionBody>;

export const GuildMemberParams = z.object({ guild_id: z.string(), user_id: z.string() });

/** PUT /guilds/{id}/members/{user} (BotAddGuildMemberRequest). */
export const AddMemberBody = z.object({
  access_token: z.string().min(1).max(10240),
  nick: z.string().max(32).nullable().optional(),
  roles: z.array(Snowflake).max(250).nullable().optional(),
  mute: z.boolean().nullable().optional(),
  deaf: z.boolean().nullable().optional(),
  flags: z.number().int().nullable().optional(),
});
export type AddMemberInput = z.infer<typeof AddMemberBody>;
