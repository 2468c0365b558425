/**
 * @module resources/messages/edit: PATCH /channels/{id}/messages/{message_id}, the edit path of
 * the message service (content, embeds, attachments, components, flags), sharing its helpers.
 */
import { MessageFlags, PermissionFlags as P } from '@guildhall/protocol';
import { basePermissions } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import { afterWrite } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { StreamedFile } from '../../http/multipart.js';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import type { ServiceDeps } from '../deps.js';
import { attachmentKey, editedAttachments } from './attachments.js';
import { assertAllowedMentions, resolveMentions } from './mentions.js';
import { dispatchPayload } from './views.js';
import { type EditMessageInput } from './schemas.js';
import { componentsText, validateMessageComponents } from '../components/index.js';
import { assertPremiumSkus } from './premium.js';
import {
  APP_SETTABLE_FLAGS,
  EDITABLE_TYPES,
  SETTABLE_FLAGS,
  assertFlags,
  embedsWire,
  type MessageHelpers,
  type MessageServiceOptions,
} from './shared.js';

export function createMessageEditing(
  deps: ServiceDeps,
  options: MessageServiceOptions,
  helpers: MessageHelpers,
) {
  const { storage, clock, ids, blobs } = deps;
  const { accessFor, withUploads, findMessage, view } = helpers;

  return {
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
  };
}
