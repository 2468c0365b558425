import {
  ChannelTypes,
  MessageFlags,
  MessageTypes,
  PermissionFlags as P,
} from '@guildhall/protocol';
import { basePermissions } from '../../domain/permissions.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { StreamedFile } from '../../http/multipart.js';
import type { NewMessage } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { isTimedOut, MESSAGE_CHANNEL_TYPES } from './access.js';
import { assertFilesPresent, newAttachments } from './attachments.js';
import { assertAllowedMentions, resolveMentions } from './mentions.js';
import { loadMessageContext, snapshotOf, type MessageWire } from './serialize.js';
import { MAX_ATTACHMENTS, type CreateMessageInput } from './schemas.js';
import { newPoll } from './polls.js';
import { componentsText, validateMessageComponents } from '../components/index.js';
import { assertPremiumSkus } from './premium.js';
import {
  APP_SETTABLE_FLAGS,
  SETTABLE_FLAGS,
  assertFlags,
  embedsWire,
  idAtOrAfter,
  type MessageHelpers,
  type MessageServiceOptions,
} from './shared.js';
import { MINUTE_MS } from '../../domain/time.js';
import { createPostingRules } from './postingRules.js';
import { createPostingStore } from './postingStore.js';

/** Thread types: their messages go through the thread rules. */
const THREAD_TYPES = new Set<number>([
  ChannelTypes.ANNOUNCEMENT_THREAD,
  ChannelTypes.PUBLIC_THREAD,
  ChannelTypes.PRIVATE_THREAD,
]);

/** How long enforce_nonce remembers a nonce ("a few minutes"). */
export const NONCE_WINDOW_MS = 5 * MINUTE_MS;

export interface CreateMessageRequest {
  channelId: string;
  input: CreateMessageInput;
  files: readonly StreamedFile[];
}

/**
 * The create path of the message service: the gate a multipart request passes before its files
 * are read, and POST /channels/{id}/messages (mentions, replies, forwards, attachments, nonce,
 * slowmode). Kept apart from the rest of the service, which it shares `helpers` with.
 */
export function createMessagePosting(
  deps: ServiceDeps,
  options: MessageServiceOptions,
  helpers: MessageHelpers,
) {
  const { storage, ids } = deps;
  const { accessFor, findMessage, view } = helpers;
  const { checkSlowmode, resolveReference, privateExtras } = createPostingRules(
    deps,
    options,
    helpers,
  );
  const store = createPostingStore(deps, options, helpers);

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
      const inThread = THREAD_TYPES.has(access.channel.type);
      if (inThread) {
        const threadRules = options.threadRules;
        if (threadRules === undefined) throw new ApiError('CANNOT_SEND_IN_NON_TEXT_CHANNEL');
        await storage.transaction((tx) =>
          threadRules.beforePost(tx, {
            threadId: access.channel.id,
            userId: principal.user.id,
            permissions: access.permissions,
          }),
        );
      }
      const extras = await privateExtras(principal, access, input);
      const isBot = principal.user.bot;
      const flags = assertFlags(input.flags, isBot ? APP_SETTABLE_FLAGS : SETTABLE_FLAGS);
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
      if (files.length > 0) access.require(P.ATTACH_FILES);
      const embedInputs = input.embeds ?? (input.embed == null ? [] : [input.embed]);
      // Without EMBED_LINKS the platform sends the message without its embeds.
      const embeds = access.has(P.EMBED_LINKS) ? embedsWire(embedInputs) : [];
      const content = input.content ?? '';
      const messageId = ids();
      const uploads = newAttachments({
        files,
        requests,
        ids,
        messageId,
        channelId: access.channel.id,
        firstPosition: 0,
      });
      const components = validateMessageComponents(input.components ?? [], {
        flags,
        hasContent: content !== '',
        hasEmbeds: embedInputs.length > 0,
        sender: isBot ? 'bot' : 'user',
        ids,
        attachmentNames: uploads.map((upload) => upload.attachment.filename),
      });
      if (isBot) await assertPremiumSkus(storage, principal.applicationId, components);
      const nonce = input.nonce == null ? null : String(input.nonce);
      const now = access.nowMs;

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
      const poll =
        input.poll == null
          ? null
          : newPoll(input.poll, { messageId, channelId: access.channel.id, nowMs: now });
      const hasBody =
        content !== '' ||
        embedInputs.length > 0 ||
        files.length > 0 ||
        components.length > 0 ||
        poll !== null;
      if (forwarded !== null && hasBody) {
        throw invalidField(
          ['message_reference'],
          'MESSAGE_FORWARD_WITH_CONTENT',
          'A forwarded message cannot have content, embeds, attachments or components.',
        );
      }
      if (
        content.trim() === '' &&
        embeds.length === 0 &&
        files.length === 0 &&
        components.length === 0 &&
        forwarded === null &&
        poll === null &&
        // An activity invite needs no words: the invite is what it shows.
        input.activity == null
      ) {
        throw new ApiError('CANNOT_SEND_EMPTY_MESSAGE');
      }
      const mentions = await resolveMentions(storage, {
        // An IS_COMPONENTS_V2 message mentions through its Text Displays.
        content:
          (flags & MessageFlags.IS_COMPONENTS_V2) === 0 ? content : componentsText(components),
        allowed: input.allowed_mentions,
        roles: access.roles,
        guildId: access.guildId,
        permissions: access.permissions,
        repliedUserId: replied?.authorId ?? null,
      });
      const sendTo = await access.sendTarget(storage);
      const moderation = options.moderation;
      if (moderation !== undefined && access.guildId !== null && access.member !== null) {
        await moderation.checkMessage({
          guildId: access.guildId,
          channel: access.channel,
          member: access.member,
          permissions: access.subject === null ? 0n : basePermissions(access.subject),
          content,
          messageId,
        });
      }

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
        guildId: access.guildId,
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
        applicationId: extras.applicationId,
        webhookId: null,
        createdAt: now,
        attachments: uploads.map((upload) => upload.attachment),
        activity: extras.activity,
        components,
        ...(input.metadata == null ? {} : { metadata: input.metadata }),
      };
      return store(principal, access, {
        message,
        poll,
        uploads,
        inThread,
        replied,
        mentionUserIds: mentions.userIds,
        sendTo,
        links,
      });
    },
  };
}
