// The handles' getters: each reads the client's state under its lock.
#include "platformpp/handles.h"

#include "core.h"
#include "wire.h"

namespace platformpp {

using detail::Json;

namespace {

Json const* userOf(detail::Core const& core, uint64_t id) {
  auto found = core.state.users.find(id);
  return found == core.state.users.end() ? nullptr : &found->second;
}

detail::RelationshipPair const* pairOf(detail::Core const& core, uint64_t id) {
  auto found = core.state.relationships.find(id);
  return found == core.state.relationships.end() ? nullptr : &found->second;
}

/// scheme://host[:port] of the API base: the CDN's origin.
std::string cdnOrigin(std::string const& apiBase) {
  size_t scheme = apiBase.find("://");
  size_t path = scheme == std::string::npos ? std::string::npos : apiBase.find('/', scheme + 3);
  return path == std::string::npos ? apiBase : apiBase.substr(0, path);
}

char const* extensionOf(AvatarType type) {
  switch (type) {
    case AvatarType::Gif: return "gif";
    case AvatarType::Webp: return "webp";
    case AvatarType::Png: return "png";
    case AvatarType::Jpeg: return "jpg";
  }
  return "png";
}

Json const* lobbyOf(detail::Core const& core, uint64_t id) {
  auto found = core.state.lobbies.find(id);
  return found == core.state.lobbies.end() ? nullptr : &found->second;
}

Json const* memberOf(detail::Core const& core, uint64_t lobbyId, uint64_t id) {
  Json const* lobby = lobbyOf(core, lobbyId);
  if (lobby == nullptr) return nullptr;
  for (auto const& member : detail::arrayAt(*lobby, "members")) {
    if (detail::idAt(member, "id") == id) return &member;
  }
  return nullptr;
}

}  // namespace

#define PLATFORMPP_LOCK(fallback) \
  if (!core_) return fallback;    \
  std::lock_guard lock(core_->mutex)

std::string UserHandle::Username() const {
  PLATFORMPP_LOCK("");
  Json const* user = userOf(*core_, id_);
  return user == nullptr ? "" : detail::strAt(*user, "username");
}

std::optional<std::string> UserHandle::GlobalName() const {
  PLATFORMPP_LOCK(std::nullopt);
  Json const* user = userOf(*core_, id_);
  return user == nullptr ? std::nullopt : detail::optStrAt(*user, "global_name");
}

std::string UserHandle::DisplayName() const {
  PLATFORMPP_LOCK("");
  Json const* user = userOf(*core_, id_);
  return user == nullptr ? "" : detail::displayNameOf(*user);
}

std::optional<std::string> UserHandle::Avatar() const {
  PLATFORMPP_LOCK(std::nullopt);
  Json const* user = userOf(*core_, id_);
  return user == nullptr ? std::nullopt : detail::optStrAt(*user, "avatar");
}

std::string UserHandle::AvatarUrl(AvatarType animatedType, AvatarType staticType) const {
  auto hash = Avatar();
  if (!hash) return "";
  AvatarType type = hash->rfind("a_", 0) == 0 ? animatedType : staticType;
  return cdnOrigin(core_->settings.apiBase) + "/avatars/" + std::to_string(id_) + "/" + *hash +
         "." + extensionOf(type);
}

bool UserHandle::IsProvisional() const {
  PLATFORMPP_LOCK(false);
  Json const* user = userOf(*core_, id_);
  return user != nullptr && detail::isProvisionalUser(*user);
}

StatusType UserHandle::Status() const {
  PLATFORMPP_LOCK(StatusType::Offline);
  return detail::userStatus(core_->state, id_);
}

std::optional<Activity> UserHandle::GameActivity() const {
  PLATFORMPP_LOCK(std::nullopt);
  uint64_t app = core_->ownApplicationId();
  auto found = core_->state.presences.find(id_);
  if (app == 0 || found == core_->state.presences.end()) return std::nullopt;
  for (auto const& activity : detail::arrayAt(found->second, "activities")) {
    if (detail::idAt(activity, "application_id") == app) return detail::activityFromWire(activity);
  }
  return std::nullopt;
}

RelationshipHandle UserHandle::Relationship() const {
  return core_ ? RelationshipHandle(core_, id_) : RelationshipHandle();
}

std::vector<UserApplicationProfileHandle> UserHandle::UserApplicationProfiles() const {
  PLATFORMPP_LOCK({});
  auto found = core_->areas.profiles.find(id_);
  return found == core_->areas.profiles.end() ? std::vector<UserApplicationProfileHandle>{}
                                              : found->second;
}

RelationshipType RelationshipHandle::DiscordRelationshipType() const {
  PLATFORMPP_LOCK(RelationshipType::None);
  auto const* pair = pairOf(*core_, id_);
  return pair == nullptr ? RelationshipType::None : detail::relationshipTypeOf(pair->discord);
}

RelationshipType RelationshipHandle::GameRelationshipType() const {
  PLATFORMPP_LOCK(RelationshipType::None);
  auto const* pair = pairOf(*core_, id_);
  return pair == nullptr ? RelationshipType::None : detail::relationshipTypeOf(pair->game);
}

bool RelationshipHandle::IsSpamRequest() const {
  PLATFORMPP_LOCK(false);
  auto const* pair = pairOf(*core_, id_);
  return pair != nullptr && (detail::boolAt(pair->discord, "is_spam_request") ||
                             detail::boolAt(pair->game, "is_spam_request"));
}

std::optional<UserHandle> RelationshipHandle::User() const {
  PLATFORMPP_LOCK(std::nullopt);
  if (userOf(*core_, id_) == nullptr) return std::nullopt;
  return UserHandle(core_, id_);
}

std::string ChannelHandle::Name() const {
  PLATFORMPP_LOCK("");
  auto found = core_->state.channels.find(id_);
  if (found == core_->state.channels.end()) {
    return core_->state.lobbies.count(id_) != 0 ? std::to_string(id_) : "";
  }
  if (auto name = detail::optStrAt(found->second, "name"); name && !name->empty()) return *name;
  std::string names;
  for (auto const& user : detail::arrayAt(found->second, "recipients")) {
    if (!names.empty()) names += ", ";
    names += detail::displayNameOf(user);
  }
  return names;
}

std::vector<uint64_t> ChannelHandle::Recipients() const {
  PLATFORMPP_LOCK({});
  std::vector<uint64_t> ids;
  auto found = core_->state.channels.find(id_);
  if (found != core_->state.channels.end()) {
    for (auto const& user : detail::arrayAt(found->second, "recipients")) {
      ids.push_back(detail::idAt(user, "id"));
    }
    return ids;
  }
  if (Json const* lobby = lobbyOf(*core_, id_)) {
    for (auto const& member : detail::arrayAt(*lobby, "members")) {
      ids.push_back(detail::idAt(member, "id"));
    }
  }
  return ids;
}

ChannelType ChannelHandle::Type() const {
  PLATFORMPP_LOCK(ChannelType::Lobby);
  auto found = core_->state.channels.find(id_);
  if (found == core_->state.channels.end()) return ChannelType::Lobby;
  return static_cast<ChannelType>(detail::intAt(found->second, "type", 1));
}

std::unordered_map<std::string, std::string> LobbyHandle::Metadata() const {
  PLATFORMPP_LOCK({});
  Json const* lobby = lobbyOf(*core_, id_);
  return lobby == nullptr ? std::unordered_map<std::string, std::string>{}
                          : detail::stringMap(detail::objectAt(*lobby, "metadata"));
}

std::vector<uint64_t> LobbyHandle::LobbyMemberIds() const {
  PLATFORMPP_LOCK({});
  std::vector<uint64_t> ids;
  if (Json const* lobby = lobbyOf(*core_, id_)) {
    for (auto const& member : detail::arrayAt(*lobby, "members")) {
      ids.push_back(detail::idAt(member, "id"));
    }
  }
  return ids;
}

std::vector<LobbyMemberHandle> LobbyHandle::LobbyMembers() const {
  std::vector<LobbyMemberHandle> members;
  for (uint64_t id : LobbyMemberIds()) members.emplace_back(core_, id_, id);
  return members;
}

std::optional<LobbyMemberHandle> LobbyHandle::GetLobbyMemberHandle(uint64_t memberId) const {
  PLATFORMPP_LOCK(std::nullopt);
  if (memberOf(*core_, id_, memberId) == nullptr) return std::nullopt;
  return LobbyMemberHandle(core_, id_, memberId);
}

std::optional<LinkedChannel> LobbyHandle::LinkedChannel() const {
  PLATFORMPP_LOCK(std::nullopt);
  Json const* lobby = lobbyOf(*core_, id_);
  if (lobby == nullptr) return std::nullopt;
  auto const& linked = detail::objectAt(*lobby, "linked_channel");
  if (linked.empty()) return std::nullopt;
  platformpp::LinkedChannel channel;
  channel.SetId(detail::idAt(linked, "id"));
  channel.SetName(detail::strAt(linked, "name"));
  channel.SetGuildId(detail::idAt(linked, "guild_id"));
  return channel;
}

bool LobbyMemberHandle::CanLinkLobby() const {
  PLATFORMPP_LOCK(false);
  Json const* member = memberOf(*core_, lobbyId_, id_);
  return member != nullptr && (detail::intAt(*member, "flags", 0) & 1) != 0;
}

bool LobbyMemberHandle::Connected() const {
  PLATFORMPP_LOCK(false);
  Json const* member = memberOf(*core_, lobbyId_, id_);
  return member != nullptr && detail::boolAt(*member, "connected");
}

std::unordered_map<std::string, std::string> LobbyMemberHandle::Metadata() const {
  PLATFORMPP_LOCK({});
  Json const* member = memberOf(*core_, lobbyId_, id_);
  return member == nullptr ? std::unordered_map<std::string, std::string>{}
                           : detail::stringMap(detail::objectAt(*member, "metadata"));
}

std::optional<std::string> LobbyMemberHandle::AdditionalName() const {
  PLATFORMPP_LOCK(std::nullopt);
  Json const* member = memberOf(*core_, lobbyId_, id_);
  return member == nullptr ? std::nullopt : detail::optStrAt(*member, "additional_name");
}

std::optional<UserHandle> LobbyMemberHandle::User() const {
  PLATFORMPP_LOCK(std::nullopt);
  if (userOf(*core_, id_) == nullptr) return std::nullopt;
  return UserHandle(core_, id_);
}

}  // namespace platformpp
