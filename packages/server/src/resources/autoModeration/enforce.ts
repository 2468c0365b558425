/**
 * @module resources/autoModeration/enforce: the rules applied. A message about to be written in
 * a guild channel (the message service asks, `checkMessage`) is matched against the guild's
 * enabled MESSAGE_SEND rules; a member whose nickname or names changed (`checkMember`) against
 * its MEMBER_PROFILE rule. Each action of a matching rule runs (an alert message, a timeout, a
 * quarantine; actions.ts), with its AUTO_MODERATION_ACTION_EXECUTION and audit entry, in one
 * transaction that commits before the message is refused (200000) when a rule blocks it.
 *
 * The keyword, preset and regex matching of one message (or of one member's names) shares one
 * CPU budget (`budgetMs`). A rule whose check it could not finish fails closed: it is taken to
 * match, so it blocks if it has BLOCK_MESSAGE (or quarantines, for a profile rule) and its alert
 * says the check timed out; its TIMEOUT action does not run (nothing says the member did wrong).
 *
 * Never checked: the owner and members with ADMINISTRATOR or MANAGE_GUILD (as on the platform),
 * members holding an exempt role, channels exempt by id or by their category.
 */
import { PermissionFlags as P } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type {
  AutoModRuleRecord,
  ChannelRecord,
  MemberRecord,
  Repositories,
} from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { serializeMember, memberDispatches } from '../members/index.js';
import type { AttachmentLinks } from '../messages/index.js';
import { startBudget, type BudgetClocks } from './budget.js';
import type { AutoModRuleCache } from './ruleCache.js';
import { scanText } from './keywords.js';
import { createRuleMatchers } from './matchers.js';
import { createRuleMatching } from './ruleMatch.js';
import { AutoModActions as A, AutoModEvents } from './schemas.js';
import { createRuleActions, QUARANTINED_FLAG } from './actions.js';

export { QUARANTINED_FLAG } from './actions.js';

/** A message about to be written, as the check sees it. */
export interface MessageCheck {
  guildId: string;
  channel: ChannelRecord;
  member: MemberRecord;
  /** The caller's guild-level permissions (exemption). */
  permissions: bigint;
  content: string;
  /** The message's id once written (absent from the execution when blocked). */
  messageId: string;
  /** An edit of a written message: the SPAM trigger does not count it. */
  edit?: boolean;
}

export function createAutoModerationEnforcer(
  deps: ServiceDeps & {
    links: () => AttachmentLinks;
    budget: BudgetClocks;
    /** The guilds' rules as this node holds them (a message create reads no storage for them). */
    rules: Pick<AutoModRuleCache, 'listByGuild'>;
  },
) {
  const { storage, clock, ids } = deps;
  const { execute } = createRuleActions(deps);
  const matching = createRuleMatching({ clock });
  /** The rules' lists and patterns, kept compiled; compiling is counted in a check's budget. */
  const matchers = createRuleMatchers();

  const exempt = (
    rule: AutoModRuleRecord,
    member: MemberRecord,
    channel: ChannelRecord | null,
  ): boolean =>
    member.roleIds.some((id) => rule.exemptRoles.includes(id)) ||
    (channel !== null &&
      (rule.exemptChannels.includes(channel.id) ||
        (channel.parentId !== null && rule.exemptChannels.includes(channel.parentId))));

  /** The owner and ADMINISTRATOR or MANAGE_GUILD holders are never checked. */
  const above = (permissions: bigint) => (permissions & (P.ADMINISTRATOR | P.MANAGE_GUILD)) !== 0n;

  return {
    /**
     * Checks a message about to be written. Throws 200000 when a rule blocks it (its actions
     * and events committed first), or when the member is quarantined by a profile rule.
     */
    async checkMessage(check: MessageCheck): Promise<void> {
      if (above(check.permissions)) return;
      if ((check.member.flags & QUARANTINED_FLAG) !== 0) {
        throw new ApiError('AUTOMOD_MESSAGE_BLOCKED');
      }
      const all = await deps.rules.listByGuild(check.guildId);
      matchers.retain(
        check.guildId,
        all.map((rule) => rule.id),
      );
      const rules = all.filter(
        (rule) =>
          rule.enabled &&
          rule.eventType === AutoModEvents.MESSAGE_SEND &&
          !exempt(rule, check.member, check.channel),
      );
      if (rules.length === 0 || check.content.trim() === '') return;
      matching.warmUp();
      const budget = startBudget(deps.budget);
      const spend = () => {
        budget.check();
      };
      const message = { ...check, userId: check.member.userId, text: scanText(check.content) };
      const matched = rules.flatMap((rule) => {
        const prepared = { rule, matcher: () => matchers.of(rule, spend) };
        const match = matching.message(prepared, message, budget);
        return match === null ? [] : [{ rule, match }];
      });
      if (matched.length === 0) return;
      const blocked = matched.some(({ rule }) =>
        rule.actions.some((a) => Number(a['type']) === A.BLOCK_MESSAGE),
      );
      await storage.transaction(async (tx) => {
        const user = await tx.users.findById(check.member.userId);
        if (user === null) return;
        let member = check.member;
        for (const { rule, match } of matched) {
          member = await execute(tx, {
            rule,
            match,
            user,
            member,
            content: check.content,
            channelId: check.channel.id,
            // A blocked create has no message; a blocked edit leaves the message as it was.
            ...(blocked && check.edit !== true ? {} : { messageId: check.messageId }),
            decisionId: ids(),
          });
        }
      });
      if (blocked) throw new ApiError('AUTOMOD_MESSAGE_BLOCKED');
    },

    /**
     * Checks a member's names (nickname, display name, username) against the guild's profile
     * rule inside the caller's transaction: a match runs its actions (quarantine, alert); names
     * that no longer match lift the quarantine.
     */
    async checkMember(tx: Repositories, request: { guildId: string; userId: string }) {
      const all = await tx.autoModRules.listByGuild(request.guildId);
      matchers.retain(
        request.guildId,
        all.map((r) => r.id),
      );
      const rule = all.find((r) => r.enabled && r.eventType === AutoModEvents.MEMBER_UPDATE);
      if (rule === undefined) return;
      const [member, user, guild, roles] = await Promise.all([
        tx.members.find(request.guildId, request.userId),
        tx.users.findById(request.userId),
        tx.guilds.findById(request.guildId),
        tx.roles.listByGuild(request.guildId),
      ]);
      if (member === null || user === null || guild === null) return;
      const permissions = roles
        .filter((r) => r.id === guild.id || member.roleIds.includes(r.id))
        .reduce((bits, r) => bits | r.permissions, 0n);
      if (guild.ownerId === user.id || above(permissions) || exempt(rule, member, null)) return;
      const names = [member.nick, user.globalName, user.username].filter(
        (n): n is string => n !== null && n !== '',
      );
      matching.warmUp();
      const budget = startBudget(deps.budget);
      const matcher = () =>
        matchers.of(rule, () => {
          budget.check();
        });
      const match = matching.profile(matcher, names, budget);
      if (match === null) {
        if ((member.flags & QUARANTINED_FLAG) !== 0) {
          const lifted = await tx.members.update(member.guildId, member.userId, {
            flags: member.flags & ~QUARANTINED_FLAG,
          });
          if (lifted !== null) {
            afterCommit(
              tx,
              memberDispatches.memberUpdate(lifted.guildId, serializeMember(lifted, user)),
            );
          }
        }
        return;
      }
      if ((member.flags & QUARANTINED_FLAG) !== 0) return;
      await execute(tx, { rule, match, user, member, content: names.join(' '), decisionId: ids() });
    },
  };
}

export type AutoModerationEnforcer = ReturnType<typeof createAutoModerationEnforcer>;
