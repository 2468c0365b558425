// Lobbies: create or join by secret, leave, lobby messages, linked channels, and the lobby
// callbacks (docs/lobbies.md). The user's guilds and their channels are in client_guilds.cpp.
#include "areas.h"
#include "client_impl.h"
#include "rules.h"
#include "wire.h"

namespace platformpp {

using detail::Callbacks;
using detail::Events;
using detail::Json;

namespace {

constexpr size_t kMaxSecretLength = 250;
constexpr size_t kMaxMemberMetadataChars = 1000;
constexpr size_t kMaxLobbyMessageContent = 4000;
constexpr int kMaxLobbyMessages = 200;
/// The platform's "Invalid user type": a provisional account asked for a guild invite.
constexpr int32_t kInvalidUserType = 50229;

void onMember(detail::Core& core, Json const& data, int change, Events& events) {
  uint64_t lobbyId = detail::idAt(data, "lobby_id");
  auto const& member = detail::objectAt(data, "member");
  uint64_t memberId = detail::idAt(member, "id");
  auto lobby = core.state.lobbies.find(lobbyId);
  if (lobby == core.state.lobbies.end() || memberId == 0) return;
  Json& members = lobby->second["members"];
  if (!members.is_array()) members = Json::array();
  auto known = std::find_if(members.begin(), members.end(),
                            [&](Json const& m) { return detail::idAt(m, "id") == memberId; });
  core.state.cacheUser(detail::objectAt(member, "user"));
  if (change > 0) {  // LOBBY_MEMBER_ADD
    bool added = known == members.end();
    if (added) {
      members.push_back(member);
    } else {
      *known = member;
    }
    core.fire(events, added ? &Callbacks::lobbyMemberAdded : &Callbacks::lobbyMemberUpdated,
              lobbyId, memberId);
  } else if (change == 0) {  // LOBBY_MEMBER_UPDATE
    if (known != members.end()) detail::mergeInto(*known, member);
    core.fire(events, &Callbacks::lobbyMemberUpdated, lobbyId, memberId);
  } else {  // LOBBY_MEMBER_REMOVE
    if (known != members.end()) members.erase(known);
    core.fire(events, &Callbacks::lobbyMemberRemoved, lobbyId, memberId);
    // The player left or was removed: the lobby is no longer theirs to see.
    if (memberId == core.state.currentUserId()) detail::dropLobby(core, lobbyId, events);
  }
}

detail::HttpRequest lobbyRequest(std::string method, std::string path) {
  detail::HttpRequest request;
  request.method = std::move(method);
  request.path = std::move(path);
  return request;
}

}  // namespace

namespace detail {

void keepLobby(Core& core, Json const& lobby) {
  uint64_t id = idAt(lobby, "id");
  if (id == 0) return;
  core.state.lobbies[id] = lobby;
  for (auto const& member : arrayAt(lobby, "members")) {
    core.state.cacheUser(objectAt(member, "user"));
  }
}

void dropLobby(Core& core, uint64_t lobbyId, Events& events) {
  core.areas.announcedLobbies.erase(lobbyId);
  if (core.state.lobbies.erase(lobbyId) > 0) core.fire(events, &Callbacks::lobbyDeleted, lobbyId);
}

void installLobbies(Core& core) {
  core.on("READY", [&core](Json const& ready, Events&) {
    core.areas.announcedLobbies.clear();
    for (auto const& lobby : arrayAt(ready, "lobbies")) {
      keepLobby(core, lobby);
      core.areas.announcedLobbies.insert(idAt(lobby, "id"));
    }
  });
  core.on("LOBBY_CREATE", [&core](Json const& lobby, Events& events) {
    uint64_t id = idAt(lobby, "id");
    bool known = !core.areas.announcedLobbies.insert(id).second;
    keepLobby(core, lobby);
    core.fire(events, known ? &Callbacks::lobbyUpdated : &Callbacks::lobbyCreated, id);
  });
  core.on("LOBBY_UPDATE", [&core](Json const& lobby, Events& events) {
    keepLobby(core, lobby);
    core.fire(events, &Callbacks::lobbyUpdated, idAt(lobby, "id"));
  });
  core.on("LOBBY_DELETE", [&core](Json const& lobby, Events& events) {
    dropLobby(core, idAt(lobby, "id"), events);
  });
  core.on("LOBBY_MEMBER_ADD",
          [&core](Json const& data, Events& events) { onMember(core, data, 1, events); });
  core.on("LOBBY_MEMBER_UPDATE",
          [&core](Json const& data, Events& events) { onMember(core, data, 0, events); });
  core.on("LOBBY_MEMBER_REMOVE",
          [&core](Json const& data, Events& events) { onMember(core, data, -1, events); });
}

}  // namespace detail

void Client::CreateOrJoinLobby(std::string const& secret, CreateOrJoinLobbyCallback callback) {
  CreateOrJoinLobbyWithMetadata(secret, {}, {}, std::move(callback));
}

void Client::CreateOrJoinLobbyWithMetadata(std::string const& secret,
                                           Properties const& lobbyMetadata,
                                           Properties const& memberMetadata,
                                           CreateOrJoinLobbyCallback callback) {
  if (!impl_) return;
  bool withMetadata = !lobbyMetadata.empty() || !memberMetadata.empty();
  std::string op = withMetadata ? "CreateOrJoinLobbyWithMetadata" : "CreateOrJoinLobby";
  std::optional<std::string> refused;
  if (secret.empty()) {
    refused = op + ": the secret is empty; pass the lobby's secret.";
  } else if (detail::utf16Length(secret) > kMaxSecretLength) {
    refused = op + ": the secret is longer than " + std::to_string(kMaxSecretLength) +
              " characters.";
  } else if (!(refused = detail::checkMetadata(op, "lobbyMetadata", lobbyMetadata)) &&
             !(refused = detail::checkMetadata(op, "memberMetadata", memberMetadata))) {
    size_t chars = 0;
    for (auto const& [key, value] : memberMetadata) {
      chars += detail::utf16Length(key) + detail::utf16Length(value);
    }
    if (chars > kMaxMemberMetadataChars) {
      refused = op + ": memberMetadata has " + std::to_string(chars) +
                " characters of keys and values; the most is " +
                std::to_string(kMaxMemberMetadataChars) + ".";
    }
  }
  if (refused) return impl_->later(callback, detail::validationError(*refused), uint64_t{0});
  if (!impl_->core->ready()) {
    return impl_->later(callback, detail::notReadyError(op), uint64_t{0});
  }
  auto request = lobbyRequest("PUT", "/lobbies");
  request.json = Json{{"secret", secret}};
  if (withMetadata) {
    (*request.json)["lobby_metadata"] = detail::metadataJson(lobbyMetadata);
    (*request.json)["member_metadata"] = detail::metadataJson(memberMetadata);
  }
  auto core = impl_->core;
  // The LOBBY_CREATE dispatch that follows runs the lobby-created callback.
  impl_->request(std::move(request), [core, callback](detail::HttpOutcome outcome) {
    uint64_t id = 0;
    if (outcome.result.Successful()) {
      std::lock_guard lock(core->mutex);
      detail::keepLobby(*core, outcome.body);
      id = detail::idAt(outcome.body, "id");
    }
    if (callback) callback(outcome.result, id);
  });
}

void Client::LeaveLobby(uint64_t lobbyId, LeaveLobbyCallback callback) {
  if (!impl_) return;
  if (auto refused = detail::checkId("LeaveLobby", "lobbyId", lobbyId)) {
    return impl_->later(callback, detail::validationError(*refused));
  }
  if (!impl_->core->ready()) return impl_->later(callback, detail::notReadyError("LeaveLobby"));
  auto core = impl_->core;
  impl_->request(lobbyRequest("DELETE", "/lobbies/" + std::to_string(lobbyId) + "/members/@me"),
                 [core, callback, lobbyId](detail::HttpOutcome outcome) {
                   if (outcome.result.Successful()) {
                     Events events;
                     {
                       std::lock_guard lock(core->mutex);
                       detail::dropLobby(*core, lobbyId, events);
                     }
                     for (auto& event : events) core->guarded(event);
                   }
                   if (callback) callback(outcome.result);
                 });
}

std::optional<LobbyHandle> Client::GetLobbyHandle(uint64_t lobbyId) const {
  if (!impl_) return std::nullopt;
  std::lock_guard lock(impl_->core->mutex);
  if (impl_->core->state.lobbies.count(lobbyId) == 0) return std::nullopt;
  return LobbyHandle(impl_->core, lobbyId);
}

std::vector<uint64_t> Client::GetLobbyIds() const {
  std::vector<uint64_t> ids;
  if (!impl_) return ids;
  std::lock_guard lock(impl_->core->mutex);
  for (auto const& [id, lobby] : impl_->core->state.lobbies) ids.push_back(id);
  return ids;
}

void Client::SendLobbyMessage(uint64_t lobbyId, std::string const& content,
                              SendLobbyMessageCallback callback) {
  SendLobbyMessageWithMetadata(lobbyId, content, {}, std::move(callback));
}

void Client::SendLobbyMessageWithMetadata(uint64_t lobbyId, std::string const& content,
                                          Properties const& metadata,
                                          SendLobbyMessageCallback callback) {
  if (!impl_) return;
  std::string op = metadata.empty() ? "SendLobbyMessage" : "SendLobbyMessageWithMetadata";
  std::optional<std::string> refused;
  if ((refused = detail::checkId(op, "lobbyId", lobbyId)) ||
      (refused = detail::checkContent(op, content, kMaxLobbyMessageContent)) ||
      (refused = detail::checkMetadata(op, "metadata", metadata))) {
    return impl_->later(callback, detail::validationError(*refused), uint64_t{0});
  }
  if (!impl_->core->ready()) {
    return impl_->later(callback, detail::notReadyError(op), uint64_t{0});
  }
  auto request = lobbyRequest("POST", "/lobbies/" + std::to_string(lobbyId) + "/messages");
  request.json = Json{{"content", content}};
  if (!metadata.empty()) (*request.json)["metadata"] = detail::metadataJson(metadata);
  auto core = impl_->core;
  impl_->request(std::move(request), [core, callback](detail::HttpOutcome outcome) {
    uint64_t id = 0;
    if (outcome.result.Successful()) {
      {
        std::lock_guard lock(core->mutex);
        detail::keepMessage(*core, outcome.body);
        id = detail::idAt(outcome.body, "id");
      }
      detail::discloseOnce(*core, outcome.body, 0);
    }
    if (callback) callback(outcome.result, id);
  });
}

void Client::GetLobbyMessagesWithLimit(uint64_t lobbyId, int32_t limit,
                                       GetLobbyMessagesCallback callback) {
  if (!impl_) return;
  std::string op = "GetLobbyMessagesWithLimit";
  if (auto refused = detail::checkId(op, "lobbyId", lobbyId)) {
    return impl_->later(callback, detail::validationError(*refused), std::vector<MessageHandle>{});
  }
  if (limit < 1 || limit > kMaxLobbyMessages) {
    return impl_->later(callback,
                        detail::validationError(op + ": limit must be a whole number from 1 to " +
                                                std::to_string(kMaxLobbyMessages) + "."),
                        std::vector<MessageHandle>{});
  }
  if (!impl_->core->ready()) {
    return impl_->later(callback, detail::notReadyError(op), std::vector<MessageHandle>{});
  }
  auto request = lobbyRequest("GET", "/lobbies/" + std::to_string(lobbyId) + "/messages");
  request.query.emplace_back("limit", std::to_string(limit));
  auto core = impl_->core;
  impl_->request(std::move(request), [core, callback](detail::HttpOutcome outcome) {
    std::vector<MessageHandle> messages;
    if (outcome.result.Successful() && outcome.body.is_array()) {
      std::lock_guard lock(core->mutex);
      for (auto const& message : outcome.body) {
        detail::keepMessage(*core, message);
        messages.emplace_back(core, detail::idAt(message, "id"));
      }
    }
    if (callback) callback(outcome.result, messages);
  });
}

void Client::LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId,
                                LinkOrUnlinkChannelCallback callback) {
  if (!impl_) return;
  std::string op = channelId == 0 ? "UnlinkChannelFromLobby" : "LinkChannelToLobby";
  std::optional<std::string> refused = detail::checkId(op, "lobbyId", lobbyId);
  if (refused) return impl_->later(callback, detail::validationError(*refused));
  if (!impl_->core->ready()) return impl_->later(callback, detail::notReadyError(op));
  auto request =
      lobbyRequest("PATCH", "/lobbies/" + std::to_string(lobbyId) + "/channel-linking");
  request.json = channelId == 0 ? Json::object() : Json{{"channel_id", std::to_string(channelId)}};
  auto core = impl_->core;
  impl_->request(std::move(request), [core, callback](detail::HttpOutcome outcome) {
    if (outcome.result.Successful()) {
      std::lock_guard lock(core->mutex);
      detail::keepLobby(*core, outcome.body);
    }
    if (callback) callback(outcome.result);
  });
}

void Client::UnlinkChannelFromLobby(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback) {
  LinkChannelToLobby(lobbyId, 0, std::move(callback));
}

void Client::JoinLinkedLobbyGuild(uint64_t lobbyId,
                                  ProvisionalUserMergeRequiredCallback provisionalUserMergeRequired,
                                  JoinLinkedLobbyGuildCallback callback) {
  if (!impl_) return;
  std::string op = "JoinLinkedLobbyGuild";
  if (auto refused = detail::checkId(op, "lobbyId", lobbyId)) {
    return impl_->later(callback, detail::validationError(*refused), std::string());
  }
  if (!impl_->core->ready()) {
    return impl_->later(callback, detail::notReadyError(op), std::string());
  }
  auto request =
      lobbyRequest("POST", "/lobbies/" + std::to_string(lobbyId) + "/members/@me/invites");
  auto core = impl_->core;
  impl_->request(std::move(request), [core, callback, provisionalUserMergeRequired,
                                       op](detail::HttpOutcome outcome) {
    if (!outcome.result.Successful()) {
      ClientResult result = outcome.result;
      if (result.ErrorCode() == kInvalidUserType) {
        if (provisionalUserMergeRequired) provisionalUserMergeRequired();
        result.SetError(op +
                        ": a provisional account cannot join a guild; link the player's account "
                        "(Authorize, then GetTokenFromProvisionalMerge) and try again.");
      }
      if (callback) callback(result, "");
      return;
    }
    std::string url = core->settings.webBase + "/invite/" + detail::strAt(outcome.body, "code");
    core->openUrl(url);
    if (callback) callback(outcome.result, url);
  });
}

void Client::SetLobbyCreatedCallback(LobbyCreatedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::lobbyCreated, std::move(callback));
}
void Client::SetLobbyDeletedCallback(LobbyDeletedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::lobbyDeleted, std::move(callback));
}
void Client::SetLobbyUpdatedCallback(LobbyUpdatedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::lobbyUpdated, std::move(callback));
}
void Client::SetLobbyMemberAddedCallback(LobbyMemberAddedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::lobbyMemberAdded, std::move(callback));
}
void Client::SetLobbyMemberRemovedCallback(LobbyMemberRemovedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::lobbyMemberRemoved, std::move(callback));
}
void Client::SetLobbyMemberUpdatedCallback(LobbyMemberUpdatedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::lobbyMemberUpdated, std::move(callback));
}

}  // namespace platformpp
