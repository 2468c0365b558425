import {
  AuditLogActions,
  MessageFlags,
  PermissionFlags as P,
  snowflakeTimestampMs,
} from '@guildhall/protocol';
import { basePermissions } from '../../domain/permissions.js';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit, afterWrite } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { StreamedFile } from '../../http/multipart.js';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import { recordAudit } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { attachmentKey, editedAttachments } from './attachments.js';
import { createMessagePosting } from './create.js';
import { createAppMessages } from './appMessages.js';
import { assertAllowedMentions, resolveMentions } from './mentions.js';
import { dispatchPayload } from './views.js';
import { type EditMessageInput, type ListMessagesInput } from './schemas.js';
import { componentsText, validateMessageComponents } from '../components/index.js';
import { assertPremiumSkus } from '../monetization/index.js';
import {
  APP_SETTABLE_FLAGS,
  EDITABLE_TYPES,
  SETTABLE_FLAGS,
  assertFlags,
  createMessageHelpers,
  embedsWire,
  type MessageServiceOptions,
} from './shared.js';
import { DAY_MS, unixSeconds } from '../../domain/time.js';

/** Bulk delete refuses messages older than this. */
export const BULK_DELETE_MAX_AGE_MS = 14 * DAY_MS;

/**
 * Messages in guild channels: create (mentions, replies, forwards, attachments, nonce, slowmode),
 * read, edit, delete, bulk delete and typing. Every read by an app goes through the
 * MESSAGE_CONTENT rule; every change is announced after it commits.
 */
export function createMessageService(deps: ServiceDeps, options: MessageServiceOptions) {
  const { storage, clock, ids, blobs } = deps;
  const helpers = createMessageHelpers(deps, options);
  const { accessFor, withUploads, findMessage, view } = helpers;

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

    /**
     * PATCH /channels/{id}/messages/{message_id}: the author edits content, embeds, attachments,
     * components and allowed_mentions; flags (SUPPRESS_EMBEDS) also with MANAGE_MESSAGES. A bot
     * may set IS_COMPONENTS_V2, which then stays (it cannot be removed).
     */
    async edit(
      principal: Principal,
      request: {
        channelId: string;
        messageId: string;
        input: EditMessageInput;
        files: readonly StreamedFile[];
      },
    ) {
      const { input, files } = request;
      const access = await accessFor(storage, principal, request.channelId);
      access.require(0n);
      // A message of an archived thread is not edited (50083, docs/threads.md).
      const thread = await storage.threads.find(access.channel.id);
      if (thread?.archived === true) throw new ApiError('ARCHIVED_THREAD');
      const message = await findMessage(storage, access.channel.id, request.messageId);
      const isAuthor = message.authorId === principal.user.id;
      const editsContent =
        input.content !== undefined ||
        input.embeds !== undefined ||
        input.attachments !== undefined ||
        input.allowed_mentions !== undefined ||
        input.components !== undefined ||
        files.length > 0;
      if (!isAuthor) {
        if (editsContent) throw new ApiError('CANNOT_EDIT_OTHER_USERS_MESSAGE');
        if (input.flags !== undefined) access.require(P.MANAGE_MESSAGES);
      }
      if (!EDITABLE_TYPES.has(message.type) && editsContent) {
        throw new ApiError('CANNOT_EXECUTE_ON_SYSTEM_MESSAGE');
      }
      assertAllowedMentions(input.allowed_mentions);
      // IS_COMPONENTS_V2 is kept once set; an application may set it, and anyone may send it
      // back with the message's other flags.
      const keepFlags = message.flags & ~SETTABLE_FLAGS;
      const isBot = principal.user.bot;
      const settable =
        (isAuthor && isBot) || (message.flags & MessageFlags.IS_COMPONENTS_V2) !== 0
          ? APP_SETTABLE_FLAGS
          : SETTABLE_FLAGS;
      const flags =
        input.flags == null
          ? message.flags
          : keepFlags |
            (isAuthor
              ? assertFlags(input.flags, settable)
              : (assertFlags(input.flags, settable) & MessageFlags.SUPPRESS_EMBEDS) |
                (message.flags & MessageFlags.SUPPRESS_NOTIFICATIONS));
      if (files.length > 0) access.require(P.ATTACH_FILES);
      const content = input.content === undefined ? message.content : (input.content ?? '');
      const embeds =
        input.embeds === undefined
          ? message.embeds
          : access.has(P.EMBED_LINKS)
            ? embedsWire(input.embeds ?? [])
            : [];
      const { kept, uploads, names } = editedAttachments({
        message,
        requests: input.attachments,
        files,
        ids,
      });
      const remainingFiles = (kept?.length ?? message.attachments.length) + uploads.length;
      const v2 = (flags & MessageFlags.IS_COMPONENTS_V2) !== 0;
      // The components as they are after the edit, checked against the message after it (a v2
      // message keeps no content or embeds; its files are those kept and added). Others only
      // change SUPPRESS_EMBEDS, which leaves them as they are.
      const checkComponents =
        input.components !== undefined ||
        (isAuthor && v2 && (editsContent || flags !== message.flags));
      const components = checkComponents
        ? validateMessageComponents(
            input.components === undefined ? (message.components ?? []) : (input.components ?? []),
            {
              flags,
              hasContent: content !== '',
              hasEmbeds: embeds.length > 0,
              sender: isBot ? 'bot' : 'user',
              ids,
              attachmentNames: names,
            },
          )
        : (message.components ?? []);
      if (isBot && input.components !== undefined) {
        await assertPremiumSkus(storage, principal.applicationId, components);
      }
      if (
        editsContent &&
        content.trim() === '' &&
        embeds.length === 0 &&
        remainingFiles === 0 &&
        components.length === 0 &&
        message.snapshots === null
      ) {
        throw new ApiError('CANNOT_SEND_EMPTY_MESSAGE');
      }
      const mentionsChange =
        input.content !== undefined ||
        input.allowed_mentions !== undefined ||
        (v2 && input.components !== undefined);
      const mentions = mentionsChange
        ? await resolveMentions(storage, {
            // An IS_COMPONENTS_V2 message mentions through its Text Displays.
            content: v2 ? componentsText(components) : content,
            allowed: input.allowed_mentions,
            roles: access.roles,
            guildId: access.guildId,
            permissions: access.permissions,
            repliedUserId: null,
          })
        : null;
      // Auto-moderation checks edits of the content too (its rules' MESSAGE_SEND event).
      const moderation = options.moderation;
      if (
        moderation !== undefined &&
        input.content !== undefined &&
        access.guildId !== null &&
        access.member !== null
      ) {
        await moderation.checkMessage({
          guildId: access.guildId,
          channel: access.channel,
          member: access.member,
          permissions: access.subject === null ? 0n : basePermissions(access.subject),
          content,
          messageId: message.id,
          edit: true,
        });
      }
      const sendTo = await access.sendTarget(storage);
      const now = clock.now();
      const rules = access.privateChannel === null ? undefined : options.privateRules;
      await withUploads(uploads, () =>
        storage.groupTransaction(async (tx) => {
          await tx.messages.update(access.channel.id, message.id, {
            ...(input.content === undefined ? {} : { content }),
            ...(input.embeds === undefined ? {} : { embeds }),
            ...(input.components === undefined ? {} : { components }),
            ...(flags === message.flags ? {} : { flags }),
            ...(mentions === null
              ? {}
              : {
                  mentionUserIds: mentions.userIds,
                  mentionRoleIds: mentions.roleIds,
                  mentionEveryone: mentions.everyone,
                }),
            ...(editsContent ? { editedAt: now } : {}),
          });
          if (kept !== null) {
            const removed = await tx.messages.replaceAttachments(message.id, {
              kept,
              added: uploads.map((upload) => upload.attachment),
            });
            freeBlobsAfterCommit(
              tx,
              blobs,
              removed.map((attachment) => attachmentKey(attachment.id)),
            );
          }
          if (rules !== undefined) {
            await rules.updated(tx, {
              access,
              message: { ...message, content, embeds, flags, components, editedAt: now },
              contentChanged: editsContent,
            });
          }
        }),
      );
      const updated = await findMessage(storage, access.channel.id, message.id);
      const [wire] = await view(storage, principal, [updated]);
      if (wire === undefined) throw new ApiError('UNKNOWN_MESSAGE');
      // The dispatch carries the full message; the gateway applies each session's rule.
      const full = await dispatchPayload(storage, {
        message: updated,
        viewerId: principal.user.id,
        links: options.links(),
      });
      // The edit's transaction committed above: published at once.
      afterWrite(storage, {
        type: 'MESSAGE_UPDATE',
        ...sendTo,
        data: { ...full, ...access.guildWire },
      });
      return wire;
    },

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
