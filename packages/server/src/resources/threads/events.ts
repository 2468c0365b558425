import type { Dispatch } from '../../events/dispatcher.js';
import type { ThreadMemberWire, ThreadWire } from './serialize.js';

/** THREAD_DELETE: the thread's ids and type, no more. */
export interface ThreadDeletePayload {
  id: string;
  guild_id: string;
  parent_id: ThreadWire['parent_id'];
  type: ThreadWire['type'];
}

/** THREAD_MEMBERS_UPDATE: who joined and who left, with the thread's member count. */
export interface ThreadMembersUpdatePayload {
  id: string;
  guild_id: string;
  member_count: ThreadWire['member_count'];
  added_members?: readonly ThreadMemberWire[];
  removed_member_ids?: readonly string[];
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    THREAD_CREATE: ThreadWire & { newly_created?: true };
    THREAD_UPDATE: ThreadWire;
    THREAD_DELETE: ThreadDeletePayload;
    THREAD_MEMBERS_UPDATE: ThreadMembersUpdatePayload;
    THREAD_MEMBER_UPDATE: ThreadMemberWire & { guild_id: string };
  }
}

/**
 * The thread dispatches (docs/threads.md#gateway-events). Each is gated by VIEW_CHANNEL of the
 * thread (`channelId`): the parent's, and for a private thread its membership or MANAGE_THREADS
 * (gateway/guildState.ts keeps both). THREAD_MEMBERS_UPDATE also reaches the users it adds or
 * removes, and THREAD_MEMBER_UPDATE only its user (gateway/routing.ts).
 */
export const threadDispatches = {
  /** `newly_created` on the thread's creation, absent when a user gains access to an old one. */
  create: (thread: ThreadWire, newlyCreated: boolean): Dispatch<'THREAD_CREATE'> => ({
    type: 'THREAD_CREATE',
    guildId: thread.guild_id,
    channelId: thread.id,
    data: { ...thread, ...(newlyCreated ? { newly_created: true } : {}) },
  }),
  update: (thread: ThreadWire): Dispatch<'THREAD_UPDATE'> => ({
    type: 'THREAD_UPDATE',
    guildId: thread.guild_id,
    channelId: thread.id,
    data: thread,
  }),
  delete: (thread: ThreadWire): Dispatch<'THREAD_DELETE'> => ({
    type: 'THREAD_DELETE',
    guildId: thread.guild_id,
    channelId: thread.id,
    data: {
      id: thread.id,
      guild_id: thread.guild_id,
      parent_id: thread.parent_id,
      type: thread.type,
    },
  }),
  membersUpdate: (
    thread: ThreadWire,
    change: { added?: readonly ThreadMemberWire[]; removedIds?: readonly string[] },
  ): Dispatch<'THREAD_MEMBERS_UPDATE'> => ({
    type: 'THREAD_MEMBERS_UPDATE',
    guildId: thread.guild_id,
    channelId: thread.id,
    data: {
      id: thread.id,
      guild_id: thread.guild_id,
      member_count: thread.member_count,
      ...(change.added === undefined ? {} : { added_members: change.added }),
      ...(change.removedIds === undefined ? {} : { removed_member_ids: change.removedIds }),
    },
  }),
  /** The current user's own membership changed (joined a thread). */
  memberUpdate: (guildId: string, member: ThreadMemberWire): Dispatch<'THREAD_MEMBER_UPDATE'> => ({
    type: 'THREAD_MEMBER_UPDATE',
    guildId,
    channelId: member.id,
    data: { ...member, guild_id: guildId },
  }),
};
