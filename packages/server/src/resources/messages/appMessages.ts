import { MessageFlags, MessageTypes, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit, afterWrite } from '../../events/afterCommit.js';
import type { Dispatch } from '../../events/dispatcher.js';
import type { StreamedFile } from '../../http/multipart.js';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import type {
  MessageRecord,
  MessageReferenceRecord,
  NewMessage,
  Repositories,
  RoleRecord,
} from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { MESSAGE_CHANNEL_TYPES } from './access.js';
import {
  assertFilesPresent,
  attachmentKey,
  editedAttachments,
  newAttachments,
} from './attachments.js';
import { assertAllowedMentions, resolveMentions } from './mentions.js';
import { loadMessageContext, serializeMessage, type MessageWire } from './serialize.js';
import { MAX_ATTACHMENTS, type WebhookEditInput, type WebhookMessageInput } from './schemas.js';
import { embedsWire, type MessageHelpers, type MessageServiceOptions } from './shared.js';
import { componentsText, validateMessageComponents } from '../components/index.js';
import { assertPremiumSkus } from '../monetization/index.js';

/** Who a message made through a webhook route is by. */
export type MessageAuthor =
  | {
      kind: 'webhook';
      webhookId: string;
      username: string;
      avatar: string | null;
      /** The app that owns the webhook (app-owned webhooks may send interactive components). */
      applicationId: string | null;
    }
  | {
      kind: 'interaction';
      applicationId: string;
      botUserId: string;
      /** 20 CHAT_INPUT_COMMAND, 23 CONTEXT_MENU_COMMAND, 0 DEFAULT, 19 REPLY… */
      type: number;
      interactionMetadata: Record<string, unknown>;
      /**
       * The user an ephemeral message (flag 64 in the input's flags) is for: the invoking user.
       * Only that user ever sees such a message; a flag 64 without it is refused.
       */
      ephemeralUserId: string | null;
      /**
       * A deferred response's placeholder (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE): sent empty with
       * the LOADING flag, which its first edit clears.
       */
      loading?: boolean;
      /** What the message points at (a message command's response: its target message). */
      reference?: MessageReferenceRecord | null;
    };

/** Whose messages a webhook route may read and change: a webhook's, or an app's (interactions). */
export type MessageOwner =
  | { webhookId: string }
  | {
      applicationId: string;
      /**
       * The app's bot user, whose own messages count too: the message a component was clicked on
       * (UPDATE_MESSAGE, and the original response after DEFERRED_UPDATE_MESSAGE).
       */
      botUserId?: string;
    };

/**
 * Runs inside the transaction that writes the message (an interaction's acknowledgement, which
 * commits with its response or not at all); it may throw to refuse the write.
 */
export type WithinWrite = (tx: Repositories, message: MessageRecord) => Promise<void>;

/** Flags a webhook or interaction message may be sent with. */
const APP_FLAGS =
  MessageFlags.SUPPRESS_EMBEDS |
  MessageFlags.SUPPRESS_NOTIFICATIONS |
  MessageFlags.IS_COMPONENTS_V2;
/** Flags an edit may change: embeds suppressed or not, and the switch to components v2. */
const EDIT_FLAGS = MessageFlags.SUPPRESS_EMBEDS | MessageFlags.IS_COMPONENTS_V2;

/** The channel an app message goes to, loaded without a caller: guild roles or recipients. */
interface AppChannel {
  id: string;
  guildId: string | null;
  roles: ReadonlyMap<string, RoleRecord>;
  /** A DM's or group DM's recipients; empty in a guild. */
  recipientIds: readonly string[];
}

async function loadAppChannel(repos: Repositories, channelId: string): Promise<AppChannel> {
  const channel = isSnowflake(channelId) ? await repos.channels.findById(channelId) : null;
  if (channel !== null && channel.guildId !== null) {
    if (!MESSAGE_CHANNEL_TYPES.has(channel.type)) {
      throw new ApiError('CANNOT_SEND_IN_NON_TEXT_CHANNEL');
    }
    const roles = await repos.roles.listByGuild(channel.guildId);
    return {
      id: channel.id,
      guildId: channel.guildId,
      roles: new Map(roles.map((role) => [role.id, role])),
      recipientIds: [],
    };
  }
  const found = isSnowflake(channelId) ? await repos.privateChannels.find(channelId) : null;
  if (found === null) throw new ApiError('UNKNOWN_CHANNEL');
  return {
    id: found.channel.id,
    guildId: null,
    roles: new Map(),
    recipientIds: found.recipients.map((r) => r.userId),
  };
}

/**
 * Where a message's dispatches go: an ephemeral message only to its user's sessions (a
 * user-addressed dispatch, never the guild's), else the guild or the private channel's recipients.
 */
function dispatchTarget(
  channel: AppChannel,
  message: MessageRecord,
): Pick<Dispatch, 'guildId' | 'channelId' | 'userIds'> {
  if (message.ephemeralUserId != null) {
    return { guildId: null, channelId: channel.id, userIds: [message.ephemeralUserId] };
  }
  if (channel.guildId !== null) return { guildId: channel.guildId, channelId: channel.id };
  return { guildId: null, channelId: channel.id, userIds: channel.recipientIds };
}

const ownsMessage = (owner: MessageOwner, message: MessageRecord) =>
  'webhookId' in owner
    ? message.webhookId === owner.webhookId && message.interactionMetadata == null
    : (message.applicationId === owner.applicationId &&
        message.webhookId === owner.applicationId) ||
      (owner.botUserId !== undefined &&
        message.authorId === owner.botUserId &&
        message.webhookId === null);

/** Who the components validator sees: an app's webhook may send interactive components. */
const senderOf = (author: MessageAuthor) =>
  author.kind === 'webhook' && author.applicationId === null ? 'webhook' : 'app_webhook';

/** What mentions are parsed from: the content, or a v2 message's Text Displays. */
const mentionText = (flags: number, content: string, components: readonly unknown[]) =>
  (flags & MessageFlags.IS_COMPONENTS_V2) === 0 ? content : componentsText(components);

/** 50035 on `poll`: polls do not exist here yet. */
function refusePoll(poll: unknown): void {
  if (poll !== undefined && poll !== null) {
    throw invalidField(['poll'], 'BASE_TYPE_INVALID', 'Polls are not supported.');
  }
}

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

  const wireOf = async (repos: Repositories, message: MessageRecord): Promise<MessageWire> => {
    const context = await loadMessageContext(repos, [message], {
      links: options.links(),
      viewerId: message.authorId,
      reader: null,
    });
    return serializeMessage(message, context);
  };

  /** The owner's message (ephemeral ones included), else 10008. */
  const ownedMessage = async (channelId: string, messageId: string, owner: MessageOwner) => {
    const message =
      isSnowflake(channelId) && isSnowflake(messageId)
        ? await storage.messages.findAnyById(channelId, messageId)
        : null;
    if (message === null || !ownsMessage(owner, message)) throw new ApiError('UNKNOWN_MESSAGE');
    return message;
  };

  const mentionsOf = (
    channel: AppChannel,
    content: string,
    allowed: WebhookMessageInput['allowed_mentions'],
  ) =>
    // A webhook (and an app's interaction message) may mention @everyone and any role.
    resolveMentions(storage, {
      content,
      allowed,
      roles: channel.roles,
      guildId: channel.guildId,
      permissions: P.MENTION_EVERYONE,
      repliedUserId: null,
    });

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
        webhookAuthor: byWebhook ? { username: author.username, avatar: author.avatar } : null,
        ephemeralUserId,
      };
      const record: MessageRecord = { ...message, pinnedAt: null, editedAt: null };
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
