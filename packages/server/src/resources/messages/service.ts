import { AuditLogActions, PermissionFlags as P, snowflakeTimestampMs } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit, afterWrite } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import { recordAudit } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { attachmentKey } from './attachments.js';
import { createMessagePosting } from './create.js';
import { createAppMessages } from './appMessages.js';
import { createMessageEditing } from './edit.js';
import { type ListMessagesInput } from './schemas.js';
import { createMessageHelpers, type MessageServiceOptions } from './shared.js';
import { DAY_MS, unixSeconds } from '../../domain/time.js';

/** Bulk delete refuses messages older than this. */
export const BULK_DELETE_MAX_AGE_MS = 14 * DAY_MS;

/**
 * Messages in guild channels: create (mentions, replies, forwards, attachments, nonce, slowmode),
 * read, edit, delete, bulk delete and typing. Every read by an app goes through the
 * MESSAGE_CONTENT rule; every change is announced after it commits.
 */
export function createMessageService(deps: ServiceDeps, options: MessageServiceOptions) {
  const { storage, ids, blobs } = deps;
  const helpers = createMessageHelpers(deps, options);
  const { accessFor, findMessage, view } = helpers;

  return {
    // uploadGate and create (POST /channels/{id}/messages).
    ...createMessagePosting(deps, options, helpers),
    // postAs, getAs, editAs, deleteAs: webhook and interaction messages.
    ...createAppMessages(deps, options, helpers),

    /** GET /channels/{id}/messages/{message_id}: needs READ_MESSAGE_HISTORY. */
    async get(principal: Principal, channelId: string, messageId: string) {
      const access = await accessFor(storage, principal, channelId);
      access.require(P.READ_MESSAGE_HISTORY);
      const message = await findMessage(storage, access.channel.id, messageId);
      const [wire] = await view(storage, principal, [message]);
      if (wire === undefined) throw new ApiError('UNKNOWN_MESSAGE');
      return wire;
    },

    /** GET /channels/{id}/messages: empty without READ_MESSAGE_HISTORY, as on the platform. */
    async list(principal: Principal, channelId: string, query: ListMessagesInput) {
      const access = await accessFor(storage, principal, channelId);
      access.require(0n);
      if (!access.has(P.READ_MESSAGE_HISTORY)) return [];
      const given = [query.around, query.before, query.after].filter((v) => v !== undefined);
      if (given.length > 1) {
        throw invalidField(
          ['around'],
          'BASE_TYPE_INVALID',
          'Only one of around, before and after may be given.',
        );
      }
      const messages = await storage.messages.list(access.channel.id, {
        limit: query.limit,
        ...(query.around === undefined ? {} : { around: query.around }),
        ...(query.before === undefined ? {} : { before: query.before }),
        ...(query.after === undefined ? {} : { after: query.after }),
      });
      return view(storage, principal, messages);
    },

    // edit (PATCH /channels/{id}/messages/{message_id}).
    ...createMessageEditing(deps, options, helpers),

    /** DELETE /channels/{id}/messages/{message_id}: the author, or MANAGE_MESSAGES. */
    async delete(
      principal: Principal,
      request: { channelId: string; messageId: string; reason: string | null },
    ) {
      const access = await accessFor(storage, principal, request.channelId);
      access.require(0n);
      const message = await findMessage(storage, access.channel.id, request.messageId);
      const own = message.authorId === principal.user.id;
      if (!own) access.require(P.MANAGE_MESSAGES);
      await storage.groupTransaction(async (tx) => {
        await tx.messages.delete(access.channel.id, [message.id]);
        freeBlobsAfterCommit(
          tx,
          blobs,
          message.attachments.map((attachment) => attachmentKey(attachment.id)),
        );
        if (access.privateChannel !== null) {
          await options.privateRules?.deleted(tx, { access, message });
        }
        // Never in a private channel: nobody there may delete another's message.
        if (!own && access.guildId !== null) {
          await recordAudit(tx, ids, {
            guildId: access.guildId,
            userId: principal.user.id,
            targetId: message.authorId,
            actionType: AuditLogActions.MESSAGE_DELETE,
            reason: request.reason,
            options: { channel_id: access.channel.id, count: '1' },
          });
        }
        afterCommit(tx, {
          type: 'MESSAGE_DELETE',
          ...access.dispatchTo,
          data: { id: message.id, channel_id: access.channel.id, ...access.guildWire },
        });
      });
    },

    /** POST /channels/{id}/messages/bulk-delete: 2–100 unique ids, none older than 14 days. */
    async bulkDelete(
      principal: Principal,
      request: { channelId: string; messageIds: readonly string[]; reason: string | null },
    ) {
      const access = await accessFor(storage, principal, request.channelId);
      access.require(P.MANAGE_MESSAGES);
      if (new Set(request.messageIds).size !== request.messageIds.length) {
        throw invalidField(['messages'], 'BASE_TYPE_INVALID', 'Duplicate message ids.');
      }
      const oldest = access.nowMs - BULK_DELETE_MAX_AGE_MS;
      if (request.messageIds.some((id) => snowflakeTimestampMs(id) < oldest)) {
        throw new ApiError('MESSAGES_TOO_OLD_TO_BULK_DELETE');
      }
      await storage.transaction(async (tx) => {
        // An ephemeral message is its user's alone: left out, its id never announced.
        const messageIds = (await tx.messages.findByIds(request.messageIds))
          .filter((message) => message.channelId === access.channel.id)
          .map((message) => message.id);
        const attachmentIds = await tx.blobRefs.attachmentIds({
          channelId: access.channel.id,
          messageIds,
        });
        const removed = await tx.messages.delete(access.channel.id, messageIds);
        freeBlobsAfterCommit(tx, blobs, attachmentIds.map(attachmentKey));
        // Bulk delete needs MANAGE_MESSAGES, which a private channel never grants.
        if (removed.length > 0 && access.guildId !== null) {
          await recordAudit(tx, ids, {
            guildId: access.guildId,
            userId: principal.user.id,
            targetId: access.channel.id,
            actionType: AuditLogActions.MESSAGE_BULK_DELETE,
            reason: request.reason,
            options: { count: String(removed.length) },
          });
          afterCommit(tx, {
            type: 'MESSAGE_DELETE_BULK',
            ...access.dispatchTo,
            data: { ids: removed, channel_id: access.channel.id, ...access.guildWire },
          });
        }
      });
    },

    /** POST /channels/{id}/typing: VIEW_CHANNEL and SEND_MESSAGES; announces TYPING_START. */
    async typing(principal: Principal, channelId: string) {
      const access = await accessFor(storage, principal, channelId);
      access.require(P.SEND_MESSAGES);
      const sendTo = await access.sendTarget(storage);
      // Nothing is written: the storage's dispatcher publishes it at once.
      afterWrite(storage, {
        type: 'TYPING_START',
        ...sendTo,
        data: {
          channel_id: access.channel.id,
          ...access.guildWire,
          user_id: principal.user.id,
          timestamp: unixSeconds(access.nowMs),
          ...access.memberWire(),
        },
      });
    },
  };
}

export type MessageService = ReturnType<typeof createMessageService>;
