/** Guild message search (migration 0011_message_search). */

/** Where a guild's search index stands. */
export interface SearchIndexStatus {
  /** Whether every message of the guild is in the index. */
  ready: boolean;
  /** Messages of the guild's backfill indexed so far. */
  documentsIndexed: number;
}

/** Author kinds of a search filter: a webhook's message, a bot's, or a person's. */
export type SearchAuthorType = 'user' | 'bot' | 'webhook';

/** Things a message can have, for a search filter. */
export type SearchHasKind =
  'image' | 'sound' | 'video' | 'file' | 'sticker' | 'embed' | 'link' | 'poll' | 'snapshot';

/** Values to match (any of them) and values to refuse (none of them). */
export interface IncludeExclude<T> {
  include: readonly T[];
  exclude: readonly T[];
}

/**
 * One guild message search, already checked. Every filter given must hold; a list filter holds
 * when any of its values matches, except `has`, whose included kinds must all be present and
 * excluded kinds all absent.
 */
export interface MessageSearchQuery {
  guildId: string;
  /** The channels searched: those the caller may read (never empty). */
  channelIds: readonly string[];
  /** Words that must all appear in the content; null for no content filter. */
  terms: readonly string[] | null;
  authorIds?: readonly string[];
  authorTypes?: IncludeExclude<SearchAuthorType>;
  mentions?: readonly string[];
  mentionRoleIds?: readonly string[];
  mentionEveryone?: boolean;
  repliedToUserIds?: readonly string[];
  repliedToMessageIds?: readonly string[];
  pinned?: boolean;
  has?: IncludeExclude<SearchHasKind>;
  /** Wire embed types (`gifv`, not the query's `gif`). */
  embedTypes?: readonly string[];
  /** Embed provider names, matched exactly. */
  embedProviders?: readonly string[];
  /** Host names, matched without regard to case. */
  linkHostnames?: readonly string[];
  /** Attachment file names, matched without regard to case. */
  attachmentFilenames?: readonly string[];
  /** Extensions without the dot, matched without regard to case. */
  attachmentExtensions?: readonly string[];
  /** Only messages with a larger id. */
  minId?: string;
  /** Only messages with a smaller id. */
  maxId?: string;
  sortBy: 'timestamp' | 'relevance';
  sortOrder: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface MessageSearchRepository {
  status(guildId: string): Promise<SearchIndexStatus>;
  /** Guilds whose backfill is not finished. */
  pendingGuildIds(): Promise<string[]>;
  /**
   * Indexes the next `batchSize` not-yet-indexed messages of a guild in one transaction of its
   * own, and marks the guild ready (at `nowMs`) after the last. Concurrent callers never index a
   * message twice: the guild's row is locked while a batch runs.
   */
  backfill(
    guildId: string,
    options: { batchSize: number; nowMs: number },
  ): Promise<{ indexed: number; done: boolean }>;
  /** Drops a guild's index and starts its backfill over (an operator's repair). */
  reindex(guildId: string, nowMs: number): Promise<void>;
  /** The page of matching message ids, in order, and how many match in all. */
  search(query: MessageSearchQuery): Promise<{ messageIds: string[]; total: number }>;
}
