/** @module The edge of game stats: path params and the profile body (docs/social-stats.md). */
import { z } from 'zod';

/** The longest `provider_issued_user_id` (as the provisional `external_user_id`, 1–1024). */
export const MAX_PROVIDER_ISSUED_USER_ID_LENGTH = 1024;
/** The longest in-game username a profile holds. */
export const MAX_PROFILE_USERNAME_LENGTH = 64;
/** The most metadata keys, and dynamic fields, a profile holds. */
export const MAX_METADATA_ENTRIES = 25;
export const MAX_DYNAMIC_FIELDS = 25;
/** The longest metadata key and dynamic field name. */
export const MAX_FIELD_NAME_LENGTH = 64;
/** The longest string value (metadata values, string fields). */
export const MAX_STRING_VALUE_LENGTH = 1024;
/** The longest media URL. */
export const MAX_MEDIA_URL_LENGTH = 2048;

/** Dynamic field types: 1 string, 2 number, 3 media. */
export const DynamicFieldType = { STRING: 1, NUMBER: 2, MEDIA: 3 } as const;

/** The provider types an identity can have: stats identities are NONE, the rest external. */
export const PROVIDER_TYPES = [
  'NONE',
  'OIDC',
  'STEAM',
  'EPIC_ONLINE_SERVICES',
  'UNITY',
  'APPLE',
  'PLAYSTATION_NETWORK',
  'DISCORD_BOT',
] as const;

/** Control characters and bidirectional overrides (which reorder what follows them on screen). */
const NoControlCharacters = (value: string) => !/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(value);

const ShortText = (max: number) =>
  z.string().min(1).max(max).refine(NoControlCharacters, 'Control characters are not allowed.');

/** A media object: `{url}`, an http(s) URL. */
export const Media = z.strictObject({
  url: z
    .string()
    .max(MAX_MEDIA_URL_LENGTH)
    .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), {
      message: 'Not a well formed URL.',
      params: { code: 'URL_TYPE_INVALID_URL' },
    }),
});

const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The pre-defined primary fields (api-facts §9); `*_image` are media, the counts integers. */
export const PrimaryFields = z.strictObject({
  season: ShortText(MAX_FIELD_NAME_LENGTH).optional(),
  rank_name: ShortText(MAX_FIELD_NAME_LENGTH).optional(),
  rank_image: Media.optional(),
  highest_rank: ShortText(MAX_FIELD_NAME_LENGTH).optional(),
  highest_rank_image: Media.optional(),
  featured_played_character: ShortText(MAX_FIELD_NAME_LENGTH).optional(),
  featured_played_character_image: Media.optional(),
  playtime_hours: z.number().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  total_wins: Count.optional(),
  current_period_wins: Count.optional(),
  total_games: Count.optional(),
  current_period_games: Count.optional(),
  total_kills: Count.optional(),
  current_period_kills: Count.optional(),
  total_assists: Count.optional(),
  current_period_assists: Count.optional(),
  total_deaths: Count.optional(),
  current_period_deaths: Count.optional(),
});

const FieldName = ShortText(MAX_FIELD_NAME_LENGTH);

/** One custom field: type 1 string, 2 number, 3 media. */
export const DynamicField = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal(DynamicFieldType.STRING),
    name: FieldName,
    value: z.string().max(MAX_STRING_VALUE_LENGTH).refine(NoControlCharacters, {
      message: 'Control characters are not allowed.',
    }),
  }),
  z.strictObject({
    type: z.literal(DynamicFieldType.NUMBER),
    name: FieldName,
    value: z.number().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  }),
  z.strictObject({ type: z.literal(DynamicFieldType.MEDIA), name: FieldName, value: Media }),
]);

export const StatsData = z.strictObject({
  primary: PrimaryFields.optional(),
  dynamic: z
    .array(DynamicField)
    .max(MAX_DYNAMIC_FIELDS)
    .superRefine((fields, ctx) => {
      const seen = new Set<string>();
      fields.forEach((field, index) => {
        if (seen.has(field.name)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: 'Dynamic field names must be unique.',
            params: { code: 'DYNAMIC_FIELD_NAME_DUPLICATE' },
          });
        }
        seen.add(field.name);
      });
    })
    .optional(),
});
export type StatsData = z.output<typeof StatsData>;

export const Metadata = z
  .record(FieldName, z.string().max(MAX_STRING_VALUE_LENGTH))
  .refine((value) => Object.keys(value).length <= MAX_METADATA_ENTRIES, {
    message: `Must be ${MAX_METADATA_ENTRIES} or fewer in length.`,
    params: { code: 'BASE_TYPE_MAX_LENGTH' },
  });

/** PATCH …/identities/{provider_issued_user_id}/profile: absent fields stay, null clears. */
export const ModifyProfileBody = z.strictObject({
  username: ShortText(MAX_PROFILE_USERNAME_LENGTH).nullable().optional(),
  metadata: Metadata.nullable().optional(),
  data: StatsData.nullable().optional(),
});
export type ModifyProfileInput = z.output<typeof ModifyProfileBody>;

const ProviderIssuedUserId = z.string().min(1).max(MAX_PROVIDER_ISSUED_USER_ID_LENGTH);

export const ProfileParams = z.object({
  application_id: z.string(),
  user_id: z.string(),
  provider_issued_user_id: ProviderIssuedUserId,
});

export const UserIdentitiesParams = z.object({
  user_id: z.string(),
  application_id: z.string(),
});

export const LookupParams = z.object({
  application_id: z.string(),
  provider_type: z.string(),
  provider_issued_user_id: ProviderIssuedUserId,
});

export const LookupQuery = z.object({ provider_id: z.string().max(2048).optional() });

export const DeleteParams = z.object({
  user_id: z.string(),
  application_id: z.string(),
  provider_type: z.string(),
  provider_issued_user_id: ProviderIssuedUserId,
});

export const ApplicationProfilesParams = z.object({ user_id: z.string() });

export const ApplicationIdParams = z.object({ application_id: z.string() });
