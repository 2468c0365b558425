import { PermissionFlags as P } from '@guildhall/protocol';
import { hasAll } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories, ThreadListQuery, ThreadRecord } from '../../storage/index.js';
import { loadGuildAccess, type GuildAccess } from '../access/index.js';
import { loadChannelAccess, overwritesByChannel } from '../channels/index.js';
import type { ServiceDeps } from '../deps.js';
import { threadPermissionsOf } from './access.js';
import { THREAD_PARENT_TYPES } from './rules.js';
import type { ThreadSearchInput } from './schemas.js';
import { serializeThread, serializeThreadMember } from './serialize.js';

/** The threads of a guild the caller may view, and the caller's memberships among them. */
export async function visibleThreads(
  repos: Repositories,
  input: { access: GuildAccess; userId: string; threads: readonly ThreadRecord[] },
) {
  const { access, userId, threads } = input;
  const parentIds = [...new Set(threads.map((t) => t.channel.parentId))];
  const [channels, overwrites, memberships] = await Promise.all([
    repos.channels.listByGuild(access.guild.id),
    repos.overwrites.listByChannels(parentIds),
    repos.threads.membershipsOf(
      userId,
      threads.map((t) => t.channel.id),
    ),
  ]);
  const parents = new Map(channels.map((c) => [c.id, c]));
  const byParent = overwritesByChannel(overwrites);
  const mine = new Map(memberships.map((m) => [m.threadId, m]));
  const visible = threads.filter((thread) => {
    const parent = parents.get(thread.channel.parentId);
    if (parent === undefined) return false;
    const bits = threadPermissionsOf(access, {
      thread,
      parent,
      parentOverwrites: byParent.get(parent.id) ?? [],
      member: mine.has(thread.channel.id),
    });
    return hasAll(bits, P.VIEW_CHANNEL);
  });
  return { threads: visible, memberships: mine };
}

/** A list answer (ThreadsResponse): the threads, the caller's memberships, `has_more`. */
function threadsResponse(
  threads: readonly ThreadRecord[],
  memberships: Map<string, Parameters<typeof serializeThreadMember>[0]>,
  hasMore: boolean,
) {
  return {
    threads: threads.map((t) => serializeThread(t)),
    members: threads.flatMap((t) => {
      const member = memberships.get(t.channel.id);
      return member === undefined ? [] : [serializeThreadMember(member)];
    }),
    has_more: hasMore,
  };
}

/** Which archived list: public (10 and 11), private (12, MANAGE_THREADS), or the caller's own. */
export type ArchivedKind = 'public' | 'private' | 'joined';

/**
 * The thread lists: a guild's active threads, a channel's archived ones (public, private, the
 * caller's private), and a forum's search.
 */
export function createThreadListService(deps: ServiceDeps) {
  const { storage, clock } = deps;

  /** The parent channel of an archived list or search, with READ_MESSAGE_HISTORY. */
  const loadParent = async (principal: Principal, channelId: string) => {
    const access = await loadChannelAccess(storage, {
      channelId,
      userId: principal.user.id,
      nowMs: clock.now(),
    });
    if (!THREAD_PARENT_TYPES.has(access.channel.type)) {
      throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    }
    access.require(P.READ_MESSAGE_HISTORY);
    return access;
  };

  return {
    /** GET /guilds/{id}/threads/active: every unarchived thread the caller may view. */
    async active(principal: Principal, guildId: string) {
      const access = await loadGuildAccess(storage, {
        guildId,
        userId: principal.user.id,
        nowMs: clock.now(),
      });
      const all = await storage.threads.listByGuild(access.guild.id, { archived: false });
      const { threads, memberships } = await visibleThreads(storage, {
        access,
        userId: principal.user.id,
        threads: all,
      });
      return threadsResponse(threads, memberships, false);
    },

    /**
     * GET /channels/{id}/threads/archived/{public|private} and
     * /channels/{id}/users/@me/threads/archived/private: newest archive first, `before` an
     * archive time (the caller's list: a thread id).
     */
    async archived(
      principal: Principal,
      request: { channelId: string; kind: ArchivedKind; before?: number | string; limit: number },
    ) {
      const access = await loadParent(principal, request.channelId);
      if (request.kind === 'private') access.require(P.MANAGE_THREADS);
      const query: ThreadListQuery = {
        archived: true,
        private: request.kind !== 'public',
        ...(request.kind === 'joined' ? { memberId: principal.user.id } : {}),
        ...(typeof request.before === 'number' ? { before: request.before } : {}),
      };
      let found = await storage.threads.listByParent(access.channel.id, query);
      if (typeof request.before === 'string') {
        const before = BigInt(request.before);
        found = found.filter((t) => BigInt(t.channel.id) < before);
        found.sort((a, b) => (BigInt(b.channel.id) > BigInt(a.channel.id) ? 1 : -1));
      }
      const page = found.slice(0, request.limit);
      const memberships = new Map(
        (
          await storage.threads.membershipsOf(
            principal.user.id,
            page.map((t) => t.channel.id),
          )
        ).map((m) => [m.threadId, m]),
      );
      return threadsResponse(page, memberships, found.length > request.limit);
    },

    /**
     * GET /channels/{id}/threads/search: a channel's threads whose name holds `name` (case
     * apart), with any (match_some) or all (match_all) of `tag`, archived or not, sorted and paged
     * by `offset` and `limit`; `total_results` counts every match.
     */
    async search(principal: Principal, channelId: string, query: ThreadSearchInput) {
      const access = await loadParent(principal, channelId);
      const lists = await Promise.all(
        (query.archived === undefined ? [false, true] : [query.archived]).map((archived) =>
          storage.threads.listByParent(access.channel.id, { archived }),
        ),
      );
      const guild = access.guild;
      const { threads: visible, memberships } = await visibleThreads(storage, {
        access: guild,
        userId: principal.user.id,
        threads: lists.flat(),
      });
      const name = query.name?.toLowerCase();
      const tags = query.tag === undefined ? [] : [query.tag].flat();
      const matchAll = query.tag_setting === 'match_all';
      const minId = query.min_id === undefined ? null : BigInt(query.min_id);
      const maxId = query.max_id === undefined ? null : BigInt(query.max_id);
      const matches = visible.filter((t) => {
        const id = BigInt(t.channel.id);
        if (minId !== null && id < minId) return false;
        if (maxId !== null && id > maxId) return false;
        if (name !== undefined && !(t.channel.name ?? '').toLowerCase().includes(name))
          return false;
        if (tags.length === 0) return true;
        return matchAll
          ? tags.every((tag) => t.appliedTags.includes(tag))
          : tags.some((tag) => t.appliedTags.includes(tag));
      });
      const key = (t: ThreadRecord): bigint => {
        switch (query.sort_by) {
          case 'archive_time':
            return BigInt(t.archiveTimestamp);
          case 'creation_time':
            return BigInt(t.channel.id);
          case 'last_message_time':
          case 'relevance':
          case undefined:
            return BigInt(t.channel.lastMessageId ?? t.channel.id);
        }
      };
      const direction = query.sort_order === 'asc' ? 1 : -1;
      matches.sort((a, b) => (key(a) === key(b) ? 0 : key(a) > key(b) ? direction : -direction));
      const page = matches.slice(query.offset, query.offset + query.limit);
      return {
        ...threadsResponse(page, memberships, query.offset + page.length < matches.length),
        total_results: matches.length,
      };
    },
  };
}

export type ThreadListService = ReturnType<typeof createThreadListService>;
