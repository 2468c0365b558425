/**
 * The rules the TypeScript SDK shares with the native SDK (packages/sdk-cpp/src/rules.cpp), held
 * to the same cases by both test suites (`test/fixtures/social-rules.json`): the order of display
 * names, the friends-list groups, and when the DM cache answers. The guild channel order is
 * `sortGuildChannels` (guilds.ts). docs/sdk-cpp.md, Shared rules.
 *
 * @module
 */
import { RelationshipGroupType, RelationshipType, StatusType } from './enums.js';
import type { ChannelHistory } from './state.js';

/** Display names compare without case or accents, digit runs by value. */
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Compares display names: case and accents ignored, numbers in numeric order. */
export function compareDisplayNames(a: string, b: string): number {
  return collator.compare(a, b);
}

/** Friends sort by display name, then by id (as text): <0 when `a` comes first. */
export function compareFriends(
  a: { id: string; name: string },
  b: { id: string; name: string },
): number {
  return compareDisplayNames(a.name, b.name) || a.id.localeCompare(b.id);
}

const STATUS_TYPES: Readonly<Record<string, StatusType>> = {
  online: StatusType.Online,
  idle: StatusType.Idle,
  dnd: StatusType.Dnd,
  invisible: StatusType.Invisible,
  offline: StatusType.Offline,
  streaming: StatusType.Streaming,
};

/** A user's status: `Blocked` for a block in either scope, else their presence's (or offline). */
export function statusFrom(
  discord: RelationshipType,
  game: RelationshipType,
  presenceStatus: string | null,
): StatusType {
  if (discord === RelationshipType.Blocked || game === RelationshipType.Blocked) {
    return StatusType.Blocked;
  }
  if (presenceStatus === null) return StatusType.Offline;
  return STATUS_TYPES[presenceStatus] ?? StatusType.Unknown;
}

/** What decides a relationship's group. */
export interface FriendFacts {
  discord: RelationshipType;
  game: RelationshipType;
  /** The presence's status, null when none is known. */
  status: string | null;
  /** Whether the presence shows an activity of this application. */
  playingThisGame: boolean;
}

/** The friends-list group of a relationship, null for one who is not a friend in either scope. */
export function friendGroup(facts: FriendFacts): RelationshipGroupType | null {
  if (facts.discord !== RelationshipType.Friend && facts.game !== RelationshipType.Friend) {
    return null;
  }
  const status = statusFrom(facts.discord, facts.game, facts.status);
  if (status === StatusType.Offline || status === StatusType.Invisible) {
    return RelationshipGroupType.Offline;
  }
  return facts.playingThisGame
    ? RelationshipGroupType.OnlinePlayingGame
    : RelationshipGroupType.OnlineElsewhere;
}

/**
 * Whether `getUserMessagesWithLimit` answers from the cache without a request: it holds `limit`
 * contiguous messages, or the whole conversation.
 */
export function cacheAnswers(cached: ChannelHistory | undefined, limit: number): boolean {
  return cached !== undefined && (cached.ids.length >= limit || cached.complete);
}

const bySnowflake = (a: string, b: string): number => {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** A history with more ids: the union, oldest first, without duplicates. */
export function mergeIds(history: ChannelHistory, ids: readonly string[]): ChannelHistory {
  const all = new Set(history.ids);
  for (const id of ids) all.add(id);
  return { ids: [...all].sort(bySnowflake), complete: history.complete };
}
