import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { hasAll } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories, ThreadMemberRecord } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { serializeMember, type MemberWire } from '../members/index.js';
import { loadThreadAccess, type ThreadAccess } from './access.js';
import { threadDispatches } from './events.js';
import { isPrivateThread } from './rules.js';
import { serializeThread, serializeThreadMember } from './serialize.js';

/** The guild members behind thread members, for `with_member=true`. */
async function guildMembersOf(
  repos: Repositories,
  guildId: string,
  records: readonly ThreadMemberRecord[],
): Promise<Map<string, MemberWire>> {
  const found = new Map<string, MemberWire>();
  const users = new Map(
    (await repos.users.findByIds(records.map((r) => r.userId))).map((u) => [u.id, u]),
  );
  for (const record of records) {
    const [member, user] = [
      await repos.members.find(guildId, record.userId),
      users.get(record.userId),
    ];
    if (member !== null && user !== undefined)
      found.set(record.userId, serializeMember(member, user));
  }
  return found;
}

/**
 * Thread members (docs/threads.md#members): join and leave, add and remove others, read one or
 * a page. Joining or adding needs the thread unarchived; THREAD_MEMBERS_UPDATE announces every
 * change, THREAD_MEMBER_UPDATE a join to the joining user.
 */
export function createThreadMemberService(deps: ServiceDeps) {
  const { storage, clock } = deps;

  const load = (repos: Repositories, principal: Principal, threadId: string) =>
    loadThreadAccess(repos, { threadId, userId: principal.user.id, nowMs: clock.now() });

  const add = async (tx: Repositories, access: ThreadAccess, userId: string) => {
    const { thread } = access;
    if (thread.archived) throw new ApiError('ARCHIVED_THREAD');
    const member = await tx.members.find(thread.channel.guildId, userId);
    if (member === null) throw new ApiError('UNKNOWN_MEMBER');
    const record = { threadId: thread.channel.id, userId, joinedAt: clock.now(), flags: 0 };
    if (!(await tx.threads.addMember(record))) return;
    const updated = (await tx.threads.find(thread.channel.id)) ?? thread;
    const wire = serializeThreadMember(record);
    afterCommit(tx, [
      threadDispatches.membersUpdate(serializeThread(updated), { added: [wire] }),
      threadDispatches.memberUpdate(thread.channel.guildId, wire),
    ]);
  };

  const remove = async (tx: Repositories, access: ThreadAccess, userId: string) => {
    const { thread } = access;
    if (thread.archived) throw new ApiError('ARCHIVED_THREAD');
    if (!(await tx.threads.removeMember(thread.channel.id, userId))) return;
    const updated = (await tx.threads.find(thread.channel.id)) ?? thread;
    afterCommit(
      tx,
      threadDispatches.membersUpdate(serializeThread(updated), { removedIds: [userId] }),
    );
  };

  return {
    /** PUT /channels/{id}/thread-members/@me: anyone who sees the thread. */
    async join(principal: Principal, threadId: string) {
      await storage.transaction(async (tx) => {
        const access = await load(tx, principal, threadId);
        access.require(0n);
        await add(tx, access, principal.user.id);
      });
    },

    /** DELETE /channels/{id}/thread-members/@me. */
    async leave(principal: Principal, threadId: string) {
      await storage.transaction(async (tx) => {
        const access = await load(tx, principal, threadId);
        access.require(0n);
        await remove(tx, access, principal.user.id);
      });
    },

    /**
     * PUT /channels/{id}/thread-members/{user_id}: the caller may send in the thread; into a
     * private thread only a member may invite (and only with MANAGE_THREADS when it is not
     * invitable).
     */
    async add(principal: Principal, request: { threadId: string; userId: string }) {
      await storage.transaction(async (tx) => {
        const access = await load(tx, principal, request.threadId);
        access.require(P.SEND_MESSAGES);
        const manager = hasAll(access.permissions, P.MANAGE_THREADS);
        if (isPrivateThread(access.thread.channel.type) && !manager) {
          if (access.membership === null || !access.thread.invitable) {
            throw new ApiError('MISSING_PERMISSIONS');
          }
        }
        if (!isSnowflake(request.userId)) throw new ApiError('UNKNOWN_MEMBER');
        await add(tx, access, request.userId);
      });
    },

    /**
     * DELETE /channels/{id}/thread-members/{user_id}: MANAGE_THREADS, or the owner of a private
     * thread.
     */
    async remove(principal: Principal, request: { threadId: string; userId: string }) {
      await storage.transaction(async (tx) => {
        const access = await load(tx, principal, request.threadId);
        access.require(0n);
        const ownPrivate =
          isPrivateThread(access.thread.channel.type) &&
          access.thread.ownerId === principal.user.id;
        if (!ownPrivate && !hasAll(access.permissions, P.MANAGE_THREADS)) {
          throw new ApiError('MISSING_PERMISSIONS');
        }
        if (!isSnowflake(request.userId)) throw new ApiError('UNKNOWN_MEMBER');
        await remove(tx, access, request.userId);
      });
    },

    /** GET /channels/{id}/thread-members/{user_id}: 10007 when the user is not a member. */
    async get(
      principal: Principal,
      request: { threadId: string; userId: string; withMember: boolean },
    ) {
      const access = await load(storage, principal, request.threadId);
      access.require(0n);
      const record = isSnowflake(request.userId)
        ? await storage.threads.findMember(access.thread.channel.id, request.userId)
        : null;
      if (record === null) throw new ApiError('UNKNOWN_MEMBER');
      if (!request.withMember) return serializeThreadMember(record);
      const members = await guildMembersOf(storage, access.thread.channel.guildId, [record]);
      return serializeThreadMember(record, members.get(record.userId));
    },

    /** GET /channels/{id}/thread-members: by user id, `after` and `limit`. */
    async list(
      principal: Principal,
      request: { threadId: string; withMember: boolean; after?: string; limit: number },
    ) {
      const access = await load(storage, principal, request.threadId);
      access.require(0n);
      const records = await storage.threads.listMembers(access.thread.channel.id, {
        limit: request.limit,
        ...(request.after === undefined ? {} : { after: request.after }),
      });
      if (!request.withMember) return records.map((r) => serializeThreadMember(r));
      const members = await guildMembersOf(storage, access.thread.channel.guildId, records);
      return records.map((r) => serializeThreadMember(r, members.get(r.userId)));
    },
  };
}

export type ThreadMemberService = ReturnType<typeof createThreadMemberService>;
