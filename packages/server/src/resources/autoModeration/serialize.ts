/** @module resources/autoModeration/serialize: a rule and an action execution on the wire. */
import type { AutoModRuleRecord, SettingsJson } from '../../storage/index.js';

export function serializeRule(rule: AutoModRuleRecord) {
  return {
    id: rule.id,
    guild_id: rule.guildId,
    name: rule.name,
    creator_id: rule.creatorId,
    event_type: rule.eventType,
    trigger_type: rule.triggerType,
    trigger_metadata: rule.triggerMetadata,
    actions: rule.actions,
    enabled: rule.enabled,
    exempt_roles: rule.exemptRoles,
    exempt_channels: rule.exemptChannels,
  };
}

export type RuleWire = ReturnType<typeof serializeRule>;

/** AUTO_MODERATION_ACTION_EXECUTION's payload (discord-api-types' dispatch data). */
export interface ActionExecutionWire {
  guild_id: string;
  action: SettingsJson;
  rule_id: string;
  rule_trigger_type: number;
  user_id: string;
  channel_id?: string;
  message_id?: string;
  alert_system_message_id?: string;
  content: string;
  matched_keyword: string | null;
  matched_content: string | null;
}
