// Between the public value types and the platform's wire objects: activities (with the
// platform's limits, docs/gateway.md Presence), the checks operations share (ids, content,
// metadata), and the relationship and presence reads the areas share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "json.h"
#include "platformpp/activity.h"
#include "platformpp/handles.h"
#include "state.h"

namespace platformpp::detail {

/// The op 3 activity (empty members left out, as the platform drops them); the refusal when a
/// field breaks a limit.
std::optional<std::string> activityToWire(Activity const& activity, Json& out);
/// An activity as a presence shows it (buttons' URLs from `metadata`).
Activity activityFromWire(Json const& wire);

/// A message's or lobby's metadata: ≤25 keys, values ≤1024 characters; the refusal, if any.
std::optional<std::string> checkMetadata(std::string const& operation, std::string const& what,
                                         std::unordered_map<std::string, std::string> const& map);
/// Non-blank content of at most `max` characters (UTF-16 units, as the platform counts).
std::optional<std::string> checkContent(std::string const& operation, std::string const& content,
                                        size_t max);
/// A snowflake argument: not 0.
std::optional<std::string> checkId(std::string const& operation, std::string const& what,
                                   uint64_t id);
/// Characters as the platform counts them (UTF-16 code units).
size_t utf16Length(std::string const& text);
Json metadataJson(std::unordered_map<std::string, std::string> const& map);

RelationshipType relationshipTypeOf(Json const& relationship);
/// Whether either side of the pair is a friendship.
bool isFriend(RelationshipPair const& pair);
/// A user's status as the client knows it (state lock held).
StatusType userStatus(SocialState const& state, uint64_t userId);
/// Whether the user's presence shows an activity of this application.
bool playingApplication(SocialState const& state, uint64_t userId, uint64_t applicationId);
/// A provisional account: the platform names it provisional_<its id>.
bool isProvisionalUser(Json const& user);
/// The user's display name: global name, else username.
std::string displayNameOf(Json const& user);
/// An ISO 8601 timestamp (2025-01-02T03:04:05.678+00:00 or …Z) in Unix ms; 0 when it is not one.
uint64_t parseTimestamp(std::string const& text);
/// Unix ms as ISO 8601 in UTC with milliseconds (2025-01-02T03:04:05.678Z).
std::string isoTimestamp(uint64_t ms);

}  // namespace platformpp::detail
