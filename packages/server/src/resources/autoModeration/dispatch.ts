/**
 * @module resources/autoModeration/dispatch: AUTO_MODERATION_RULE_CREATE/UPDATE/DELETE (the rule)
 * and AUTO_MODERATION_ACTION_EXECUTION. The gateway sends them to sessions with the intent
 * (AUTO_MODERATION_CONFIGURATION, AUTO_MODERATION_EXECUTION) whose user has MANAGE_GUILD, and
 * an execution's `content` and `matched_content` only with MESSAGE_CONTENT (gateway/routing.ts).
 */
import type {
  GatewayAutoModerationActionExecutionDispatchData,
  GatewayAutoModerationRuleCreateDispatchData,
} from 'discord-api-types/v10';
import type { Dispatch } from '../../events/dispatcher.js';
import type { WireShape } from '../wireShape.js';
import type { ActionExecutionWire, RuleWire } from './serialize.js';

type RuleEvent =
  'AUTO_MODERATION_RULE_CREATE' | 'AUTO_MODERATION_RULE_UPDATE' | 'AUTO_MODERATION_RULE_DELETE';

/** The rule fields discord-api-types types by trigger and action (stored as the wire has them). */
type RuleShape = Omit<
  WireShape<GatewayAutoModerationRuleCreateDispatchData>,
  'trigger_metadata' | 'actions'
>;

export const ruleDispatch = (type: RuleEvent, rule: RuleWire): Dispatch => ({
  type,
  guildId: rule.guild_id,
  data: rule satisfies RuleShape,
});

type ExecutionShape = Omit<WireShape<GatewayAutoModerationActionExecutionDispatchData>, 'action'>;

export const executionDispatch = (execution: ActionExecutionWire): Dispatch => ({
  type: 'AUTO_MODERATION_ACTION_EXECUTION',
  guildId: execution.guild_id,
  data: execution satisfies ExecutionShape,
});

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    AUTO_MODERATION_RULE_CREATE: RuleWire;
    AUTO_MODERATION_RULE_UPDATE: RuleWire;
    AUTO_MODERATION_RULE_DELETE: RuleWire;
    AUTO_MODERATION_ACTION_EXECUTION: ActionExecutionWire;
  }
}
