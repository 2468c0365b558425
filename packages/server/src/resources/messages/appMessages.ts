import { MessageFlags, MessageTypes } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit, afterWrite } from '../../events/afterCommit.js';
import type { StreamedFile } from '../../http/multipart.js';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import type { MessageRecord, NewMessage } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { assertFilesPresent, attachmentKey, newAttachments } from './attachments.js';
import { assertAllowedMentions } from './mentions.js';
import { type MessageWire } from './serialize.js';
import { MAX_ATTACHMENTS, type WebhookMessageInput } from './schemas.js';
import { embedsWire, type MessageHelpers, type MessageServiceOptions } from './shared.js';
import { validateMessageComponents } from '../components/index.js';
import { assertPremiumSkus } from './premium.js';
import { createAppMessageEditing } from './appEdit.js';
import {
  APP_FLAGS,
  createAppMessageHelpers,
  dispatchTarget,
  loadAppChannel,
  mentionText,
  refusePoll,
  senderOf,
  type MessageAuthor,
  type MessageOwner,
  type WithinWrite,
} from './appShared.js';

export type { MessageAuthor, MessageOwner, WithinWrite } from './appShared.js';

/**
 * Messages made by a webhook or by an interaction's response and followups
 * (/webhooks/{id}/{token}/…): no caller's permissions apply (the token was checked by the
 * caller). Content, embeds, components, mentions, files and flags are validated as the platform
 * does; MESSAGE_CREATE/UPDATE/DELETE follow the commit, an ephemeral message's only to its user.
 */
export function createAppMessages(
  deps: ServiceDeps,
  options: MessageServiceOptions,
  helpers: MessageHelpers,
) {
  const { storage, ids, clock, blobs } = deps;
  const { withUploads } = helpers;
  const app = createAppMessageHelpers(deps, options);
  const { wireOf, ownedMessage, mentionsOf } = app;

  return {
    /** Posts a webhook's or interaction's message in a channel. */
    async postAs(request: {
      channelId: string;
      author: MessageAuthor;
      input: WebhookMessageInput;
      files: readonly StreamedFile[];
      within?: WithinWrite;
    }): Promise<{ record: MessageRecord; wire: MessageWire }> {
      const { author, input, files } = request;
      const loading = author.kind === 'interaction' && author.loading === true;
      const channel = await loadAppChannel(storage, request.channelId);
      refusePoll(input.poll);
      const asked = input.flags ?? 0;
      const ephemeral = (asked & MessageFlags.EPHEMERAL) !== 0;
      const allowed = APP_FLAGS | (author.kind === 'interaction' ? MessageFlags.EPHEMERAL : 0);
      if ((asked & ~allowed) !== 0) {
        throw invalidField(['flags'], 'MESSAGE_FLAGS_INVALID', 'Invalid message flags.');
      }
      const ephemeralUserId =
        author.kind === 'interaction' && ephemeral ? author.ephemeralUserId : null;
      if (ephemeral && ephemeralUserId === null) {
        throw invalidField(['flags'], 'MESSAGE_FLAGS_INVALID', 'Invalid message flags.');
      }
      assertAllowedMentions(input.allowed_mentions);
      const requests = input.attachments ?? [];
      assertFilesPresent(requests, files, new Set());
      if (files.length > MAX_ATTACHMENTS) {
        throw invalidField(
          ['files'],
          'BASE_TYPE_MAX_LENGTH',
          `Must be ${String(MAX_ATTACHMENTS)} or fewer in length.`,
        );
      }
      const content = input.content ?? '';
      const embeds = embedsWire(input.embeds ?? []);
      const messageId = ids();
      const uploads = newAttachments({
        files,
        requests,
        ids,
        messageId,
        channelId: channel.id,
        firstPosition: 0,
      });
      const components = validateMessageComponents(input.components ?? [], {
        flags: asked,
        hasContent: content !== '',
        hasEmbeds: embeds.length > 0,
        hasPoll: input.poll != null,
        sender: senderOf(author),
        ids,
        attachmentNames: uploads.map((upload) => upload.attachment.filename),
      });
      await assertPremiumSkus(storage, author.applicationId, components);
      if (
        !loading &&
        content.trim() === '' &&
        embeds.length === 0 &&
        files.length === 0 &&
        components.length === 0
      ) {
        throw new ApiError('CANNOT_SEND_EMPTY_MESSAGE');
      }
      const mentions = await mentionsOf(
        channel,
        mentionText(asked, content, components),
        input.allowed_mentions,
      );
      const byWebhook = author.kind === 'webhook';
      const message: NewMessage = {
        id: messageId,
        channelId: channel.id,
        guildId: channel.guildId,
        authorId: byWebhook ? author.webhookId : author.botUserId,
        type: byWebhook ? MessageTypes.DEFAULT : author.type,
        content,
        embeds,
        flags: asked | (loading ? MessageFlags.LOADING : 0),
        tts: input.tts === true,
        mentionEveryone: mentions.everyone,
        mentionUserIds: mentions.userIds,
        mentionRoleIds: mentions.roleIds,
        reference: byWebhook ? null : (author.reference ?? null),
        snapshots: null,
        nonce: null,
        applicationId: author.applicationId,
        webhookId: byWebhook ? author.webhookId : author.applicationId,
        createdAt: clock.now(),
        attachments: uploads.map((upload) => upload.attachment),
        components,
        interactionMetadata: byWebhook ? null : author.interactionMetadata,
        interaction: byWebhook ? null : author.interaction,
        webhookAuthor: byWebhook ? { username: author.username, avatar: author.avatar } : null,
        ephemeralUserId,
      };
      const record: MessageRecord = { pinnedAt: null, editedAt: null, ...message };
      await withUploads(uploads, () =>
        storage.groupTransaction(async (tx) => {
          await tx.messages.create(message);
          await request.within?.(tx, record);
        }),
      );
      const wire = await wireOf(storage, record);
      // Committed (its batch is durable): published at once.
      afterWrite(storage, {
        type: 'MESSAGE_CREATE',
        ...dispatchTarget(channel, record),
        data: { ...wire, ...(channel.guildId === null ? {} : { guild_id: channel.guildId }) },
      });
      return { record, wire };
    },

    /** The owner's message in the channel; 10008 when it is not theirs. */
    async getAs(channelId: string, messageId: string, owner: MessageOwner): Promise<MessageWire> {
      return wireOf(storage, await ownedMessage(channelId, messageId, owner));
    },

    // editAs: a webhook's or interaction's message edited.
    ...createAppMessageEditing(deps, { ...helpers, ...app }),

    /** Deletes the owner's message (with its files); MESSAGE_DELETE after the commit. */
    async deleteAs(channelId: string, messageId: string, owner: MessageOwner): Promise<void> {
      const message = await ownedMessage(channelId, messageId, owner);
      const channel = await loadAppChannel(storage, message.channelId);
      await storage.groupTransaction(async (tx) => {
        await tx.messages.delete(message.channelId, [message.id]);
        freeBlobsAfterCommit(
          tx,
          blobs,
          message.attachments.map((attachment) => attachmentKey(attachment.id)),
        );
        afterCommit(tx, {
          type: 'MESSAGE_DELETE',
          ...dispatchTarget(channel, message),
          data: {
            id: message.id,
            channel_id: message.channelId,
            ...(channel.guildId === null ? {} : { guild_id: channel.guildId }),
          },
        });
      });
    },
  };
}
