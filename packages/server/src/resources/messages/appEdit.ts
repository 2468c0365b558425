/**
 * @module resources/messages/appEdit: editing a webhook's or an interaction's message
 * (/webhooks/{id}/{token}/messages/{message_id}), as the platform validates it.
 */
import { MessageFlags } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterWrite } from '../../events/afterCommit.js';
import type { StreamedFile } from '../../http/multipart.js';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import type { ServiceDeps } from '../deps.js';
import { attachmentKey, editedAttachments } from './attachments.js';
import { assertAllowedMentions } from './mentions.js';
import { type MessageWire } from './serialize.js';
import { type WebhookEditInput } from './schemas.js';
import { embedsWire, type MessageHelpers } from './shared.js';
import { validateMessageComponents } from '../components/index.js';
import { assertPremiumSkus } from './premium.js';
import {
  APP_FLAGS,
  EDIT_FLAGS,
  dispatchTarget,
  loadAppChannel,
  mentionText,
  refusePoll,
  type AppMessageHelpers,
  type MessageOwner,
  type WithinWrite,
} from './appShared.js';

export function createAppMessageEditing(
  deps: ServiceDeps,
  helpers: MessageHelpers & AppMessageHelpers,
) {
  const { storage, ids, clock, blobs } = deps;
  const { withUploads, wireOf, ownedMessage, mentionsOf } = helpers;

  return {
    /**
     * Edits the owner's message: content, embeds, components, allowed_mentions, attachments
     * (kept ids and new files) and flags (SUPPRESS_EMBEDS; IS_COMPONENTS_V2 may be set, never
     * cleared). The first edit of a deferred response's placeholder fills it: LOADING is
     * cleared and the message does not show as edited.
     */
    // eslint-disable-next-line max-params -- the signature the interactions issue's parts share.
    async editAs(
      channelId: string,
      messageId: string,
      owner: MessageOwner,
      request: { input: WebhookEditInput; files: readonly StreamedFile[]; within?: WithinWrite },
    ): Promise<MessageWire> {
      const { input, files } = request;
      const message = await ownedMessage(channelId, messageId, owner);
      const loading = (message.flags & MessageFlags.LOADING) !== 0;
      const channel = await loadAppChannel(storage, message.channelId);
      refusePoll(input.poll);
      assertAllowedMentions(input.allowed_mentions);
      let flags = message.flags;
      if (input.flags != null) {
        if ((input.flags & ~(APP_FLAGS | (message.flags & MessageFlags.EPHEMERAL))) !== 0) {
          throw invalidField(['flags'], 'MESSAGE_FLAGS_INVALID', 'Invalid message flags.');
        }
        if (
          (message.flags & MessageFlags.IS_COMPONENTS_V2) !== 0 &&
          (input.flags & MessageFlags.IS_COMPONENTS_V2) === 0
        ) {
          throw invalidField(
            ['flags'],
            'MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG',
            'The IS_COMPONENTS_V2 flag cannot be removed once set.',
          );
        }
        flags = (message.flags & ~EDIT_FLAGS) | (input.flags & EDIT_FLAGS);
      }
      flags &= ~MessageFlags.LOADING;
      const content = input.content === undefined ? message.content : (input.content ?? '');
      const embeds = input.embeds === undefined ? message.embeds : embedsWire(input.embeds ?? []);
      const { kept, uploads, names } = editedAttachments({
        message,
        requests: input.attachments,
        files,
        ids,
      });
      // Checked against the message after the edit (a v2 message keeps no content or embeds).
      const componentsChange =
        input.components !== undefined ||
        ((flags & MessageFlags.IS_COMPONENTS_V2) !== 0 &&
          (flags !== message.flags || input.content !== undefined || input.embeds !== undefined));
      const components = componentsChange
        ? validateMessageComponents(
            input.components === undefined ? (message.components ?? []) : (input.components ?? []),
            {
              flags,
              hasContent: content !== '',
              hasEmbeds: embeds.length > 0,
              hasPoll: input.poll != null,
              sender:
                message.webhookId === null
                  ? 'bot'
                  : message.applicationId === null
                    ? 'webhook'
                    : 'app_webhook',
              ids,
              attachmentNames: names,
            },
          )
        : (message.components ?? []);
      if (input.components !== undefined) {
        await assertPremiumSkus(storage, message.applicationId, components);
      }
      const remainingFiles = (kept?.length ?? message.attachments.length) + uploads.length;
      if (
        content.trim() === '' &&
        embeds.length === 0 &&
        remainingFiles === 0 &&
        components.length === 0
      ) {
        throw new ApiError('CANNOT_SEND_EMPTY_MESSAGE');
      }
      const mentions =
        input.content !== undefined ||
        input.allowed_mentions !== undefined ||
        input.components !== undefined
          ? await mentionsOf(
              channel,
              mentionText(flags, content, components),
              input.allowed_mentions,
            )
          : null;
      const now = clock.now();
      await withUploads(uploads, () =>
        storage.groupTransaction(async (tx) => {
          await tx.messages.update(message.channelId, message.id, {
            ...(input.content === undefined ? {} : { content }),
            ...(input.embeds === undefined ? {} : { embeds }),
            ...(flags === message.flags ? {} : { flags }),
            ...(componentsChange ? { components } : {}),
            ...(mentions === null
              ? {}
              : {
                  mentionUserIds: mentions.userIds,
                  mentionRoleIds: mentions.roleIds,
                  mentionEveryone: mentions.everyone,
                }),
            ...(loading ? {} : { editedAt: now }),
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
          await request.within?.(tx, message);
        }),
      );
      const updated = await ownedMessage(message.channelId, message.id, owner);
      const wire = await wireOf(storage, updated);
      afterWrite(storage, {
        type: 'MESSAGE_UPDATE',
        ...dispatchTarget(channel, updated),
        data: { ...wire, ...(channel.guildId === null ? {} : { guild_id: channel.guildId }) },
      });
      return wire;
    },
  };
}
