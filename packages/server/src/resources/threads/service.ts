import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { hasAll } from '../../domain/permissions.js';
import { MINUTE_MS } from '../../domain/time.js';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories, ThreadPatch, ThreadRecord } from '../../storage/index.js';
import { recordAudit, snapshotChanges } from '../auditLog/index.js';
import { accessTo, findThread, loadThreadAccess } from './access.js';
import { createThreadCreation } from './create.js';
import { threadDispatches } from './events.js';
import { isPrivateThread } from './rules.js';
import type { ModifyThreadInput } from './schemas.js';
import { serializeThread, serializeThreadMember, type ThreadWire } from './serialize.js';
import { auditView, createThreadWrites, type ThreadServiceDeps } from './shared.js';

export type { ThreadServiceDeps } from './shared.js';

/**
 * Threads: start one from a message or without, a forum or media post with its first message,
 * modify (archive, lock, tags), delete, and the auto-archive of idle threads
 * (docs/threads.md).
 */
export function createThreadService(deps: ThreadServiceDeps) {
  const { storage, clock, ids } = deps;

  const writes = createThreadWrites(deps);
  const { applyPatch, checkTags } = writes;

  return {
    // create, createPost and createFromMessage (POST …/threads).
    ...createThreadCreation(deps, writes),

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
