import { ChannelTypes } from '@guildhall/protocol';

/**
 * The rules of threads (docs/threads.md): which types exist, where each may be made, how long a
 * thread waits before it archives itself.
 */

/** Announcement (10), public (11) and private (12) threads. */
export const THREAD_TYPES = new Set<number>([
  ChannelTypes.ANNOUNCEMENT_THREAD,
  ChannelTypes.PUBLIC_THREAD,
  ChannelTypes.PRIVATE_THREAD,
]);

export const isThreadType = (type: number): boolean => THREAD_TYPES.has(type);
export const isPrivateThread = (type: number): boolean => type === ChannelTypes.PRIVATE_THREAD;

/** Forum and media channels hold only posts (threads made with their first message). */
export const POST_PARENT_TYPES = new Set<number>([
  ChannelTypes.GUILD_FORUM,
  ChannelTypes.GUILD_MEDIA,
]);

/** Channels threads may be started in: text, announcement, forum and media. */
export const THREAD_PARENT_TYPES = new Set<number>([
  ChannelTypes.GUILD_TEXT,
  ChannelTypes.GUILD_ANNOUNCEMENT,
  ...POST_PARENT_TYPES,
]);

/** The auto-archive durations the platform takes, in minutes (1 hour, 1, 3 and 7 days). */
export const AUTO_ARCHIVE_DURATIONS = [60, 1440, 4320, 10080] as const;
/** A new thread's duration when the body names none. */
export const DEFAULT_AUTO_ARCHIVE_DURATION = 1440;

export const THREAD_LIMITS = {
  name: { min: 1, max: 100 },
  /** Tags a post may carry, and tags a forum may offer. */
  appliedTags: 5,
  availableTags: 20,
  tagName: 20,
  /** Thread members per page of GET /channels/{id}/thread-members. */
  members: { default: 100, max: 100 },
  /** Threads per page of the archived lists. */
  archived: { min: 2, max: 100, default: 50 },
  /** Threads per page of the thread search. */
  search: { max: 25, default: 25, maxOffset: 9975 },
  /** Threads archived by one pass of the auto-archive sweep. */
  sweepBatch: 100,
} as const;

/** The thread type a start-without-message makes in this parent: 10 in announcement channels. */
export function defaultThreadType(parentType: number): number {
  return parentType === ChannelTypes.GUILD_ANNOUNCEMENT
    ? ChannelTypes.ANNOUNCEMENT_THREAD
    : ChannelTypes.PRIVATE_THREAD;
}
