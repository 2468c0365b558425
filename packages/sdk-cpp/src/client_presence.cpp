// Rich presence and activity invites (docs/social-presence.md): UpdateRichPresence,
// ClearRichPresence and SetOnlineStatus (gateway op 3, sent again after every READY: the platform
// keeps no presence for a new session), invites sent as DMs with an `activity`, accepted with
// POST /users/@me/activities/{party_id}/join, and the ACTIVITY_JOIN dispatch. Join requests
// (POST /users/@me/activities/{party_id}/join-request) reach the host's game as ActivityInvites
// of type JoinRequest (ACTIVITY_JOIN_REQUEST), answered with an invite.
#include "areas.h"
#include "client_impl.h"
#include "encoding.h"
#include "wire.h"

namespace platformpp {

using detail::Callbacks;
using detail::Events;
using detail::Json;

namespace {

constexpr size_t kMaxContent = 2000;
constexpr size_t kMaxKeptInvites = 200;
constexpr size_t kMaxName = 128;

Json presencePayload(detail::Core const& core) {
  return Json{{"since", nullptr},
              {"afk", false},
              {"status", core.areas.ownStatus},
              {"activities", core.areas.ownActivity.is_null()
                                 ? Json::array()
                                 : Json::array({core.areas.ownActivity})}};
}

/// What friends see of the player: everything but the secrets (state lock held).
void setOwnPresence(detail::Core& core) {
  uint64_t me = core.state.currentUserId();
  if (me == 0) return;
  Json activities = Json::array();
  if (!core.areas.ownActivity.is_null()) {
    Json shown = core.areas.ownActivity;
    shown.erase("secrets");
    if (core.state.applicationId != 0) {
      shown["application_id"] = detail::idText(core.state.applicationId);
    }
    activities.push_back(shown);
  }
  core.state.presences[me] = Json{{"user", {{"id", detail::idText(me)}}},
                                  {"status", core.areas.ownStatus},
                                  {"activities", activities}};
}

/// Sends op 3 now when Ready (the gateway keeps it for the next READY either way).
void publish(detail::Core& core) {
  Json payload;
  bool ready = false;
  {
    std::lock_guard lock(core.mutex);
    payload = presencePayload(core);
    ready = core.status == Client::Status::Ready;
    if (ready) setOwnPresence(core);
  }
  if (auto net = core.net.lock()) net->gateway.setPresence(std::move(payload));
}

/// Whether the inviter's presence (when the client sees it) still shows the party.
bool stillValid(detail::Core const& core, uint64_t senderId, std::string const& partyId,
                uint64_t applicationId) {
  auto const& state = core.state;
  auto presence = state.presences.find(senderId);
  auto pair = state.relationships.find(senderId);
  bool seen = presence != state.presences.end() ||
              (pair != state.relationships.end() && detail::isFriend(pair->second));
  if (!seen) return true;
  if (presence == state.presences.end()) return false;
  for (auto const& activity : detail::arrayAt(presence->second, "activities")) {
    if (detail::strAt(detail::objectAt(activity, "party"), "id") == partyId &&
        detail::idAt(activity, "application_id") == applicationId) {
      return true;
    }
  }
  return false;
}

void onInviteMessage(detail::Core& core, Json const& message, Events& events) {
  auto const& activity = detail::objectAt(message, "activity");
  auto partyId = detail::optStrAt(activity, "party_id");
  if (!partyId || (message.contains("guild_id") && !message["guild_id"].is_null())) return;
  uint64_t me = core.state.currentUserId();
  uint64_t author = detail::idAt(detail::objectAt(message, "author"), "id");
  if (me == 0 || author == me) return;
  uint64_t app = detail::idAt(message, "application_id");
  if (app == 0) app = detail::idAt(detail::objectAt(message, "application"), "id");
  uint64_t own = core.ownApplicationId();
  if (own != 0 && app != own) return;
  ActivityInvite invite;
  invite.SetSenderId(author);
  invite.SetChannelId(detail::idAt(message, "channel_id"));
  invite.SetMessageId(detail::idAt(message, "id"));
  invite.SetType(static_cast<ActivityActionTypes>(detail::intAt(activity, "type", 1)));
  invite.SetApplicationId(app);
  invite.SetPartyId(*partyId);
  invite.SetIsValid(stillValid(core, author, *partyId, app));
  auto& invites = core.areas.invites;
  invites[invite.MessageId()] = invite;
  if (invites.size() > kMaxKeptInvites) invites.erase(invites.begin());
  core.fire(events, &Callbacks::activityInviteCreated, invite);
}

void onJoin(detail::Core& core, Json const& join, Events& events) {
  std::string secret = detail::strAt(join, "secret");
  uint64_t app = detail::idAt(join, "application_id");
  std::string partyId = detail::strAt(join, "party_id");
  uint64_t userId = detail::idAt(join, "user_id");
  if (core.areas.accepting.erase(partyId + "\n" + std::to_string(userId)) == 0) {
    // Accepted on another device: the game hears of the invite it answered.
    ActivityInvite invite;
    invite.SetSenderId(userId);
    invite.SetChannelId(detail::idAt(join, "channel_id"));
    invite.SetMessageId(detail::idAt(join, "message_id"));
    invite.SetApplicationId(app);
    invite.SetPartyId(partyId);
    core.fire(events, &Callbacks::activityInviteCreated, invite);
  }
  core.fire(events, &Callbacks::activityJoin, secret);
  core.fire(events, &Callbacks::activityJoinWithApplication, app, secret);
}

/// Someone asks to join the player's party: an invite of type JoinRequest, answered with
/// SendActivityJoinRequestReply.
void onJoinRequest(detail::Core& core, Json const& request, Events& events) {
  core.state.cacheUser(detail::objectAt(request, "user"));
  ActivityInvite invite;
  invite.SetSenderId(detail::idAt(detail::objectAt(request, "user"), "id"));
  invite.SetType(ActivityActionTypes::JoinRequest);
  invite.SetApplicationId(detail::idAt(request, "application_id"));
  invite.SetPartyId(detail::strAt(request, "party_id"));
  core.fire(events, &Callbacks::activityInviteCreated, invite);
}

/// The party of the user's rich presence in this game that the client sees, or empty.
std::string visiblePartyOf(detail::Core const& core, uint64_t userId) {
  auto presence = core.state.presences.find(userId);
  if (presence == core.state.presences.end()) return {};
  uint64_t own = core.ownApplicationId();
  for (auto const& activity : detail::arrayAt(presence->second, "activities")) {
    std::string partyId = detail::strAt(detail::objectAt(activity, "party"), "id");
    if (!partyId.empty() && (own == 0 || detail::idAt(activity, "application_id") == own)) {
      return partyId;
    }
  }
  return {};
}

}  // namespace

namespace detail {

void revalidateInvites(Core& core, uint64_t userId, Events& events) {
  for (auto& [messageId, invite] : core.areas.invites) {
    if (invite.SenderId() != userId) continue;
    bool valid = stillValid(core, userId, invite.PartyId(), invite.ApplicationId());
    if (valid == invite.IsValid()) continue;
    invite.SetIsValid(valid);
    core.fire(events, &Callbacks::activityInviteUpdated, invite);
  }
}

void installPresence(Core& core) {
  core.on("READY", [&core](Json const&, Events&) { setOwnPresence(core); });
  core.on("MESSAGE_CREATE",
          [&core](Json const& message, Events& events) { onInviteMessage(core, message, events); });
  core.on("MESSAGE_DELETE", [&core](Json const& data, Events& events) {
    auto found = core.areas.invites.find(idAt(data, "id"));
    if (found == core.areas.invites.end()) return;
    ActivityInvite invite = found->second;
    core.areas.invites.erase(found);
    if (!invite.IsValid()) return;
    invite.SetIsValid(false);
    core.fire(events, &Callbacks::activityInviteUpdated, invite);
  });
  core.on("ACTIVITY_JOIN", [&core](Json const& join, Events& events) { onJoin(core, join, events); });
  core.on("ACTIVITY_JOIN_REQUEST", [&core](Json const& request, Events& events) {
    onJoinRequest(core, request, events);
  });
}

}  // namespace detail

void Client::UpdateRichPresence(Activity activity, UpdateRichPresenceCallback callback) {
  if (!impl_) return;
  Json wire;
  if (auto refused = detail::activityToWire(activity, wire)) {
    return impl_->later(callback, detail::validationError(*refused));
  }
  auto core = impl_->core;
  auto apply = [core, callback](Json finished) {
    {
      std::lock_guard lock(core->mutex);
      core->areas.ownActivity = std::move(finished);
    }
    publish(*core);
    if (callback) callback(detail::okResult());
  };
  if (!wire["name"].get<std::string>().empty()) {
    core->post([apply, wire] { apply(wire); });
    return;
  }
  std::optional<std::string> known;
  {
    std::lock_guard lock(core->mutex);
    known = core->areas.applicationName;
  }
  if (known) {
    wire["name"] = *known;
    core->post([apply, wire] { apply(wire); });
    return;
  }
  // An empty name shows the application's name (GET /oauth2/@me, read once).
  detail::HttpRequest request;
  request.path = "/oauth2/@me";
  impl_->request(std::move(request), [core, apply, wire, callback](detail::HttpOutcome outcome) {
    if (!outcome.result.Successful()) {
      if (callback) callback(outcome.result);
      return;
    }
    std::string name =
        detail::strAt(detail::objectAt(outcome.body, "application"), "name").substr(0, kMaxName);
    {
      std::lock_guard lock(core->mutex);
      core->areas.applicationName = name;
    }
    Json named = wire;
    named["name"] = name;
    apply(named);
  });
}

void Client::ClearRichPresence() {
  if (!impl_) return;
  {
    std::lock_guard lock(impl_->core->mutex);
    impl_->core->areas.ownActivity = nullptr;
  }
  publish(*impl_->core);
}

void Client::SetOnlineStatus(StatusType status, UpdateStatusCallback callback) {
  if (!impl_) return;
  char const* wire = nullptr;
  switch (status) {
    case StatusType::Online: wire = "online"; break;
    case StatusType::Idle: wire = "idle"; break;
    case StatusType::Dnd: wire = "dnd"; break;
    case StatusType::Invisible:
    case StatusType::Offline: wire = "invisible"; break;
    default: break;
  }
  if (wire == nullptr) {
    return impl_->later(callback,
                        detail::validationError(std::string("SetOnlineStatus: ") +
                                                EnumToString(status) +
                                                " cannot be set; use Online, Idle, Dnd or "
                                                "Invisible."));
  }
  {
    std::lock_guard lock(impl_->core->mutex);
    impl_->core->areas.ownStatus = wire;
  }
  publish(*impl_->core);
  impl_->later(callback, detail::okResult());
}

void Client::SendActivityInvite(uint64_t userId, std::string const& content,
                                SendActivityInviteCallback callback) {
  if (!impl_) return;
  std::string op = "SendActivityInvite";
  if (auto refused = detail::checkId(op, "userId", userId)) {
    return impl_->later(callback, detail::validationError(*refused));
  }
  if (detail::utf16Length(content) > kMaxContent) {
    return impl_->later(callback, detail::validationError(op + ": the content is longer than " +
                                                          std::to_string(kMaxContent) +
                                                          " characters."));
  }
  std::string partyId;
  bool hasSecret = false;
  {
    std::lock_guard lock(impl_->core->mutex);
    auto const& own = impl_->core->areas.ownActivity;
    partyId = detail::strAt(detail::objectAt(own, "party"), "id");
    hasSecret = !detail::strAt(detail::objectAt(own, "secrets"), "join").empty();
  }
  if (partyId.empty() || !hasSecret) {
    return impl_->later(callback,
                        detail::validationError(op +
                                                ": the rich presence has no party to join: "
                                                "UpdateRichPresence with a party id and a join "
                                                "secret first."));
  }
  detail::HttpRequest request;
  request.method = "POST";
  request.path = "/users/" + std::to_string(userId) + "/messages";
  request.json = Json{{"content", content}, {"activity", {{"type", 1}, {"party_id", partyId}}}};
  impl_->request(std::move(request), [callback](detail::HttpOutcome outcome) {
    if (callback) callback(outcome.result);
  });
}

void Client::SendActivityJoinRequest(uint64_t userId, SendActivityInviteCallback callback) {
  if (!impl_) return;
  if (auto refused = detail::checkId("SendActivityJoinRequest", "userId", userId)) {
    return impl_->later(callback, detail::validationError(*refused));
  }
  std::string partyId;
  {
    std::lock_guard lock(impl_->core->mutex);
    partyId = visiblePartyOf(*impl_->core, userId);
  }
  if (partyId.empty()) {
    return impl_->later(callback,
                        detail::validationError("SendActivityJoinRequest: the user is in no party "
                                                "of this game that the player can see."));
  }
  detail::HttpRequest request;
  request.method = "POST";
  request.path = "/users/@me/activities/" + detail::percentEncode(partyId) + "/join-request";
  request.json = Json{{"user_id", std::to_string(userId)}};
  impl_->request(std::move(request), [callback](detail::HttpOutcome outcome) {
    if (callback) callback(outcome.result);
  });
}

void Client::SendActivityJoinRequestReply(ActivityInvite invite,
                                          SendActivityInviteCallback callback) {
  if (!impl_) return;
  if (!invite || invite.Type() != ActivityActionTypes::JoinRequest) {
    return impl_->later(callback,
                        detail::validationError("SendActivityJoinRequestReply: pass the "
                                                "ActivityInvite of type JoinRequest received."));
  }
  // Lets the sender in: an activity invite to the player's party.
  SendActivityInvite(invite.SenderId(), "", std::move(callback));
}

void Client::AcceptActivityInvite(ActivityInvite invite, AcceptActivityInviteCallback callback) {
  if (!impl_) return;
  if (!invite || invite.SenderId() == 0 || invite.PartyId().empty()) {
    return impl_->later(callback,
                        detail::validationError(
                            "AcceptActivityInvite: pass an ActivityInvite with its sender and "
                            "party id."),
                        std::string());
  }
  auto core = impl_->core;
  std::string key = invite.PartyId() + "\n" + std::to_string(invite.SenderId());
  {
    std::lock_guard lock(core->mutex);
    core->areas.accepting.insert(key);
  }
  Json body{{"user_id", std::to_string(invite.SenderId())}};
  if (invite.ChannelId() != 0) body["channel_id"] = std::to_string(invite.ChannelId());
  if (invite.MessageId() != 0) body["message_id"] = std::to_string(invite.MessageId());
  detail::HttpRequest request;
  request.method = "POST";
  request.path = "/users/@me/activities/" + detail::percentEncode(invite.PartyId()) + "/join";
  request.json = body;
  impl_->request(std::move(request), [core, key, callback](detail::HttpOutcome outcome) {
    if (!outcome.result.Successful()) {
      std::lock_guard lock(core->mutex);
      core->areas.accepting.erase(key);
    }
    if (callback) callback(outcome.result, detail::strAt(outcome.body, "secret"));
  });
}

void Client::SetActivityInviteCreatedCallback(ActivityInviteCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::activityInviteCreated, std::move(callback));
}
void Client::SetActivityInviteUpdatedCallback(ActivityInviteCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::activityInviteUpdated, std::move(callback));
}
void Client::SetActivityJoinCallback(ActivityJoinCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::activityJoin, std::move(callback));
}
void Client::SetActivityJoinWithApplicationCallback(ActivityJoinWithApplicationCallback callback) {
  if (impl_) {
    impl_->core->setCallback(&Callbacks::activityJoinWithApplication, std::move(callback));
  }
}

}  // namespace platformpp
