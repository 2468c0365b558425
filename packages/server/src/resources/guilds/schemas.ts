import { z } from 'zod';
import {
  DisplayName,
  PermissionBits,
  QueryBoolean,
  Snowflake,
  queryInt,
} from '../../http/schemas.js';
import {
  CHANNEL_FIELD_LIMITS as CHANNEL_LIMITS,
  GuildChannelTypeInput,
} from '../channels/index.js';

/** The locales the platform knows (AvailableLocalesEnum). */
export const LOCALES = [
  'ar',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en-GB',
  'en-US',
  'es-419',
  'es-ES',
  'fi',
  'fr',
  'he',
  'hi',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'nl',
  'no',
  'pl',
  'pt-BR',
  'ro',
  'ru',
  'sv-SE',
  'th',
  'tr',
  'uk',
  'vi',
  'zh-CN',
  'zh-TW',
] as const;

const VerificationLevel = z.union([0, 1, 2, 3, 4].map((v) => z.literal(v)));
const Notifications = z.union([z.literal(0), z.literal(1)]);
const ContentFilter = z.union([z.literal(0), z.literal(1), z.literal(2)]);
const AfkTimeout = z.union([60, 300, 900, 1800, 3600].map((v) => z.literal(v)));
/** System channel flags: the six documented bits. */
const SystemChannelFlags = z.number().int().min(0).max(63);
/** Placeholder ids of POST /guilds: integers or strings, only meaningful inside the body. */
const Placeholder = z
  .union([z.string().regex(/^\d{1,20}$/), z.number().int().nonnegative()])
  .transform(String);

export const CreateGuildBody = z.object({
  name: DisplayName(2, 100),
  icon: z.string().nullable().optional(),
  verification_level: VerificationLevel.nullable().optional(),
  default_message_notifications: Notifications.nullable().optional(),
  explicit_content_filter: ContentFilter.nullable().optional(),
  afk_timeout: AfkTimeout.nullable().optional(),
  system_channel_flags: SystemChannelFlags.nullable().optional(),
  afk_channel_id: Placeholder.nullable().optional(),
  system_channel_id: Placeholder.nullable().optional(),
  roles: z
    .array(
      z.object({
        id: Placeholder.optional(),
        name: DisplayName(1, 100).optional(),
        permissions: PermissionBits.optional(),
        color: z.number().int().min(0).max(0xffffff).optional(),
        hoist: z.boolean().optional(),
        mentionable: z.boolean().optional(),
      }),
    )
    .max(250)
    .nullable()
    .optional(),
  channels: z
    .array(
      z.object({
        id: Placeholder.optional(),
        name: DisplayName(CHANNEL_LIMITS.name.min, CHANNEL_LIMITS.name.max),
        type: GuildChannelTypeInput.optional(),
        parent_id: Placeholder.nullable().optional(),
        topic: z.string().max(CHANNEL_LIMITS.topic).nullable().optional(),
        nsfw: z.boolean().optional(),
        rate_limit_per_user: z
          .number()
          .int()
          .min(0)
          .max(CHANNEL_LIMITS.rateLimitPerUserSeconds)
          .optional(),
        bitrate: z
          .number()
          .int()
          .min(CHANNEL_LIMITS.bitrate.min)
          .max(CHANNEL_LIMITS.bitrate.max)
          .optional(),
        user_limit: z.number().int().min(0).max(CHANNEL_LIMITS.userLimit).optional(),
        permission_overwrites: z
          .array(
            z.object({
              id: Placeholder,
              type: z.literal(0).optional(),
              allow: PermissionBits.nullable().optional(),
              deny: PermissionBits.nullable().optional(),
            }),
          )
          .max(CHANNEL_LIMITS.overwrites)
          .optional(),
      }),
    )
    .max(CHANNEL_LIMITS.channels)
    .nullable()
    .optional(),
});
export type CreateGuildInput = z.infer<typeof CreateGuildBody>;

export const ModifyGuildBody = z.object({
  name: DisplayName(2, 100).optional(),
  description: z.string().max(300).nullable().optional(),
  icon: z.string().nullable().optional(),
  banner: z.string().nullable().optional(),
  splash: z.string().nullable().optional(),
  verification_level: VerificationLevel.nullable().optional(),
  default_message_notifications: Notifications.nullable().optional(),
  explicit_content_filter: ContentFilter.nullable().optional(),
  afk_timeout: AfkTimeout.nullable().optional(),
  system_channel_flags: SystemChannelFlags.nullable().optional(),
  preferred_locale: z.enum(LOCALES).nullable().optional(),
  premium_progress_bar_enabled: z.boolean().nullable().optional(),
  afk_channel_id: Snowflake.nullable().optional(),
  system_channel_id: Snowflake.nullable().optional(),
  rules_channel_id: Snowflake.nullable().optional(),
  public_updates_channel_id: Snowflake.nullable().optional(),
  features: z.array(z.string().max(100)).max(100).nullable().optional(),
});
export type ModifyGuildInput = z.infer<typeof ModifyGuildBody>;

export const GetGuildQuery = z.object({ with_counts: QueryBoolean.optional() });

export const MyGuildsQuery = z.object({
  before: Snowflake.optional(),
  after: Snowflake.optional(),
  limit: queryInt(1, 200).default(200),
  with_counts: QueryBoolean.optional(),
  /** Read only for apps using large bot sharding; checked by the service (spec). */
  shard: z.string().optional(),
});
export type MyGuildsQueryInput = z.infer<typeof MyGuildsQuery>;
