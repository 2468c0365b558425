import { ChannelTypes, MessageFlags, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { hasAll } from '../../domain/permissions.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { loadChannelAccess } from '../channels/index.js';
import type { MessageWire } from '../messages/index.js';
import {
  DEFAULT_AUTO_ARCHIVE_DURATION,
  POST_PARENT_TYPES,
  THREAD_PARENT_TYPES,
  defaultThreadType,
  isPrivateThread,
} from './rules.js';
import type { CreateThreadInput, ThreadFromMessageInput } from './schemas.js';
import { serializeThread, type ThreadWire } from './serialize.js';
import type { ThreadServiceDeps, ThreadWrites } from './shared.js';

/**
 * Starting threads: in a channel, a forum or media post with its first message, and from a
 * message (docs/threads.md).
 */
export function createThreadCreation(deps: ThreadServiceDeps, writes: ThreadWrites) {
  const { storage, clock, ids } = deps;
  const { checkTags, writeThread } = writes;

  const creation = {
    /**
     * POST /channels/{id}/threads. In a text channel a public (CREATE_PUBLIC_THREADS) or private
     * (CREATE_PRIVATE_THREADS, the default type) thread, in an announcement channel an
     * announcement thread; in a forum or media channel a post (SEND_MESSAGES) with its first
     * message, posted by the caller through the message routes' rules.
     */
    async create(
      principal: Principal,
      parentId: string,
      input: CreateThreadInput & { reason: string | null },
    ): Promise<ThreadWire & { message?: MessageWire }> {
      const isPost = await storage.transaction(async (tx) => {
        const access = await loadChannelAccess(tx, {
          channelId: parentId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        if (!THREAD_PARENT_TYPES.has(access.channel.type)) {
          throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
        }
        return POST_PARENT_TYPES.has(access.channel.type);
      });
      if (isPost) return creation.createPost(principal, parentId, input);
      return storage.transaction(async (tx) => {
        const access = await loadChannelAccess(tx, {
          channelId: parentId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        const parent = access.channel;
        const type = input.type ?? defaultThreadType(parent.type);
        const announcement = parent.type === ChannelTypes.GUILD_ANNOUNCEMENT;
        if ((type === ChannelTypes.ANNOUNCEMENT_THREAD) !== announcement) {
          throw invalidField(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of {11, 12}.');
        }
        access.require(isPrivateThread(type) ? P.CREATE_PRIVATE_THREADS : P.CREATE_PUBLIC_THREADS);
        if (input.message != null || (input.applied_tags?.length ?? 0) > 0) {
          throw invalidField(['message'], 'BASE_TYPE_INVALID', 'Only forum posts have a message.');
        }
        const { thread, self } = await writeThread(tx, {
          id: ids(),
          guildId: access.guild.guild.id,
          parentId: parent.id,
          type,
          name: input.name,
          ownerId: principal.user.id,
          autoArchiveDuration: input.auto_archive_duration ?? DEFAULT_AUTO_ARCHIVE_DURATION,
          rateLimitPerUser: input.rate_limit_per_user ?? 0,
          invitable: input.invitable ?? true,
          appliedTags: [],
          reason: input.reason,
        });
        return serializeThread(thread, self);
      });
    },

    /** A forum or media post: the thread, then its first message (the thread goes if it fails). */
    async createPost(
      principal: Principal,
      parentId: string,
      input: CreateThreadInput & { reason: string | null },
    ): Promise<ThreadWire & { message?: MessageWire }> {
      if (input.message == null) {
        throw invalidField(['message'], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      const message = input.message;
      const threadId = ids();
      await storage.transaction(async (tx) => {
        const access = await loadChannelAccess(tx, {
          channelId: parentId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        access.require(P.SEND_MESSAGES);
        const tags = [...new Set(input.applied_tags ?? [])];
        await checkTags(tx, {
          parentId,
          tags,
          canModerate: hasAll(access.permissions, P.MANAGE_THREADS),
        });
        await writeThread(tx, {
          id: threadId,
          guildId: access.guild.guild.id,
          parentId,
          type: ChannelTypes.PUBLIC_THREAD,
          name: input.name,
          ownerId: principal.user.id,
          autoArchiveDuration: input.auto_archive_duration ?? DEFAULT_AUTO_ARCHIVE_DURATION,
          rateLimitPerUser: input.rate_limit_per_user ?? 0,
          invitable: true,
          appliedTags: tags,
          reason: input.reason,
        });
      });
      let first: MessageWire;
      try {
        first = await deps
          .messages()
          .create(principal, { channelId: threadId, input: message, files: [] });
      } catch (err) {
        // A post never stands without its first message.
        await storage.channels.delete(threadId);
        throw err;
      }
      const thread = await storage.threads.find(threadId);
      const self = await storage.threads.findMember(threadId, principal.user.id);
      if (thread === null) throw new ApiError('UNKNOWN_CHANNEL');
      return { ...serializeThread(thread, self), message: first };
    },

    /**
     * POST /channels/{id}/messages/{message_id}/threads: a public thread (an announcement thread
     * in an announcement channel) whose id is the message's; the message gets HAS_THREAD.
     */
    async createFromMessage(
      principal: Principal,
      request: { channelId: string; messageId: string },
      input: ThreadFromMessageInput & { reason: string | null },
    ): Promise<ThreadWire> {
      return storage.transaction(async (tx) => {
        const access = await loadChannelAccess(tx, {
          channelId: request.channelId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        const parent = access.channel;
        if (
          parent.type !== ChannelTypes.GUILD_TEXT &&
          parent.type !== ChannelTypes.GUILD_ANNOUNCEMENT
        ) {
          throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
        }
        access.require(P.CREATE_PUBLIC_THREADS | P.READ_MESSAGE_HISTORY);
        const message = isSnowflake(request.messageId)
          ? await tx.messages.findById(parent.id, request.messageId)
          : null;
        if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
        if (await tx.channels.findById(message.id)) throw new ApiError('THREAD_ALREADY_CREATED');
        const { thread, self } = await writeThread(tx, {
          id: message.id,
          guildId: access.guild.guild.id,
          parentId: parent.id,
          type:
            parent.type === ChannelTypes.GUILD_ANNOUNCEMENT
              ? ChannelTypes.ANNOUNCEMENT_THREAD
              : ChannelTypes.PUBLIC_THREAD,
          name: input.name,
          ownerId: principal.user.id,
          autoArchiveDuration: input.auto_archive_duration ?? DEFAULT_AUTO_ARCHIVE_DURATION,
          rateLimitPerUser: input.rate_limit_per_user ?? 0,
          invitable: true,
          appliedTags: [],
          reason: input.reason,
        });
        await tx.messages.update(parent.id, message.id, {
          flags: message.flags | MessageFlags.HAS_THREAD,
        });
        return serializeThread(thread, self);
      });
    },
  };
  return creation;
}
