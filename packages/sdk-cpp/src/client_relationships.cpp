// Relationships: friends (platform-wide and in-game), requests, blocks, and the grouped friends
// list (docs/social-friends.md). State comes from social_sync.cpp; operations that need a
// relationship of a kind check the client's state first and refuse without a request.
#include <algorithm>
#include <cctype>

#include "areas.h"
#include "client_impl.h"
#include "rules.h"
#include "wire.h"

namespace platformpp {

using detail::Callbacks;
using detail::Json;

namespace {

constexpr char kDiscordBase[] = "/users/@me/relationships";
constexpr char kGameBase[] = "/users/@me/game-relationships";
/// The platform's usernames: at most 32 characters.
constexpr size_t kMaxUsernameLength = 32;

enum class Scope { Discord, Game };

std::string base(Scope scope) { return scope == Scope::Game ? kGameBase : kDiscordBase; }

RelationshipType typeIn(detail::Core const& core, uint64_t userId, Scope scope) {
  std::lock_guard lock(core.mutex);
  auto found = core.state.relationships.find(userId);
  if (found == core.state.relationships.end()) return RelationshipType::None;
  return detail::relationshipTypeOf(scope == Scope::Game ? found->second.game
                                                         : found->second.discord);
}

void send(detail::ClientImpl& impl, std::string method, std::string path, std::optional<Json> body,
          Client::UpdateRelationshipCallback callback) {
  detail::HttpRequest request;
  request.method = std::move(method);
  request.path = std::move(path);
  request.json = std::move(body);
  impl.request(std::move(request), [callback](detail::HttpOutcome outcome) {
    if (callback) callback(outcome.result);
  });
}

/// Runs a request per scope one after the other; the first failure ends it.
void sendEach(std::shared_ptr<detail::Core> core, std::vector<std::string> paths,
              Client::UpdateRelationshipCallback callback) {
  if (paths.empty()) {
    if (callback) callback(detail::okResult());
    return;
  }
  detail::HttpRequest request;
  request.method = "DELETE";
  request.path = paths.front();
  paths.erase(paths.begin());
  detail::sendRequest(core, std::move(request),
                      [core, paths, callback](detail::HttpOutcome outcome) {
                        if (!outcome.result.Successful()) {
                          if (callback) callback(outcome.result);
                          return;
                        }
                        sendEach(core, paths, callback);
                      });
}

/// The refusal when the relationship in `scope` is not of `wanted`.
std::optional<std::string> expect(detail::Core const& core, std::string const& op, uint64_t id,
                                  Scope scope, RelationshipType wanted) {
  if (auto refused = detail::checkId(op, "userId", id)) return refused;
  if (typeIn(core, id, scope) == wanted) return std::nullopt;
  std::string what = wanted == RelationshipType::PendingIncoming ? "no friend request from"
                     : wanted == RelationshipType::PendingOutgoing
                         ? "no friend request pending to"
                         : "no friendship with";
  return op + ": the player has " + what + " " + std::to_string(id) + " " +
         (scope == Scope::Game ? "in this game" : "platform-wide") +
         " (GetRelationshipHandle shows the relationship).";
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

#define PLATFORMPP_REFUSE(refused) \
  if (refused) return impl_->later(callback, detail::validationError(*refused))

std::vector<RelationshipHandle> Client::GetRelationships() const {
  std::vector<RelationshipHandle> out;
  if (!impl_) return out;
  std::lock_guard lock(impl_->core->mutex);
  for (auto const& [id, pair] : impl_->core->state.relationships) out.emplace_back(impl_->core, id);
  return out;
}

RelationshipHandle Client::GetRelationshipHandle(uint64_t userId) const {
  return impl_ ? RelationshipHandle(impl_->core, userId) : RelationshipHandle();
}

std::vector<RelationshipHandle> Client::GetRelationshipsByGroup(
    RelationshipGroupType groupType) const {
  std::vector<RelationshipHandle> out;
  if (!impl_) return out;
  for (uint64_t id : detail::sortedGroup(*impl_->core, groupType)) out.emplace_back(impl_->core, id);
  return out;
}

void Client::SetRelationshipGroupsUpdatedCallback(RelationshipGroupsUpdatedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::relationshipGroupsUpdated, std::move(callback));
}
void Client::SetRelationshipCreatedCallback(RelationshipCreatedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::relationshipCreated, std::move(callback));
}
void Client::SetRelationshipDeletedCallback(RelationshipDeletedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::relationshipDeleted, std::move(callback));
}

namespace {

/// `username`, or `username#discriminator` (the platform's legacy tag form).
void byName(detail::ClientImpl& impl, std::string const& op, Scope scope,
            std::string const& username, Client::SendFriendRequestCallback callback) {
  auto start = username.find_first_not_of(" \t");
  auto end = username.find_last_not_of(" \t");
  std::string trimmed = start == std::string::npos ? "" : username.substr(start, end - start + 1);
  std::string plain = trimmed.substr(0, trimmed.find('#'));
  if (plain.empty() || detail::utf16Length(plain) > kMaxUsernameLength) {
    impl.later(callback,
               detail::validationError(op + ": \"" + plain + "\" is not a username (1–" +
                                       std::to_string(kMaxUsernameLength) + " characters)."));
    return;
  }
  Json body{{"username", plain}};
  if (auto hash = trimmed.find('#'); hash != std::string::npos) {
    body["discriminator"] = trimmed.substr(hash + 1);
  }
  send(impl, "POST", base(scope), body, std::move(callback));
}

}  // namespace

void Client::SendDiscordFriendRequest(std::string const& username,
                                      SendFriendRequestCallback callback) {
  if (impl_) byName(*impl_, "SendDiscordFriendRequest", Scope::Discord, username, callback);
}

void Client::SendGameFriendRequest(std::string const& username,
                                   SendFriendRequestCallback callback) {
  if (impl_) byName(*impl_, "SendGameFriendRequest", Scope::Game, username, callback);
}

void Client::SendDiscordFriendRequestById(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(detail::checkId("SendDiscordFriendRequestById", "userId", userId));
  send(*impl_, "PUT", base(Scope::Discord) + "/" + std::to_string(userId), Json::object(),
       callback);
}

void Client::SendGameFriendRequestById(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(detail::checkId("SendGameFriendRequestById", "userId", userId));
  send(*impl_, "PUT", base(Scope::Game) + "/" + std::to_string(userId), Json::object(), callback);
}

void Client::AcceptDiscordFriendRequest(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(expect(*impl_->core, "AcceptDiscordFriendRequest", userId, Scope::Discord,
                           RelationshipType::PendingIncoming));
  send(*impl_, "PUT", base(Scope::Discord) + "/" + std::to_string(userId), Json::object(),
       callback);
}

void Client::AcceptGameFriendRequest(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(expect(*impl_->core, "AcceptGameFriendRequest", userId, Scope::Game,
                           RelationshipType::PendingIncoming));
  send(*impl_, "PUT", base(Scope::Game) + "/" + std::to_string(userId), Json::object(), callback);
}

void Client::RejectDiscordFriendRequest(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(expect(*impl_->core, "RejectDiscordFriendRequest", userId, Scope::Discord,
                           RelationshipType::PendingIncoming));
  send(*impl_, "DELETE", base(Scope::Discord) + "/" + std::to_string(userId), std::nullopt,
       callback);
}

void Client::RejectGameFriendRequest(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(expect(*impl_->core, "RejectGameFriendRequest", userId, Scope::Game,
                           RelationshipType::PendingIncoming));
  send(*impl_, "DELETE", base(Scope::Game) + "/" + std::to_string(userId), std::nullopt, callback);
}

void Client::CancelDiscordFriendRequest(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(expect(*impl_->core, "CancelDiscordFriendRequest", userId, Scope::Discord,
                           RelationshipType::PendingOutgoing));
  send(*impl_, "DELETE", base(Scope::Discord) + "/" + std::to_string(userId), std::nullopt,
       callback);
}

void Client::CancelGameFriendRequest(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(expect(*impl_->core, "CancelGameFriendRequest", userId, Scope::Game,
                           RelationshipType::PendingOutgoing));
  send(*impl_, "DELETE", base(Scope::Game) + "/" + std::to_string(userId), std::nullopt, callback);
}

void Client::RemoveDiscordAndGameFriend(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  std::string op = "RemoveDiscordAndGameFriend";
  PLATFORMPP_REFUSE(detail::checkId(op, "userId", userId));
  bool discord = typeIn(*impl_->core, userId, Scope::Discord) == RelationshipType::Friend;
  bool game = typeIn(*impl_->core, userId, Scope::Game) == RelationshipType::Friend;
  if (!discord && !game) {
    return impl_->later(callback, detail::validationError(
                                      op + ": " + std::to_string(userId) +
                                      " is not a friend of the player (GetRelationshipHandle "
                                      "shows the relationship)."));
  }
  std::vector<std::string> paths;
  if (discord) paths.push_back(base(Scope::Discord) + "/" + std::to_string(userId));
  if (game) paths.push_back(base(Scope::Game) + "/" + std::to_string(userId));
  sendEach(impl_->core, paths, callback);
}

void Client::RemoveGameFriend(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(
      expect(*impl_->core, "RemoveGameFriend", userId, Scope::Game, RelationshipType::Friend));
  send(*impl_, "DELETE", base(Scope::Game) + "/" + std::to_string(userId), std::nullopt, callback);
}

void Client::BlockUser(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(detail::checkId("BlockUser", "userId", userId));
  // A provisional account has no platform-wide relationships: the block is the game's.
  bool provisional = false;
  {
    std::lock_guard lock(impl_->core->mutex);
    auto const& state = impl_->core->state;
    auto them = state.users.find(userId);
    provisional = detail::isProvisionalUser(state.currentUser) ||
                  (them != state.users.end() && detail::isProvisionalUser(them->second));
  }
  Scope scope = provisional ? Scope::Game : Scope::Discord;
  send(*impl_, "PUT", base(scope) + "/" + std::to_string(userId),
       Json{{"type", static_cast<int>(RelationshipType::Blocked)}}, callback);
}

void Client::UnblockUser(uint64_t userId, UpdateRelationshipCallback callback) {
  if (!impl_) return;
  PLATFORMPP_REFUSE(detail::checkId("UnblockUser", "userId", userId));
  bool discord = typeIn(*impl_->core, userId, Scope::Discord) == RelationshipType::Blocked;
  bool game = typeIn(*impl_->core, userId, Scope::Game) == RelationshipType::Blocked;
  if (!discord && !game) {
    return impl_->later(callback, detail::validationError("UnblockUser: the player does not block " +
                                                          std::to_string(userId) + "."));
  }
  std::vector<std::string> paths;
  if (discord) paths.push_back(base(Scope::Discord) + "/" + std::to_string(userId));
  if (game) paths.push_back(base(Scope::Game) + "/" + std::to_string(userId));
  sendEach(impl_->core, paths, callback);
}

std::vector<UserHandle> Client::SearchFriendsByUsername(std::string searchStr) const {
  std::vector<UserHandle> found;
  if (!impl_) return found;
  auto start = searchStr.find_first_not_of(" \t");
  auto end = searchStr.find_last_not_of(" \t");
  std::string needle =
      lower(start == std::string::npos ? "" : searchStr.substr(start, end - start + 1));
  std::vector<std::pair<std::string, uint64_t>> matches;
  {
    std::lock_guard lock(impl_->core->mutex);
    auto const& state = impl_->core->state;
    for (auto const& [id, pair] : state.relationships) {
      if (!detail::isFriend(pair)) continue;
      auto user = state.users.find(id);
      if (user == state.users.end()) continue;
      std::string display = detail::displayNameOf(user->second);
      std::string username = detail::strAt(user->second, "username");
      if (lower(username).find(needle) != std::string::npos ||
          lower(display).find(needle) != std::string::npos) {
        matches.emplace_back(display, id);
      }
    }
  }
  std::sort(matches.begin(), matches.end(), [](auto const& a, auto const& b) {
    return detail::friendBefore(a.first, a.second, b.first, b.second);
  });
  for (auto const& match : matches) found.emplace_back(impl_->core, match.second);
  return found;
}

}  // namespace platformpp
