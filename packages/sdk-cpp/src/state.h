// The client's local view of the player's social graph, kept from READY and the dispatches after
// it (wire objects as JSON, as the TypeScript SDK's state.ts keeps them). Handles read through it.
// Only the game thread writes it (inside RunCallbacks), under Core::mutex.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "json.h"
#include "platformpp/activity.h"
#include "platformpp/handles.h"

namespace platformpp::detail {

/// Both sides of the player's relationship with one user (null when absent).
struct RelationshipPair {
  Json discord;
  Json game;
};

/// What the cache holds of one DM's history: ids oldest first, contiguous up to now.
struct ChannelHistory {
  std::vector<uint64_t> ids;
  /// True when ids reach back to the channel's first message.
  bool complete = false;
};

struct SocialState {
  Json currentUser;  // null until READY
  /// The application of the client's token, from READY (0 before).
  uint64_t applicationId = 0;
  std::map<uint64_t, Json> users;
  /// Friends' presences (and the player's own), by user id.
  std::map<uint64_t, Json> presences;
  std::map<uint64_t, RelationshipPair> relationships;
  std::map<uint64_t, Json> lobbies;
  /// DMs and group DMs.
  std::map<uint64_t, Json> channels;
  std::unordered_map<uint64_t, Json> messages;
  std::unordered_map<uint64_t, ChannelHistory> histories;

  /// Keeps the newest copy of a user seen anywhere (an author, a member, a relationship).
  void cacheUser(Json const& user);
  uint64_t currentUserId() const { return idAt(currentUser, "id"); }
  void clear();
};

/// What the areas keep beside the state (per client, across sessions unless said).
struct AreaState {
  // relationships: the groups as last computed (one line per group).
  std::string groupsSnapshot;
  // messages: ids deleted this session; a counter of gateway sessions.
  std::set<uint64_t> deletedIds;
  uint64_t session = 0;
  // lobbies: lobbies whose LOBBY_CREATE (or READY) this session has seen.
  std::set<uint64_t> announcedLobbies;
  // presence: what op 3 publishes (kept across sessions), invites received, accepts under way.
  std::string ownStatus = "online";
  Json ownActivity;  // null: none
  std::optional<std::string> applicationName;
  std::map<uint64_t, ActivityInvite> invites;  // by message id
  std::set<std::string> accepting;             // "party\nuser"
  // users: profiles as last read; the deprecation warning once.
  std::unordered_map<uint64_t, std::vector<UserApplicationProfileHandle>> profiles;
  bool warnedGetCurrentUser = false;
  // messages: whether this client injected its disclosure (once per client).
  bool disclosed = false;
  // token expiry: bumped when the token changes (an older token's notice does nothing), and the
  // worker's timer of the current notice (0: none).
  uint64_t tokenGeneration = 0;
  uint64_t tokenTimer = 0;
};

}  // namespace platformpp::detail
