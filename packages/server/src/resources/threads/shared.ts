import { AuditLogActions } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Repositories, ThreadPatch } from '../../storage/index.js';
import { diffChanges, recordAudit, snapshotChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import type { MessageService } from '../messages/index.js';
import type { ThreadAccess } from './access.js';
import { threadDispatches } from './events.js';
import { serializeThread, serializeThreadMember, type ThreadWire } from './serialize.js';

/** What the thread service needs beyond every service's deps: forum posts' first messages. */
export interface ThreadServiceDeps extends ServiceDeps {
  messages: () => MessageService;
}

/** The fields of a thread its audit entries show. */
export const auditView = (wire: ThreadWire) => ({
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
 * What the thread paths share, built from the service's deps: the tag check, writing a new
 * thread, and a change with its dispatch and audit entry.
 */
export function createThreadWrites(deps: ServiceDeps) {
  const { clock, ids } = deps;

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

  return { checkTags, writeThread, applyPatch };
}

export type ThreadWrites = ReturnType<typeof createThreadWrites>;
