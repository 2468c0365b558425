/** Auto-moderation rules, guild templates, guild settings documents, vanity URLs, join requests (0033). */

/** A JSON object as stored (parsed by the owning service's schema). */
export type SettingsJson = Record<string, unknown>;

export interface AutoModRuleRecord {
  id: string;
  guildId: string;
  creatorId: string;
  name: string;
  eventType: number;
  triggerType: number;
  triggerMetadata: SettingsJson;
  actions: SettingsJson[];
  enabled: boolean;
  exemptRoles: string[];
  exemptChannels: string[];
  createdAt: number;
}

export type AutoModRulePatch = Partial<
  Pick<
    AutoModRuleRecord,
    | 'name'
    | 'eventType'
    | 'triggerMetadata'
    | 'actions'
    | 'enabled'
    | 'exemptRoles'
    | 'exemptChannels'
  >
>;

export interface AutoModRuleRepository {
  /** The guild's rules, oldest first. */
  listByGuild(guildId: string): Promise<AutoModRuleRecord[]>;
  find(guildId: string, ruleId: string): Promise<AutoModRuleRecord | null>;
  create(rule: AutoModRuleRecord): Promise<AutoModRuleRecord>;
  update(
    guildId: string,
    ruleId: string,
    patch: AutoModRulePatch,
  ): Promise<AutoModRuleRecord | null>;
  delete(guildId: string, ruleId: string): Promise<boolean>;
}

export interface GuildTemplateRecord {
  code: string;
  guildId: string;
  name: string;
  description: string | null;
  usageCount: number;
  creatorId: string;
  /** The guild's snapshot (the wire's `serialized_source_guild`). */
  source: SettingsJson;
  createdAt: number;
  updatedAt: number;
}

export type GuildTemplatePatch = Partial<
  Pick<GuildTemplateRecord, 'name' | 'description' | 'source' | 'updatedAt'>
>;

export interface GuildTemplateRepository {
  findByCode(code: string): Promise<GuildTemplateRecord | null>;
  listByGuild(guildId: string): Promise<GuildTemplateRecord[]>;
  /** Refused with StorageConflictError when the guild has one already or the code is taken. */
  create(template: GuildTemplateRecord): Promise<GuildTemplateRecord>;
  update(code: string, patch: GuildTemplatePatch): Promise<GuildTemplateRecord | null>;
  delete(code: string): Promise<boolean>;
  /** Counts one guild made from the template. */
  countUse(code: string): Promise<void>;
}

/** The settings documents a guild may have, each a JSON object. */
export type GuildSettingName =
  'widget' | 'welcome_screen' | 'onboarding' | 'incident_actions' | 'new_member_welcome';

export interface GuildVanityRecord {
  guildId: string;
  code: string;
  uses: number;
}

export interface GuildSettingRepository {
  get(guildId: string, name: GuildSettingName): Promise<SettingsJson | null>;
  put(setting: {
    guildId: string;
    name: GuildSettingName;
    value: SettingsJson;
    updatedAt: number;
  }): Promise<void>;
  vanity(guildId: string): Promise<GuildVanityRecord | null>;
  vanityByCode(code: string): Promise<GuildVanityRecord | null>;
  /** Sets (or with `null`, removes) the code; StorageConflictError when another guild has it. */
  setVanity(guildId: string, code: string | null): Promise<void>;
  countVanityUse(guildId: string): Promise<void>;
}

/** The states of a join request, as the wire names them. */
export const JOIN_REQUEST_STATUSES = ['STARTED', 'SUBMITTED', 'REJECTED', 'APPROVED'] as const;
export type JoinRequestStatus = (typeof JOIN_REQUEST_STATUSES)[number];

export interface JoinRequestRecord {
  id: string;
  guildId: string;
  userId: string;
  status: JoinRequestStatus;
  formResponses: SettingsJson[];
  rejectionReason: string | null;
  actionedByUserId: string | null;
  actionedAt: number | null;
  createdAt: number;
}

export interface JoinRequestQuery {
  status?: JoinRequestStatus;
  limit: number;
  before?: string;
  after?: string;
}

export interface JoinRequestRepository {
  create(request: JoinRequestRecord): Promise<JoinRequestRecord>;
  find(guildId: string, requestId: string): Promise<JoinRequestRecord | null>;
  findForUser(guildId: string, userId: string): Promise<JoinRequestRecord | null>;
  /** A page by id (ascending after `after`, else descending before `before`), and the total. */
  list(
    guildId: string,
    query: JoinRequestQuery,
  ): Promise<{ total: number; requests: JoinRequestRecord[] }>;
  update(
    requestId: string,
    patch: Partial<
      Pick<
        JoinRequestRecord,
        'status' | 'formResponses' | 'rejectionReason' | 'actionedByUserId' | 'actionedAt'
      >
    >,
  ): Promise<JoinRequestRecord | null>;
  delete(requestId: string): Promise<boolean>;
}
