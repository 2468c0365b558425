/**
 * @module resources/autoModeration/service: the rules of a guild (MANAGE_GUILD): list, get,
 * create, modify, delete, each change with its AUTO_MODERATION_RULE_* dispatch and audit entry.
 * Enforcing them on messages and member profiles is enforce.ts.
 */
import { AuditLogActions, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type {
  AutoModRuleRecord,
  ChannelRecord,
  Repositories,
  SettingsJson,
} from '../../storage/index.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import { diffChanges, recordAudit, snapshotChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { MAX_CONTENT_LENGTH, MESSAGE_CHANNEL_TYPES } from '../messages/index.js';
import { checkedLength, ruleCostMs } from './cost.js';
import { ruleDispatch } from './dispatch.js';
import { actionsFor, checkEventType, triggerMetadataFor } from './rules.js';
import {
  AutoModActions,
  AutoModTriggers,
  MAX_RULES_PER_TRIGGER,
  type ActionInput,
  type CreateRuleInput,
  type ModifyRuleInput,
} from './schemas.js';
import { serializeRule } from './serialize.js';

/** A request on one rule of a guild, with the audit log reason. */
export interface RuleRequest {
  guildId: string;
  ruleId: string;
  reason: string | null;
}

/** The audit view of a rule: what an entry's changes list (ids and the guild left out). */
function auditView(rule: AutoModRuleRecord): Record<string, unknown> {
  const wire = serializeRule(rule);
  return {
    name: wire.name,
    event_type: wire.event_type,
    trigger_type: wire.trigger_type,
    trigger_metadata: wire.trigger_metadata,
    actions: wire.actions,
    enabled: wire.enabled,
    exempt_roles: wire.exempt_roles,
    exempt_channels: wire.exempt_channels,
  };
}

/**
 * Refuses a rule whose check, with the guild's other rules of its event (checked together, in
 * one budget), may take longer than `budgetMs` at worst (cost.ts).
 */
function checkCost(
  others: readonly AutoModRuleRecord[],
  rule: { id?: string; eventType: number; triggerType: number; triggerMetadata: SettingsJson },
  budgetMs: number,
): void {
  const own = ruleCostMs(rule, MAX_CONTENT_LENGTH);
  const rest = others
    .filter((other) => other.id !== rule.id && other.eventType === rule.eventType)
    .reduce((sum, other) => sum + ruleCostMs(other, MAX_CONTENT_LENGTH), 0);
  if (own === 0 || own + rest <= budgetMs) return;
  const length = checkedLength(rule.triggerType, MAX_CONTENT_LENGTH);
  const text =
    rule.triggerType === AutoModTriggers.MEMBER_PROFILE
      ? `a member's names (${String(length)} characters)`
      : `a ${String(length)}-character message`;
  throw invalidField(
    ['trigger_metadata'],
    'AUTO_MODERATION_RULE_TOO_EXPENSIVE',
    `Compiling and checking these keywords and patterns may take up to ${own.toFixed(1)} ms on ${text}` +
      (rest > 0 ? `, and the guild's other rules ${rest.toFixed(1)} ms` : '') +
      `: more than the ${String(budgetMs)} ms all of them may take on this server. ` +
      'Use fewer or simpler regex patterns.',
  );
}

export function createAutoModerationService(
  deps: ServiceDeps & {
    /** The CPU time the rules of one message may take together (they are judged against it). */
    budgetMs: number;
  },
) {
  const { storage, clock, ids, budgetMs, revocations } = deps;
  /** Every node's copy of the guild's rules is dropped once the change commits (ruleCache.ts). */
  const rulesChanged = (tx: Repositories, guildId: string) => {
    revocations.revoke(tx, { autoModGuildIds: [guildId] });
  };
  const accessFor = accessLoader(clock);

  const findRule = async (repos: Repositories, guildId: string, ruleId: string) => {
    const rule = isSnowflake(ruleId) ? await repos.autoModRules.find(guildId, ruleId) : null;
    if (rule === null) throw new ApiError('AUTO_MODERATION_RULE_NOT_FOUND');
    return rule;
  };

  /** Exempt roles and channels must be the guild's; alert channels its text channels. */
  const guildLists = async (tx: Repositories, access: GuildAccess) => {
    const channels = await tx.channels.listByGuild(access.guild.id);
    const byId = new Map<string, ChannelRecord>(channels.map((c) => [c.id, c]));
    const roleIds = new Set(access.roles.map((r) => r.id));
    const alertChannelOk = (id: string) => {
      const channel = byId.get(id);
      return channel !== undefined && MESSAGE_CHANNEL_TYPES.has(channel.type);
    };
    const checkIds = (field: string, list: readonly string[], known: (id: string) => boolean) => {
      list.forEach((id, index) => {
        if (!known(id)) {
          throw invalidField([field, index], 'BASE_TYPE_INVALID', `Unknown ${field.slice(7, -1)}.`);
        }
      });
      return [...list];
    };
    return {
      alertChannelOk,
      exemptRoles: (list: readonly string[]) =>
        checkIds('exempt_roles', list, (id) => roleIds.has(id)),
      exemptChannels: (list: readonly string[]) =>
        checkIds('exempt_channels', list, (id) => byId.has(id)),
    };
  };

  /** A timeout action needs MODERATE_MEMBERS of whoever sets it up. */
  const checkActionRights = (access: GuildAccess, actions: readonly ActionInput[]) => {
    if (actions.some((a) => a.type === AutoModActions.TIMEOUT)) access.require(P.MODERATE_MEMBERS);
  };

  return {
    async list(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      access.require(P.MANAGE_GUILD);
      return (await storage.autoModRules.listByGuild(access.guild.id)).map(serializeRule);
    },

    async get(principal: Principal, guildId: string, ruleId: string) {
      const access = await accessFor(storage, principal, guildId);
      access.require(P.MANAGE_GUILD);
      return serializeRule(await findRule(storage, access.guild.id, ruleId));
    },

    async create(
      principal: Principal,
      request: { guildId: string; reason: string | null },
      input: CreateRuleInput,
    ) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.MANAGE_GUILD);
        checkActionRights(access, input.actions);
        checkEventType(input.trigger_type, input.event_type);
        const existing = await tx.autoModRules.listByGuild(access.guild.id);
        const sameType = existing.filter((r) => r.triggerType === input.trigger_type).length;
        if (sameType >= (MAX_RULES_PER_TRIGGER[input.trigger_type] ?? 0)) {
          throw invalidField(
            ['trigger_type'],
            'AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED',
            'Maximum number of rules of this trigger type reached.',
          );
        }
        const lists = await guildLists(tx, access);
        const triggerMetadata = triggerMetadataFor(input.trigger_type, input.trigger_metadata);
        checkCost(
          existing,
          { eventType: input.event_type, triggerType: input.trigger_type, triggerMetadata },
          budgetMs,
        );
        const rule = await tx.autoModRules.create({
          id: ids(),
          guildId: access.guild.id,
          creatorId: principal.user.id,
          name: input.name,
          eventType: input.event_type,
          triggerType: input.trigger_type,
          triggerMetadata,
          actions: actionsFor(input.trigger_type, input.actions, lists.alertChannelOk),
          enabled: input.enabled ?? false,
          exemptRoles: lists.exemptRoles(input.exempt_roles ?? []),
          exemptChannels: lists.exemptChannels(input.exempt_channels ?? []),
          createdAt: clock.now(),
        });
        const wire = serializeRule(rule);
        afterCommit(tx, ruleDispatch('AUTO_MODERATION_RULE_CREATE', wire));
        rulesChanged(tx, access.guild.id);
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: rule.id,
          actionType: AuditLogActions.AUTO_MODERATION_RULE_CREATE,
          changes: snapshotChanges(auditView(rule)),
          reason: request.reason,
        });
        return wire;
      });
    },

    async modify(principal: Principal, request: RuleRequest, input: ModifyRuleInput) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.MANAGE_GUILD);
        const rule = await findRule(tx, access.guild.id, request.ruleId);
        if (input.trigger_type !== undefined && input.trigger_type !== rule.triggerType) {
          throw invalidField(
            ['trigger_type'],
            'AUTO_MODERATION_TRIGGER_TYPE_IMMUTABLE',
            'The trigger type of a rule cannot change.',
          );
        }
        if (input.actions !== undefined) checkActionRights(access, input.actions);
        if (input.event_type !== undefined) checkEventType(rule.triggerType, input.event_type);
        const lists = await guildLists(tx, access);
        const triggerMetadata =
          input.trigger_metadata === undefined
            ? undefined
            : triggerMetadataFor(rule.triggerType, input.trigger_metadata);
        if (triggerMetadata !== undefined) {
          checkCost(
            await tx.autoModRules.listByGuild(access.guild.id),
            { ...rule, triggerMetadata },
            budgetMs,
          );
        }
        const updated = await tx.autoModRules.update(access.guild.id, rule.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.event_type === undefined ? {} : { eventType: input.event_type }),
          ...(triggerMetadata === undefined ? {} : { triggerMetadata }),
          ...(input.actions === undefined
            ? {}
            : { actions: actionsFor(rule.triggerType, input.actions, lists.alertChannelOk) }),
          ...(input.enabled == null ? {} : { enabled: input.enabled }),
          ...(input.exempt_roles === undefined
            ? {}
            : { exemptRoles: lists.exemptRoles(input.exempt_roles ?? []) }),
          ...(input.exempt_channels === undefined
            ? {}
            : { exemptChannels: lists.exemptChannels(input.exempt_channels ?? []) }),
        });
        if (updated === null) throw new ApiError('AUTO_MODERATION_RULE_NOT_FOUND');
        const wire = serializeRule(updated);
        const changes = diffChanges(auditView(rule), auditView(updated));
        if (changes.length > 0) {
          afterCommit(tx, ruleDispatch('AUTO_MODERATION_RULE_UPDATE', wire));
          rulesChanged(tx, access.guild.id);
          await recordAudit(tx, ids, {
            guildId: access.guild.id,
            userId: principal.user.id,
            targetId: rule.id,
            actionType: AuditLogActions.AUTO_MODERATION_RULE_UPDATE,
            changes,
            reason: request.reason,
          });
        }
        return wire;
      });
    },

    async delete(principal: Principal, request: RuleRequest) {
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.MANAGE_GUILD);
        const rule = await findRule(tx, access.guild.id, request.ruleId);
        await tx.autoModRules.delete(access.guild.id, rule.id);
        afterCommit(tx, ruleDispatch('AUTO_MODERATION_RULE_DELETE', serializeRule(rule)));
        rulesChanged(tx, access.guild.id);
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: rule.id,
          actionType: AuditLogActions.AUTO_MODERATION_RULE_DELETE,
          changes: snapshotChanges(auditView(rule), 'old'),
          reason: request.reason,
        });
      });
    },
  };
}

export type AutoModerationService = ReturnType<typeof createAutoModerationService>;
