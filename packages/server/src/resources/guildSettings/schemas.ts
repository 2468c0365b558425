/** @module resources/guildSettings/schemas: bodies and stored documents of the guild settings. */
import { z } from 'zod';
import { IsoTimestamp, Snowflake, queryInt } from '../../http/schemas.js';
import { JOIN_REQUEST_STATUSES } from '../../storage/index.js';

const unique = (items: readonly unknown[]) => new Set(items).size === items.length;
const IdList = (max: number) => z.array(Snowflake).max(max).refine(unique, 'Ids must be unique.');

/** The platform's limits on these settings. */
export const SETTINGS_LIMITS = {
  welcomeChannels: 5,
  welcomeDescription: 140,
  welcomeChannelDescription: 50,
  prompts: 15,
  promptOptions: 50,
  defaultChannels: 500,
  /** Onboarding may be enabled with this many default channels, that many of them open to all. */
  onboardingMinDefaultChannels: 7,
  onboardingMinChattableChannels: 5,
  /** How far ahead incident actions may pause invites or DMs: 24 hours. */
  incidentMaxHours: 24,
  vanityCode: { min: 2, max: 32 },
  joinRequestsPage: 100,
} as const;

const L = SETTINGS_LIMITS;

// Widget ------------------------------------------------------------------------------------

export const WidgetSettings = z.object({
  enabled: z.boolean().default(false),
  channel_id: Snowflake.nullable().default(null),
});
export type WidgetSettings = z.infer<typeof WidgetSettings>;

export const WidgetSettingsBody = z.object({
  enabled: z.boolean().nullable().optional(),
  channel_id: Snowflake.nullable().optional(),
});

export const WIDGET_STYLES = ['shield', 'banner1', 'banner2', 'banner3', 'banner4'] as const;
export const WidgetImageQuery = z.object({ style: z.enum(WIDGET_STYLES).default('shield') });

// Welcome screen -----------------------------------------------------------------------------

const WelcomeChannel = z.object({
  channel_id: Snowflake,
  description: z.string().min(1).max(L.welcomeChannelDescription),
  emoji_id: Snowflake.nullable().optional(),
  emoji_name: z.string().max(100).nullable().optional(),
});

export const WelcomeScreen = z.object({
  enabled: z.boolean().default(false),
  description: z.string().nullable().default(null),
  welcome_channels: z
    .array(
      z.object({
        channel_id: z.string(),
        description: z.string(),
        emoji_id: z.string().nullable(),
        emoji_name: z.string().nullable(),
      }),
    )
    .default([]),
});
export type WelcomeScreen = z.infer<typeof WelcomeScreen>;

export const WelcomeScreenBody = z.object({
  enabled: z.boolean().nullable().optional(),
  description: z.string().max(L.welcomeDescription).nullable().optional(),
  welcome_channels: z.array(WelcomeChannel).max(L.welcomeChannels).nullable().optional(),
});

// Onboarding ---------------------------------------------------------------------------------

const PromptOptionBody = z.object({
  id: Snowflake.nullable().optional(),
  title: z.string().min(1).max(50),
  description: z.string().max(100).nullable().optional(),
  emoji_id: Snowflake.nullable().optional(),
  emoji_name: z.string().max(100).nullable().optional(),
  emoji_animated: z.boolean().nullable().optional(),
  role_ids: IdList(50).nullable().optional(),
  channel_ids: IdList(50).nullable().optional(),
});

const PromptBody = z.object({
  id: Snowflake,
  title: z.string().min(1).max(100),
  options: z.array(PromptOptionBody).min(1).max(L.promptOptions),
  single_select: z.boolean().nullable().optional(),
  required: z.boolean().nullable().optional(),
  in_onboarding: z.boolean().nullable().optional(),
  type: z
    .union([z.literal(0), z.literal(1)])
    .nullable()
    .optional(),
});

export const OnboardingBody = z.object({
  prompts: z.array(PromptBody).max(L.prompts).nullable().optional(),
  enabled: z.boolean().nullable().optional(),
  default_channel_ids: IdList(L.defaultChannels).nullable().optional(),
  mode: z
    .union([z.literal(0), z.literal(1)])
    .nullable()
    .optional(),
});
export type OnboardingInput = z.infer<typeof OnboardingBody>;

const PromptOption = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  emoji: z.object({
    id: z.string().nullable(),
    name: z.string().nullable(),
    animated: z.boolean(),
  }),
  role_ids: z.array(z.string()),
  channel_ids: z.array(z.string()),
});

export const Onboarding = z.object({
  enabled: z.boolean().default(false),
  mode: z.number().int().default(0),
  default_channel_ids: z.array(z.string()).default([]),
  prompts: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        options: z.array(PromptOption),
        single_select: z.boolean(),
        required: z.boolean(),
        in_onboarding: z.boolean(),
        type: z.number().int(),
      }),
    )
    .default([]),
});
export type Onboarding = z.infer<typeof Onboarding>;

// New member welcome (the guild's home settings) -----------------------------------------------

const SettingsEmoji = z.object({
  id: Snowflake.nullable().optional(),
  name: z.string().max(100).nullable().optional(),
  animated: z.boolean().nullable().optional(),
});

export const NewMemberWelcomeBody = z.object({
  enabled: z.boolean().nullable().optional(),
  welcome_message: z
    .object({ author_ids: IdList(20).default([]), message: z.string().min(1).max(300) })
    .nullable()
    .optional(),
  new_member_actions: z
    .array(
      z.object({
        channel_id: Snowflake,
        action_type: z.union([z.literal(0), z.literal(1)]),
        title: z.string().min(1).max(60),
        description: z.string().min(1).max(200),
        emoji: SettingsEmoji.nullable().optional(),
      }),
    )
    .max(5)
    .nullable()
    .optional(),
  resource_channels: z
    .array(
      z.object({
        channel_id: Snowflake,
        title: z.string().min(1).max(60),
        description: z.string().max(200).default(''),
        emoji: SettingsEmoji.nullable().optional(),
      }),
    )
    .max(7)
    .nullable()
    .optional(),
});
export type NewMemberWelcomeInput = z.infer<typeof NewMemberWelcomeBody>;

// Incident actions -----------------------------------------------------------------------------

export const IncidentActionsBody = z.object({
  invites_disabled_until: IsoTimestamp.nullable().optional(),
  dms_disabled_until: IsoTimestamp.nullable().optional(),
});

export const IncidentActions = z.object({
  invites_disabled_until: z.number().nullable().default(null),
  dms_disabled_until: z.number().nullable().default(null),
});
export type IncidentActions = z.infer<typeof IncidentActions>;

// Vanity URL -----------------------------------------------------------------------------------

export const VanityBody = z.object({
  code: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'Only lowercase letters, digits and dashes.')
    .min(L.vanityCode.min)
    .max(L.vanityCode.max)
    .nullable(),
});

// Join requests --------------------------------------------------------------------------------

export const JoinRequestParams = z.object({ guild_id: z.string(), request_id: z.string() });

export const JoinRequestsQuery = z.object({
  status: z.enum(JOIN_REQUEST_STATUSES).optional(),
  limit: queryInt(1, L.joinRequestsPage).default(L.joinRequestsPage),
  before: Snowflake.optional(),
  after: Snowflake.optional(),
});

export const JoinRequestActionBody = z.object({
  action: z.enum(['APPROVED', 'REJECTED']),
  rejection_reason: z.string().max(160).nullable().optional(),
});

const FieldLabel = z.string().min(1).max(300);

/** One answer of a join request's form, as the platform's form fields have them. */
const FormResponse = z.discriminatedUnion('field_type', [
  z.object({
    field_type: z.literal('TERMS'),
    label: FieldLabel,
    values: z.array(z.string().min(1).max(300)).min(1).max(16),
    required: z.boolean().default(true),
    response: z.boolean(),
  }),
  z
    .object({
      field_type: z.literal('MULTIPLE_CHOICE'),
      label: FieldLabel,
      choices: z.array(z.string().min(1).max(150)).min(1).max(8),
      required: z.boolean().default(true),
      response: z.number().int().min(0),
    })
    .refine((field) => field.response < field.choices.length, 'Not one of the choices.'),
  z.object({
    field_type: z.literal('TEXT_INPUT'),
    label: FieldLabel,
    required: z.boolean().default(true),
    response: z.string().max(150),
  }),
  z.object({
    field_type: z.literal('PARAGRAPH'),
    label: FieldLabel,
    required: z.boolean().default(true),
    response: z.string().max(1000),
  }),
]);

/** PUT /guilds/{id}/requests/@me: the applicant's answers (the client's route). */
export const JoinRequestSubmitBody = z.object({
  form_responses: z.array(FormResponse).max(5).default([]),
});
export type JoinRequestSubmitInput = z.infer<typeof JoinRequestSubmitBody>;

export const IntegrationParams = z.object({ guild_id: z.string(), integration_id: z.string() });
