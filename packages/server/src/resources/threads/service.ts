import {
  AuditLogActions,
  ChannelTypes,
  MessageFlags,
  PermissionFlags as P,
  isSnowflake,
} from '@guildhall/protocol';
import { hasAll } from '../../domain/permissions.js';
import { MINUTE_MS } from '../../domain/time.js';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories, ThreadPatch, ThreadRecord } from '../../storage/index.js';
import { diffChanges, recordAudit, snapshotChanges } from '../auditLog/index.js';
import { loadChannelAccess } from '../channels/index.js';
import type { ServiceDeps } from '../deps.js';
import type { MessageService, MessageWire } from '../messages/index.js';
import { accessTo, findThread, loadThreadAccess, type ThreadAccess } from './access.js';
import { threadDispatches } from './events.js';
import {
  DEFAULT_AUTO_ARCHIVE_DURATION,
  POST_PARENT_TYPES,
  THREAD_PARENT_TYPES,
  defaultThreadType,
  isPrivateThread,
} from './rules.js';
import type { CreateThreadInput, ModifyThreadInput, ThreadFromMessageInput } from './schemas.js';
import { serializeThread, serializeThreadMember, type ThreadWire } from './serialize.js';

/** What the thread service needs beyond every service's deps: forum posts' first messages. */
export interface ThreadServiceDeps extends ServiceDeps {
  messages: () => MessageService;
}

/** The fields of a thread its audit entries show. */
const auditView = (wire: ThreadWire) => ({
  name: wire.name,
  type: wire.type,
  archived: wire.thread_metadata.archived,
  locked: wire.thread_metadata.locked,
  auto_archive_duration: wire.thread_metadata.auto_archive_duration,
  rate_limit_per_user: wire.rate_limit_per_user,
  ...(wire.thread_metadata.invitable === undefined
    ? {}
    : { invitable: wire.thread_metadata.invitable }),
  applied_tags: wire.applied_tags,
});

/**
 * Threads: start one from a message or without, a forum or media post with its first message,
 * modify (archive, lock, tags), delete, and the auto-archive of idle threads
 * (docs/threads.md).
 */
export function createThreadService(deps: ThreadServiceDeps) {
  const { storage, clock, ids } = deps;

  /** The tags a post may carry: the parent's own, moderated ones only with MANAGE_THREADS. */
  const checkTags = async (
    repos: Repositories,
    input: { parentId: string; tags: readonly string[]; canModerate: boolean },
  ) => {
    if (input.tags.length === 0) return;
    const available = new Map(
      (await repos.threads.listTags([input.parentId])).map((tag) => [tag.id, tag]),
    );
    for (const id of input.tags) {
      const tag = available.get(id);
      if (tag === undefined) throw new ApiError('UNKNOWN_TAG');
      if (tag.moderated && !input.canModerate) throw new ApiError('MISSING_PERMISSIONS');
    }
  };

  /** Writes a new thread with its creator as first member and announces it. */
  const writeThread = async (
    tx: Repositories,
    input: {
      id: string;
      guildId: string;
      parentId: string;
      type: number;
      name: string;
      ownerId: string;
      autoArchiveDuration: number;
      rateLimitPerUser: number;
      invitable: boolean;
      appliedTags: string[];
      reason: string | null;
    },
  ) => {
    const now = clock.now();
    await tx.threads.create({
      channel: {
        id: input.id,
        guildId: input.guildId,
        parentId: input.parentId,
        type: input.type,
        name: input.name,
        position: 0,
        topic: null,
        nsfw: false,
        rateLimitPerUser: input.rateLimitPerUser,
        bitrate: null,
        userLimit: null,
        flags: 0,
        lastMessageId: null,
        createdAt: now,
        applicationId: null,
      },
      ownerId: input.ownerId,
      autoArchiveDuration: input.autoArchiveDuration,
      invitable: input.invitable,
      appliedTags: input.appliedTags,
      createdAt: now,
    });
    await tx.threads.addMember({
      threadId: input.id,
      userId: input.ownerId,
      joinedAt: now,
      flags: 0,
    });
    const thread = await tx.threads.find(input.id);
    if (thread === null) throw new ApiError('UNKNOWN_CHANNEL');
    const wire = serializeThread(thread);
    afterCommit(tx, threadDispatches.create(wire, true));
    const self = await tx.threads.findMember(input.id, input.ownerId);
    if (self !== null) {
      afterCommit(
        tx,
        threadDispatches.membersUpdate(wire, { added: [serializeThreadMember(self)] }),
      );
    }
    await recordAudit(tx, ids, {
      guildId: input.guildId,
      userId: input.ownerId,
      targetId: input.id,
      actionType: AuditLogActions.THREAD_CREATE,
      changes: snapshotChanges(auditView(wire)),
      reason: input.reason,
    });
    return { thread, self };
  };

  /** Announces a thread change with its audit entry; returns the thread as it is now. */
  const applyPatch = async (
    tx: Repositories,
    access: ThreadAccess,
    input: {
      userId: string | null;
      patch: ThreadPatch;
      reason: string | null;
      name?: string;
      rateLimitPerUser?: number;
      flags?: number;
    },
  ) => {
    const { thread } = access;
    const before = serializeThread(thread);
    const channelPatch = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.rateLimitPerUser === undefined ? {} : { rateLimitPerUser: input.rateLimitPerUser }),
      ...(input.flags === undefined ? {} : { flags: input.flags }),
    };
    if (Object.keys(channelPatch).length > 0)
      await tx.channels.update(thread.channel.id, channelPatch);
    const updated = (await tx.threads.update(thread.channel.id, input.patch)) ?? thread;
    const after = serializeThread(updated);
    const changes = diffChanges(auditView(before), auditView(after));
    if (changes.length > 0) {
      afterCommit(tx, threadDispatches.update(after));
      await recordAudit(tx, ids, {
        guildId: thread.channel.guildId,
        userId: input.userId,
        targetId: thread.channel.id,
        actionType: AuditLogActions.THREAD_UPDATE,
        changes,
        reason: input.reason,
      });
    }
    return updated;
  };

  return {
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
      if (isPost) return this.createPost(principal, parentId, input);
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

    /** GET /channels/{id} of a thread: VIEW_CHANNEL (for a private one, membership). */
    async get(principal: Principal, threadId: string): Promise<ThreadWire> {
      const access = await loadThreadAccess(storage, {
        threadId,
        userId: principal.user.id,
        nowMs: clock.now(),
      });
      access.require(0n);
      return serializeThread(access.thread, access.membership);
    },

    /**
     * PATCH /channels/{id} of a thread. The owner may rename, archive and unarchive it, change
     * its auto-archive duration and tags; everything else (lock, invitable, slowmode, flags) and
     * anyone else's thread need MANAGE_THREADS. An archived thread takes a change only with
     * `archived: false`; a locked one is unarchived only with MANAGE_THREADS.
     */
    async modify(
      principal: Principal,
      threadId: string,
      input: ModifyThreadInput & { reason: string | null },
    ): Promise<ThreadWire> {
      return storage.transaction(async (tx) => {
        const access = await loadThreadAccess(tx, {
          threadId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        access.require(0n);
        const { thread } = access;
        const manager = hasAll(access.permissions, P.MANAGE_THREADS);
        const owner = thread.ownerId === principal.user.id;
        const managerOnly =
          input.locked != null ||
          input.invitable != null ||
          input.rate_limit_per_user != null ||
          input.flags != null;
        if (!manager && (managerOnly || !owner)) throw new ApiError('MISSING_PERMISSIONS');
        if (thread.locked && !manager) throw new ApiError('THREAD_LOCKED');
        const unarchiving = input.archived === false;
        const others = Object.entries(input).some(
          ([key, value]) => key !== 'archived' && key !== 'reason' && value != null,
        );
        if (thread.archived && !unarchiving && others) throw new ApiError('ARCHIVED_THREAD');
        if (input.invitable != null && !isPrivateThread(thread.channel.type)) {
          throw invalidField(
            ['invitable'],
            'BASE_TYPE_INVALID',
            'Only private threads are invitable.',
          );
        }
        if (input.applied_tags != null) {
          await checkTags(tx, {
            parentId: thread.channel.parentId,
            tags: input.applied_tags,
            canModerate: manager,
          });
        }
        const now = clock.now();
        const patch: ThreadPatch = {};
        if (input.archived != null && input.archived !== thread.archived) {
          patch.archived = input.archived;
          patch.archiveTimestamp = now;
          if (!input.archived) patch.lastActivityAt = now;
        }
        if (input.locked != null) patch.locked = input.locked;
        if (input.invitable != null) patch.invitable = input.invitable;
        if (input.auto_archive_duration != null) {
          patch.autoArchiveDuration = input.auto_archive_duration;
        }
        if (input.applied_tags != null) patch.appliedTags = [...new Set(input.applied_tags)];
        const updated = await applyPatch(tx, access, {
          userId: principal.user.id,
          patch,
          reason: input.reason,
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.rate_limit_per_user == null
            ? {}
            : { rateLimitPerUser: input.rate_limit_per_user }),
          ...(input.flags == null ? {} : { flags: input.flags }),
        });
        return serializeThread(updated, access.membership);
      });
    },

    /** DELETE /channels/{id} of a thread: MANAGE_THREADS; its messages and members go with it. */
    async delete(principal: Principal, threadId: string, reason: string | null) {
      return storage.transaction(async (tx) => {
        const access = await loadThreadAccess(tx, {
          threadId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        access.require(P.MANAGE_THREADS);
        const wire = serializeThread(access.thread);
        await tx.channels.delete(threadId);
        afterCommit(tx, threadDispatches.delete(wire));
        await recordAudit(tx, ids, {
          guildId: wire.guild_id,
          userId: principal.user.id,
          targetId: wire.id,
          actionType: AuditLogActions.THREAD_DELETE,
          changes: snapshotChanges(auditView(wire), 'old'),
          reason,
        });
        return wire;
      });
    },

    /**
     * Before a message is posted in a thread (the message routes ask): a locked thread takes
     * messages only from MANAGE_THREADS; an archived one is unarchived by the post.
     */
    async beforePost(
      tx: Repositories,
      request: { threadId: string; userId: string; permissions: bigint },
    ) {
      const thread = await tx.threads.find(request.threadId);
      if (thread === null) return;
      if (thread.locked && !hasAll(request.permissions, P.MANAGE_THREADS)) {
        throw new ApiError('THREAD_LOCKED');
      }
      if (!thread.archived) return;
      const access = await accessTo(tx, thread, { userId: request.userId, nowMs: clock.now() });
      const now = clock.now();
      await applyPatch(tx, access, {
        userId: null,
        patch: { archived: false, archiveTimestamp: now, lastActivityAt: now },
        reason: null,
      });
    },

    /**
     * After a post (in its group transaction): the thread counts it and wakes, and its author
     * becomes a member (THREAD_MEMBERS_UPDATE), as on the platform.
     */
    async posted(tx: Repositories, request: { threadId: string; userId: string; nowMs: number }) {
      await tx.threads.recordMessage(request.threadId, request.nowMs);
      const member = {
        threadId: request.threadId,
        userId: request.userId,
        joinedAt: request.nowMs,
        flags: 0,
      };
      if (!(await tx.threads.addMember(member))) return;
      const thread = await tx.threads.find(request.threadId);
      if (thread === null) return;
      const wire = serializeThreadMember(member);
      afterCommit(tx, [
        threadDispatches.membersUpdate(serializeThread(thread), { added: [wire] }),
        threadDispatches.memberUpdate(thread.channel.guildId, wire),
      ]);
    },

    /**
     * Archives the threads idle past their auto-archive duration at the clock's now (the
     * sweep's pass); returns how many.
     */
    async archiveIdle(limit: number): Promise<number> {
      const due = await storage.threads.listDueToArchive(clock.now(), limit);
      let archived = 0;
      for (const candidate of due) {
        const done = await storage.transaction(async (tx) => {
          const thread: ThreadRecord | null = await tx.threads.find(candidate.channel.id);
          const now = clock.now();
          if (thread === null || thread.archived) return false;
          if (thread.lastActivityAt + thread.autoArchiveDuration * MINUTE_MS > now) return false;
          const updated = await tx.threads.update(thread.channel.id, {
            archived: true,
            archiveTimestamp: now,
          });
          if (updated !== null) afterCommit(tx, threadDispatches.update(serializeThread(updated)));
          return true;
        });
        if (done) archived++;
      }
      return archived;
    },

    findThread,
  };
}

export type ThreadService = ReturnType<typeof createThreadService>;
