// The rules the native SDK shares with the TypeScript SDK (packages/sdk/src/rules.ts), held to
// the same cases by both test suites (packages/sdk/test/fixtures/social-rules.json):
// display-name order, friends-list groups, guild channel order, and the DM cache's answer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platformpp/enums.h"
#include "state.h"

namespace platformpp::detail {

/// Display names as the TypeScript SDK's Intl.Collator('en', {sensitivity: 'base', numeric:
/// true}) orders them: case and accents ignored, digit runs by their value, spaces and
/// punctuation before digits before letters. <0, 0 or >0.
int compareDisplayNames(std::string const& a, std::string const& b);

/// Friends of a group sort by display name, then by id (as decimal text).
bool friendBefore(std::string const& nameA, uint64_t idA, std::string const& nameB, uint64_t idB);

/// What decides a relationship's group.
struct FriendFacts {
  RelationshipType discord = RelationshipType::None;
  RelationshipType game = RelationshipType::None;
  /// The presence's status ("online", "idle", "dnd", "invisible", "offline"…), unset: none known.
  std::optional<std::string> status;
  /// Whether the presence shows an activity of this application.
  bool playingThisGame = false;
};

/// The friends-list group of a relationship; unset for one who is not a friend (either scope).
std::optional<RelationshipGroupType> friendGroup(FriendFacts const& facts);
/// The status a user shows: Blocked for a block (either scope), else their presence's.
StatusType statusOf(RelationshipType discord, RelationshipType game,
                    std::optional<std::string> const& presenceStatus);

/// A guild channel as the ordering reads it.
struct ChannelOrderEntry {
  uint64_t id = 0;
  int type = 0;
  int position = 0;
  std::optional<uint64_t> parentId;
};
/// The indices of `channels` in the web client's sidebar order: text and voice channels outside
/// any category, then each category followed by its channels (text before voice, then position,
/// then age); other types are left out.
std::vector<size_t> guildChannelOrder(std::vector<ChannelOrderEntry> const& channels);

/// Whether GetUserMessagesWithLimit answers from the cache without a request: it holds `limit`
/// contiguous messages, or the whole conversation.
bool cacheAnswers(ChannelHistory const* cached, int limit);
/// A history with more ids: the union, oldest first, without duplicates.
ChannelHistory mergeIds(ChannelHistory history, std::vector<uint64_t> const& ids);

}  // namespace platformpp::detail
