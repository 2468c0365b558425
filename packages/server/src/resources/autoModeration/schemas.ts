/** @module resources/autoModeration/schemas: rule bodies and the platform's limits on them. */
import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';

export const AutoModTriggers = {
  KEYWORD: 1,
  SPAM: 3,
  KEYWORD_PRESET: 4,
  MENTION_SPAM: 5,
  MEMBER_PROFILE: 6,
} as const;

export const AutoModEvents = { MESSAGE_SEND: 1, MEMBER_UPDATE: 2 } as const;

export const AutoModActions = {
  BLOCK_MESSAGE: 1,
  SEND_ALERT_MESSAGE: 2,
  TIMEOUT: 3,
  BLOCK_MEMBER_INTERACTION: 4,
} as const;

/** The platform's limits on a rule. */
export const AUTOMOD_LIMITS = {
  name: 100,
  keywords: 1000,
  keywordLength: 60,
  regexPatterns: 10,
  regexLength: 260,
  /** Allow-list entries of a KEYWORD or MEMBER_PROFILE rule; a KEYWORD_PRESET rule has 1000. */
  allowList: 100,
  presetAllowList: 1000,
  mentionTotalLimit: 50,
  customMessage: 150,
  /** The longest timeout: 4 weeks. */
  timeoutSeconds: 2_419_200,
  actions: 5,
  exemptRoles: 20,
  exemptChannels: 50,
} as const;

/** Rules of each trigger type a guild may have. */
export const MAX_RULES_PER_TRIGGER: Readonly<Record<number, number>> = {
  [AutoModTriggers.KEYWORD]: 6,
  [AutoModTriggers.SPAM]: 1,
  [AutoModTriggers.KEYWORD_PRESET]: 1,
  [AutoModTriggers.MENTION_SPAM]: 1,
  [AutoModTriggers.MEMBER_PROFILE]: 1,
};

const L = AUTOMOD_LIMITS;
const Keyword = z.string().min(1).max(L.keywordLength);
const unique = (items: readonly unknown[]) => new Set(items).size === items.length;

/** Every trigger metadata field; which apply is checked against the trigger type (rules.ts). */
export const TriggerMetadataBody = z.object({
  keyword_filter: z.array(Keyword).max(L.keywords).nullable().optional(),
  regex_patterns: z
    .array(z.string().min(1).max(L.regexLength))
    .max(L.regexPatterns)
    .nullable()
    .optional(),
  presets: z
    .array(z.number().int().min(1).max(3))
    .refine(unique, 'Presets must be unique.')
    .nullable()
    .optional(),
  allow_list: z.array(Keyword).max(L.presetAllowList).nullable().optional(),
  mention_total_limit: z.number().int().min(0).max(L.mentionTotalLimit).nullable().optional(),
  mention_raid_protection_enabled: z.boolean().nullable().optional(),
});
export type TriggerMetadataInput = z.infer<typeof TriggerMetadataBody>;

export const ActionBody = z.object({
  type: z.number().int().min(1).max(4),
  metadata: z
    .object({
      custom_message: z.string().max(L.customMessage).nullable().optional(),
      channel_id: Snowflake.nullable().optional(),
      duration_seconds: z.number().int().min(0).max(L.timeoutSeconds).nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type ActionInput = z.infer<typeof ActionBody>;

const IdList = (max: number) =>
  z.array(Snowflake).max(max).refine(unique, 'Ids must be unique.').nullable().optional();

const RuleFields = {
  name: z.string().trim().min(1).max(L.name),
  event_type: z.number().int().min(1).max(2),
  trigger_metadata: TriggerMetadataBody.nullable().optional(),
  actions: z.array(ActionBody).min(1).max(L.actions),
  enabled: z.boolean().nullable().optional(),
  exempt_roles: IdList(L.exemptRoles),
  exempt_channels: IdList(L.exemptChannels),
};

/** POST /guilds/{id}/auto-moderation/rules. */
export const CreateRuleBody = z.object({
  ...RuleFields,
  trigger_type: z
    .number()
    .int()
    .refine((t) => t in MAX_RULES_PER_TRIGGER, 'Invalid trigger type.'),
});
export type CreateRuleInput = z.infer<typeof CreateRuleBody>;

/** PATCH …/rules/{id}: the trigger type never changes (a different one is refused). */
export const ModifyRuleBody = z.object({
  name: RuleFields.name.optional(),
  event_type: RuleFields.event_type.optional(),
  trigger_metadata: RuleFields.trigger_metadata,
  actions: RuleFields.actions.optional(),
  enabled: RuleFields.enabled,
  exempt_roles: RuleFields.exempt_roles,
  exempt_channels: RuleFields.exempt_channels,
  trigger_type: z.number().int().optional(),
});
export type ModifyRuleInput = z.infer<typeof ModifyRuleBody>;

export const RuleParams = z.object({ guild_id: z.string(), rule_id: z.string() });
