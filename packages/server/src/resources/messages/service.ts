import {
  AttachmentFlags,
  AuditLogActions,
  MessageFlags,
  MessageTypes,
  PLATFORM_EPOCH_MS,
  PermissionFlags as P,
  isSnowflake,
  snowflakeFromTimestamp,
  snowflakeTimestampMs,
} from '@guildhall/protocol';
import { requiredPermissions } from '../../domain/permissions.js';
import { canReadMessageContent } from '../../domain/messageContent.js';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit, afterWrite } from '../../events/afterCommit.js';
import { serializePartialMember } from '../members/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { StreamedFile } from '../../http/multipart.js';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import type {
  KeptAttachment,
  MessageRecord,
  NewMessage,
  Repositories,
} from '../../storage/index.js';
import { recordAudit } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { isTimedOut, loadMessageChannel, MESSAGE_CHANNEL_TYPES } from './access.js';
import type { MessageChannelAccess } from './access.js';
import {
  assertFilesPresent,
  attachmentFlags,
  attachmentKey,
  newAttachments,
} from './attachments.js';
import { assertAllowedMentions, resolveMentions } from './mentions.js';
import { contentReaderFor } from './reader.js';
import { dispatchPayload, viewMessages } from './views.js';
import {
  loadMessageContext,
  serializeMessage,
  snapshotOf,
  type AttachmentLinks,
  type MessageWire,
} from './serialize.js';
import {
  MAX_ATTACHMENTS,
  type AttachmentRequestInput,
  type CreateMessageInput,
  type EditMessageInput,
  type EmbedInput,
  type ListMessagesInput,
} from './schemas.js';

/** Message flags a sender may set (SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS). */
const SETTABLE_FLAGS = MessageFlags.SUPPRESS_EMBEDS | MessageFlags.SUPPRESS_NOTIFICATIONS;
const EDITABLE_TYPES = new Set<number>([MessageTypes.DEFAULT, MessageTypes.REPLY]);
/** How long enforce_nonce remembers a nonce ("a few minutes"). */
export const NONCE_WINDOW_MS = 5 * 60 * 1000;
/** Bulk delete refuses messages older than this. */
export const BULK_DELETE_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

/** The lowest id made at `ms` or later (clamped to the platform epoch). */
export const idAtOrAfter = (ms: number) =>
  snowflakeFromTimestamp(Math.max(PLATFORM_EPOCH_MS, Math.floor(ms)));

/** Embeds as stored and sent: the request objects with their type. */
function embedsWire(embeds: readonly EmbedInput[]): unknown[] {
  return embeds.map((embed) => ({
    type: 'rich',
    ...embed,
    ...(embed.fields === undefined
      ? {}
      : { fields: embed.fields.map((f) => ({ ...f, inline: f.inline ?? false })) }),
  }));
}

function assertFlags(flags: number | null | undefined): number {
  const value = flags ?? 0;
  if ((value & ~SETTABLE_FLAGS) !== 0) {
    throw invalidField(['flags'], 'MESSAGE_FLAGS_INVALID', 'Invalid message flags.');
  }
  return value;
}

export interface MessageServiceOptions {
  /** What attachment URLs are made of, read at call time: the base URL is known once listening. */
  links: () => AttachmentLinks;
}

export interface CreateMessageRequest {
  channelId: string;
  input: CreateMessageInput;
  files: readonly StreamedFile[];
}

/**
 * Messages in guild channels: create (mentions, replies, forwards, attachments, nonce, slowmode),
 * read, edit, delete, bulk delete and typing. Every read by an app goes through the
 * MESSAGE_CONTENT rule; every change is announced after it commits.
 */
export function createMessageService(deps: ServiceDeps, options: MessageServiceOptions) {
  const { storage, clock, ids, blobs } = deps;

  const accessFor = (repos: Repositories, principal: Principal, channelId: string) =>
    loadMessageChannel(repos, { channelId, userId: principal.user.id, nowMs: clock.now() });

  /** Moves staged files under their attachments' keys. */
  const storeUploads = (uploads: ReturnType<typeof newAttachments>) =>
    Promise.all(
      uploads.map(({ attachment, file }) =>
        file.blob.commit(
          attachmentKey(attachment.id),
          attachment.contentType ?? 'application/octet-stream',
        ),
      ),
    );

  /**
   * Files first (a message never points at a file that is not there), then the rows; when
   * writing the rows fails, the files go again.
   */
  const withUploads = async (
    uploads: ReturnType<typeof newAttachments>,
    write: () => Promise<void>,
  ) => {
    await storeUploads(uploads);
    try {
      await write();
    } catch (err) {
      await Promise.all(
        uploads.map(({ attachment }) => blobs.delete(attachmentKey(attachment.id))),
      );
      throw err;
    }
  };

  const findMessage = async (repos: Repositories, channelId: string, messageId: string) => {
    const message = isSnowflake(messageId)
      ? await repos.messages.findById(channelId, messageId)
      : null;
    if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
    return message;
  };

  const view = (repos: Repositories, principal: Principal, messages: readonly MessageRecord[]) =>
    viewMessages(repos, { principal, messages, links: options.links() });

  /** Slowmode: 20016 with retry_after unless exempt (bots always are). */
  const checkSlowmode = async (principal: Principal, access: MessageChannelAccess) => {
    const seconds = access.channel.rateLimitPerUser;
    if (seconds <= 0 || principal.user.bot) return;
    const now = access.subject.nowMs;
    if (requiredPermissions.bypassSlowmode(now).some((bits) => access.has(bits))) return;
    const windowMs = seconds * 1000;
    const last = await storage.messages.lastPostedAt({
      channelId: access.channel.id,
      authorId: principal.user.id,
      sinceId: idAtOrAfter(now - windowMs),
    });
    if (last !== null && last + windowMs > now) {
      throw new ApiError('SLOWMODE_RATE_LIMIT', {
        extra: { retry_after: (last + windowMs - now) / 1000, global: false },
      });
    }
  };

  /** The reply or forward a create names, checked. */
  const resolveReference = async (
    principal: Principal,
    access: MessageChannelAccess,
    input: CreateMessageInput,
  ): Promise<{
    reference: NewMessage['reference'];
    replied: MessageRecord | null;
    forwarded: MessageRecord | null;
  }> => {
    const ref = input.message_reference;
    if (ref == null) return { reference: null, replied: null, forwarded: null };
    const channelId = ref.channel_id ?? access.channel.id;
    if ((ref.type ?? 0) === 1) {
      const source =
        channelId === access.channel.id ? access : await accessFor(storage, principal, channelId);
      source.require(P.READ_MESSAGE_HISTORY);
      const message = await findMessage(storage, source.channel.id, ref.message_id);
      const reader = await contentReaderFor(storage, principal);
      const canRead =
        reader === null ||
        canReadMessageContent(reader, {
          authorId: message.authorId,
          inDirectChannel: message.guildId === null,
          mentionedUserIds: message.mentionUserIds,
        });
      if (!canRead) throw new ApiError('CANNOT_FORWARD_UNREADABLE_MESSAGE');
      return {
        reference: {
          type: 1,
          channelId: source.channel.id,
          messageId: message.id,
          guildId: source.guild.id,
        },
        replied: null,
        forwarded: message,
      };
    }
    access.require(P.READ_MESSAGE_HISTORY);
    if (channelId !== access.channel.id) {
      throw invalidField(
        ['message_reference'],
        'MESSAGE_REFERENCE_INVALID_CHANNEL',
        'Cannot reply to a message in a different channel.',
      );
    }
    const replied = isSnowflake(ref.message_id)
      ? await storage.messages.findById(channelId, ref.message_id)
      : null;
    if (replied === null) {
      if (ref.fail_if_not_exists === false)
        return { reference: null, replied: null, forwarded: null };
      throw invalidField(
        ['message_reference'],
        'MESSAGE_REFERENCE_UNKNOWN_MESSAGE',
        'Unknown message',
      );
    }
    if (!EDITABLE_TYPES.has(replied.type)) throw new ApiError('CANNOT_EXECUTE_ON_SYSTEM_MESSAGE');
    return {
      reference: {
        type: 0,
        channelId,
        messageId: replied.id,
        guildId: access.guild.id,
      },
      replied,
      forwarded: null,
    };
  };

  return {
    /**
     * What a multipart create or edit may do, checked before its body is read: the caller must
     * be able to post in the channel (create) or edit the message (edit). Returns the check to
     * run at the first file, before its bytes are read (ATTACH_FILES; the author, for edits).
     */
    async uploadGate(
      principal: Principal,
      request: { channelId: string; messageId?: string },
    ): Promise<() => void> {
      const access = await accessFor(storage, principal, request.channelId);
      if (request.messageId === undefined) {
        access.require(P.SEND_MESSAGES);
        if (!MESSAGE_CHANNEL_TYPES.has(access.channel.type)) {
          throw new ApiError('CANNOT_SEND_IN_NON_TEXT_CHANNEL');
        }
        if (isTimedOut(access)) throw new ApiError('MISSING_PERMISSIONS');
        return () => {
          access.require(P.ATTACH_FILES);
        };
      }
      access.require(0n);
      const message = await findMessage(storage, access.channel.id, request.messageId);
      return () => {
        if (message.authorId !== principal.user.id) {
          throw new ApiError('CANNOT_EDIT_OTHER_USERS_MESSAGE');
        }
        access.require(P.ATTACH_FILES);
      };
    },

    /** POST /channels/{id}/messages. */
    async create(principal: Principal, request: CreateMessageRequest): Promise<MessageWire> {
      const { input, files } = request;
      const access = await accessFor(storage, principal, request.channelId);
      access.require(P.SEND_MESSAGES);
      if (!MESSAGE_CHANNEL_TYPES.has(access.channel.type)) {
        throw new ApiError('CANNOT_SEND_IN_NON_TEXT_CHANNEL');
      }
      if (isTimedOut(access)) throw new ApiError('MISSING_PERMISSIONS');
      const flags = assertFlags(input.flags);
      assertAllowedMentions(input.allowed_mentions);
      const requests = input.attachments ?? [];
      assertFilesPresent(requests, files, new Set());
      if (files.length > MAX_ATTACHMENTS) {
        throw invalidField(['files'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
      }
      if (files.length > 0) access.require(P.ATTACH_FILES);
      const embedInputs = input.embeds ?? (input.embed == null ? [] : [input.embed]);
      // Without EMBED_LINKS the platform sends the message without its embeds.
      const embeds = access.has(P.EMBED_LINKS) ? embedsWire(embedInputs) : [];
      const content = input.content ?? '';
      const nonce = input.nonce == null ? null : String(input.nonce);
      const now = access.subject.nowMs;

      if (input.enforce_nonce === true && nonce !== null) {
        const earlier = await storage.messages.findByNonce({
          channelId: access.channel.id,
          authorId: principal.user.id,
          nonce,
          sinceId: idAtOrAfter(now - NONCE_WINDOW_MS),
        });
        if (earlier !== null) {
          const [wire] = await view(storage, principal, [earlier]);
          if (wire !== undefined) return wire;
        }
      }
      await checkSlowmode(principal, access);
      const { reference, replied, forwarded } = await resolveReference(principal, access, input);
      if (forwarded !== null && (content !== '' || embedInputs.length > 0 || files.length > 0)) {
        throw invalidField(
          ['message_reference'],
          'MESSAGE_FORWARD_WITH_CONTENT',
          'A forwarded message cannot have content, embeds or attachments.',
        );
      }
      if (
        content.trim() === '' &&
        embeds.length === 0 &&
        files.length === 0 &&
        forwarded === null
      ) {
        throw new ApiError('CANNOT_SEND_EMPTY_MESSAGE');
      }
      const mentions = await resolveMentions(storage, {
        content,
        allowed: input.allowed_mentions,
        roles: access.roles,
        guildId: access.guild.id,
        permissions: access.permissions,
        repliedUserId: replied?.authorId ?? null,
      });

      const messageId = ids();
      const uploads = newAttachments({
        files,
        requests,
        ids,
        messageId,
        channelId: access.channel.id,
        firstPosition: 0,
      });
      const links = options.links();
      let snapshots: unknown[] | null = null;
      if (forwarded !== null) {
        const context = await loadMessageContext(storage, [forwarded], {
          links,
          viewerId: principal.user.id,
          reader: null,
          reactions: false,
        });
        snapshots = [snapshotOf(forwarded, context)];
      }
      const message: NewMessage = {
        id: messageId,
        channelId: access.channel.id,
        guildId: access.guild.id,
        authorId: principal.user.id,
        type: replied === null ? MessageTypes.DEFAULT : MessageTypes.REPLY,
        content,
        embeds,
        flags: flags | (forwarded === null ? 0 : MessageFlags.HAS_SNAPSHOT),
        tts: input.tts === true && access.has(P.SEND_TTS_MESSAGES),
        mentionEveryone: mentions.everyone,
        mentionUserIds: mentions.userIds,
        mentionRoleIds: mentions.roleIds,
        reference,
        snapshots,
        nonce,
        applicationId: null,
        webhookId: null,
        createdAt: now,
        attachments: uploads.map((upload) => upload.attachment),
      };
      // Group-committed with the other writes of the moment: answered once it is on disk.
      const insert = () => storage.groupTransaction((tx) => tx.messages.create(message));
      if (message.attachments.length === 0) await insert();
      else await withUploads(uploads, insert);
      const record: MessageRecord = { ...message, pinnedAt: null, editedAt: null };
      const needsContext = replied !== null || mentions.userIds.length > 0;
      const context = needsContext
        ? await loadMessageContext(storage, [record], {
            links,
            viewerId: principal.user.id,
            reader: null,
            knownUsers: [principal.user],
            reactions: false,
          })
        : {
            links,
            users: new Map([[principal.user.id, principal.user]]),
            reactions: new Map(),
            referenced: new Map(),
            reader: null,
          };
      const withNonce = nonce === null ? {} : { nonce };
      const wire = { ...serializeMessage(record, context), ...withNonce };
      // Announced once the message is committed (its batch is durable): published at once.
      afterWrite(storage, {
        type: 'MESSAGE_CREATE',
        guildId: access.guild.id,
        channelId: access.channel.id,
        data: { ...wire, guild_id: access.guild.id, member: serializePartialMember(access.member) },
      });
      if (replied === null) return wire;
      // The caller's own message is readable; its referenced_message follows the rule.
      const reader = await contentReaderFor(storage, principal);
      return { ...serializeMessage(record, { ...context, reader }), ...withNonce };
    },

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
     * PATCH /channels/{id}/messages/{message_id}: the author edits content, embeds, attachments
     * and allowed_mentions; flags (SUPPRESS_EMBEDS) also with MANAGE_MESSAGES.
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
      const message = await findMessage(storage, access.channel.id, request.messageId);
      const isAuthor = message.authorId === principal.user.id;
      const editsContent =
        input.content !== undefined ||
        input.embeds !== undefined ||
        input.attachments !== undefined ||
        input.allowed_mentions !== undefined ||
        files.length > 0;
      if (!isAuthor) {
        if (editsContent) throw new ApiError('CANNOT_EDIT_OTHER_USERS_MESSAGE');
        if (input.flags !== undefined) access.require(P.MANAGE_MESSAGES);
      }
      if (!EDITABLE_TYPES.has(message.type) && editsContent) {
        throw new ApiError('CANNOT_EXECUTE_ON_SYSTEM_MESSAGE');
      }
      assertAllowedMentions(input.allowed_mentions);
      const keepFlags = message.flags & ~SETTABLE_FLAGS;
      const flags =
        input.flags == null
          ? message.flags
          : keepFlags |
            (isAuthor
              ? assertFlags(input.flags)
              : (assertFlags(input.flags) & MessageFlags.SUPPRESS_EMBEDS) |
                (message.flags & MessageFlags.SUPPRESS_NOTIFICATIONS));
      const existingIds = new Set(message.attachments.map((a) => a.id));
      const requests = input.attachments ?? [];
      assertFilesPresent(requests, files, existingIds);
      if (files.length > 0) access.require(P.ATTACH_FILES);
      const content = input.content === undefined ? message.content : (input.content ?? '');
      const embeds =
        input.embeds === undefined
          ? message.embeds
          : access.has(P.EMBED_LINKS)
            ? embedsWire(input.embeds ?? [])
            : [];
      let kept: KeptAttachment[] | null = null;
      let uploads: ReturnType<typeof newAttachments> = [];
      if (input.attachments != null || files.length > 0) {
        const byId = new Map(message.attachments.map((a) => [a.id, a]));
        const listed =
          input.attachments == null
            ? message.attachments.map((a): AttachmentRequestInput => ({ id: a.id }))
            : requests.filter((r) => existingIds.has(r.id));
        kept = listed.flatMap((r, position) => {
          const existing = byId.get(r.id);
          if (existing === undefined) return [];
          return [
            {
              id: r.id,
              position,
              description: r.description === undefined ? existing.description : r.description,
              flags:
                r.is_spoiler === undefined
                  ? existing.flags
                  : (existing.flags & ~AttachmentFlags.IS_SPOILER) |
                    attachmentFlags(existing.filename, r.is_spoiler),
            },
          ];
        });
        uploads = newAttachments({
          files,
          requests: requests.filter((r) => !existingIds.has(r.id)),
          ids,
          messageId: message.id,
          channelId: access.channel.id,
          firstPosition: kept.length,
        });
        if (kept.length + uploads.length > MAX_ATTACHMENTS) {
          throw invalidField(
            ['attachments'],
            'BASE_TYPE_MAX_LENGTH',
            'Must be 10 or fewer in length.',
          );
        }
      }
      const remainingFiles = (kept?.length ?? message.attachments.length) + uploads.length;
      if (
        editsContent &&
        content.trim() === '' &&
        embeds.length === 0 &&
        remainingFiles === 0 &&
        message.snapshots === null
      ) {
        throw new ApiError('CANNOT_SEND_EMPTY_MESSAGE');
      }
      const mentions =
        input.content !== undefined || input.allowed_mentions !== undefined
          ? await resolveMentions(storage, {
              content,
              allowed: input.allowed_mentions,
              roles: access.roles,
              guildId: access.guild.id,
              permissions: access.permissions,
              repliedUserId: null,
            })
          : null;
      const now = clock.now();
      await withUploads(uploads, () =>
        storage.groupTransaction(async (tx) => {
          await tx.messages.update(access.channel.id, message.id, {
            ...(input.content === undefined ? {} : { content }),
            ...(input.embeds === undefined ? {} : { embeds }),
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
        guildId: access.guild.id,
        channelId: access.channel.id,
        data: { ...full, guild_id: access.guild.id },
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
        if (!own) {
          await recordAudit(tx, ids, {
            guildId: access.guild.id,
            userId: principal.user.id,
            targetId: message.authorId,
            actionType: AuditLogActions.MESSAGE_DELETE,
            reason: request.reason,
            options: { channel_id: access.channel.id, count: '1' },
          });
        }
        afterCommit(tx, {
          type: 'MESSAGE_DELETE',
          guildId: access.guild.id,
          channelId: access.channel.id,
          data: { id: message.id, channel_id: access.channel.id, guild_id: access.guild.id },
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
      const oldest = access.subject.nowMs - BULK_DELETE_MAX_AGE_MS;
      if (request.messageIds.some((id) => snowflakeTimestampMs(id) < oldest)) {
        throw new ApiError('MESSAGES_TOO_OLD_TO_BULK_DELETE');
      }
      await storage.transaction(async (tx) => {
        const attachmentIds = await tx.blobRefs.attachmentIds({
          channelId: access.channel.id,
          messageIds: request.messageIds,
        });
        const removed = await tx.messages.delete(access.channel.id, request.messageIds);
        freeBlobsAfterCommit(tx, blobs, attachmentIds.map(attachmentKey));
        if (removed.length > 0) {
          await recordAudit(tx, ids, {
            guildId: access.guild.id,
            userId: principal.user.id,
            targetId: access.channel.id,
            actionType: AuditLogActions.MESSAGE_BULK_DELETE,
            reason: request.reason,
            options: { count: String(removed.length) },
          });
          afterCommit(tx, {
            type: 'MESSAGE_DELETE_BULK',
            guildId: access.guild.id,
            channelId: access.channel.id,
            data: { ids: removed, channel_id: access.channel.id, guild_id: access.guild.id },
          });
        }
      });
    },

    /** POST /channels/{id}/typing: VIEW_CHANNEL and SEND_MESSAGES; announces TYPING_START. */
    async typing(principal: Principal, channelId: string) {
      const access = await accessFor(storage, principal, channelId);
      access.require(P.SEND_MESSAGES);
      // Nothing is written: the storage's dispatcher publishes it at once.
      afterWrite(storage, {
        type: 'TYPING_START',
        guildId: access.guild.id,
        channelId: access.channel.id,
        data: {
          channel_id: access.channel.id,
          guild_id: access.guild.id,
          user_id: principal.user.id,
          timestamp: Math.floor(access.subject.nowMs / 1000),
          member: serializePartialMember(access.member),
        },
      });
    },
  };
}

export type MessageService = ReturnType<typeof createMessageService>;
