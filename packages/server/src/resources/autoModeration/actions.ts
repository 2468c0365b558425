/**
 * @module resources/autoModeration/actions: what a matched rule does. Each of its actions runs
 * inside the check's transaction (an alert message in the rule's channel, a timeout, a
 * quarantine), each with its AUTO_MODERATION_ACTION_EXECUTION and audit entry.
 */
import { AuditLogActions, MessageTypes, type AuditLogAction } from '@guildhall/protocol';
import { SECOND_MS } from '../../domain/time.js';
import { afterCommit } from '../../events/afterCommit.js';
import type {
  AutoModRuleRecord,
  MemberRecord,
  Repositories,
  SettingsJson,
  UserRecord,
} from '../../storage/index.js';
import { recordAudit } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { serializeMember, memberDispatches } from '../members/index.js';
import { loadMessageContext, serializeMessage, type AttachmentLinks } from '../messages/index.js';
import { executionDispatch } from './dispatch.js';
import type { Match } from './ruleMatch.js';
import { AutoModActions as A } from './schemas.js';

/** Member flag AUTOMOD_QUARANTINED_USERNAME: a profile rule blocks the member's interactions. */
export const QUARANTINED_FLAG = 1 << 7;

/** One rule's match, and what its actions apply to. */
export interface Execution {
  rule: AutoModRuleRecord;
  match: Match;
  user: UserRecord;
  member: MemberRecord;
  content: string;
  channelId?: string;
  /** The message's id when it is written (not blocked). */
  messageId?: string;
  decisionId: string;
}

const AUDIT: Record<number, AuditLogAction> = {
  [A.BLOCK_MESSAGE]: AuditLogActions.AUTO_MODERATION_BLOCK_MESSAGE,
  [A.SEND_ALERT_MESSAGE]: AuditLogActions.AUTO_MODERATION_FLAG_TO_CHANNEL,
  [A.TIMEOUT]: AuditLogActions.AUTO_MODERATION_USER_COMMUNICATION_DISABLED,
  [A.BLOCK_MEMBER_INTERACTION]: AuditLogActions.AUTO_MODERATION_QUARANTINE_USER,
};

/** The actions of matched rules, with the clock, ids and attachment links they need. */
export function createRuleActions(
  deps: Pick<ServiceDeps, 'clock' | 'ids'> & { links: () => AttachmentLinks },
) {
  const { clock, ids } = deps;

  /** Posts the alert (a type 24 system message by the member) in the rule's channel. */
  const postAlert = async (
    tx: Repositories,
    run: Execution,
    channelId: string,
  ): Promise<string | null> => {
    const channel = await tx.channels.findById(channelId);
    if (channel?.guildId !== run.rule.guildId) return null;
    const id = ids();
    const fields = [
      { name: 'rule_name', value: run.rule.name, inline: false },
      { name: 'decision_id', value: run.decisionId, inline: false },
      ...(run.channelId === undefined
        ? []
        : [{ name: 'channel_id', value: run.channelId, inline: false }]),
      ...(run.match.keyword === null
        ? []
        : [{ name: 'keyword', value: run.match.keyword, inline: false }]),
      ...(run.match.content === null
        ? []
        : [{ name: 'keyword_matched_content', value: run.match.content, inline: false }]),
      ...(run.match.timedOut === true
        ? [{ name: 'check_timed_out', value: 'true', inline: false }]
        : []),
    ];
    const record = {
      id,
      channelId: channel.id,
      guildId: channel.guildId,
      authorId: run.user.id,
      type: MessageTypes.AUTO_MODERATION_ACTION,
      content: '',
      embeds: [{ type: 'auto_moderation_message', description: run.content, fields }],
      flags: 0,
      tts: false,
      mentionEveryone: false,
      mentionUserIds: [],
      mentionRoleIds: [],
      reference: null,
      snapshots: null,
      nonce: null,
      applicationId: null,
      webhookId: null,
      createdAt: clock.now(),
      attachments: [],
    };
    await tx.messages.create(record);
    const full = { ...record, pinnedAt: null, editedAt: null };
    const context = await loadMessageContext(tx, [full], {
      links: deps.links(),
      viewerId: run.user.id,
      reader: null,
      knownUsers: [run.user],
      reactions: false,
    });
    afterCommit(tx, {
      type: 'MESSAGE_CREATE',
      guildId: channel.guildId,
      channelId: channel.id,
      data: { ...serializeMessage(full, context), guild_id: channel.guildId },
    });
    return id;
  };

  /** Runs every action of a matched rule, inside `tx`; returns the member as it ends up. */
  const execute = async (tx: Repositories, run: Execution): Promise<MemberRecord> => {
    let member = run.member;
    for (const action of run.rule.actions) {
      const type = Number(action['type']);
      // A check that timed out is no evidence against the member: no timeout for it.
      if (type === A.TIMEOUT && run.match.timedOut === true) continue;
      const metadata = (action['metadata'] ?? {}) as SettingsJson;
      let alertId: string | null = null;
      if (type === A.SEND_ALERT_MESSAGE) {
        alertId = await postAlert(tx, run, String(metadata['channel_id']));
      } else if (type === A.TIMEOUT) {
        const until = clock.now() + Number(metadata['duration_seconds'] ?? 0) * SECOND_MS;
        member =
          (await tx.members.update(member.guildId, member.userId, {
            communicationDisabledUntil: until,
          })) ?? member;
        afterCommit(
          tx,
          memberDispatches.memberUpdate(member.guildId, serializeMember(member, run.user)),
        );
      } else if (type === A.BLOCK_MEMBER_INTERACTION && (member.flags & QUARANTINED_FLAG) === 0) {
        member =
          (await tx.members.update(member.guildId, member.userId, {
            flags: member.flags | QUARANTINED_FLAG,
          })) ?? member;
        afterCommit(
          tx,
          memberDispatches.memberUpdate(member.guildId, serializeMember(member, run.user)),
        );
      }
      afterCommit(
        tx,
        executionDispatch({
          guild_id: run.rule.guildId,
          action,
          rule_id: run.rule.id,
          rule_trigger_type: run.rule.triggerType,
          user_id: run.user.id,
          ...(run.channelId === undefined ? {} : { channel_id: run.channelId }),
          ...(run.messageId === undefined ? {} : { message_id: run.messageId }),
          ...(alertId === null ? {} : { alert_system_message_id: alertId }),
          content: run.content,
          matched_keyword: run.match.keyword,
          matched_content: run.match.content,
        }),
      );
      const auditType = AUDIT[type];
      if (auditType !== undefined) {
        await recordAudit(tx, ids, {
          guildId: run.rule.guildId,
          userId: run.user.id,
          targetId: run.user.id,
          actionType: auditType,
          options: {
            auto_moderation_rule_name: run.rule.name,
            auto_moderation_rule_trigger_type: String(run.rule.triggerType),
            ...(run.channelId === undefined ? {} : { channel_id: run.channelId }),
          },
          reason: null,
        });
      }
    }
    return member;
  };

  return { execute };
}
