// The one keeper of users, relationships and presences in the state (the TypeScript SDK's
// socialSync): READY fills them, the dispatches after it keep them, and the areas hear of what
// changed (a user's data, their presence, the friends list's groups).
#include <algorithm>

#include "areas.h"
#include "rules.h"
#include "wire.h"

namespace platformpp::detail {

namespace {

std::string userSignature(SocialState const& state, uint64_t id) {
  auto found = state.users.find(id);
  if (found == state.users.end()) return "";
  auto const& user = found->second;
  return toText(Json::array({user.value("username", Json()), user.value("global_name", Json()),
                             user.value("avatar", Json())}));
}

std::string presenceSignature(SocialState const& state, uint64_t id) {
  auto found = state.presences.find(id);
  if (found == state.presences.end()) return "offline";
  return toText(Json::array({found->second.value("status", Json()),
                             found->second.value("activities", Json::array())}));
}

bool gameScoped(Json const& relationship) {
  return relationship.is_object() && relationship.contains("application_id") &&
         !relationship["application_id"].is_null();
}

/// `announce`: fire the created/deleted callback (an update of a relationship fires none).
void onRelationship(Core& core, Json const& data, bool removed, bool announce, Events& events) {
  auto& state = core.state;
  uint64_t id = idAt(data, "id");
  if (id == 0) return;
  // A game relationship of another game is not this client's (the gateway scopes them).
  uint64_t app = idAt(data, "application_id");
  if (gameScoped(data) && state.applicationId != 0 && app != state.applicationId) return;
  std::string userBefore = userSignature(state, id);
  state.cacheUser(objectAt(data, "user"));
  auto& pair = state.relationships[id];
  (gameScoped(data) ? pair.game : pair.discord) = removed ? Json() : data;
  bool gone = pair.discord.is_null() && pair.game.is_null();
  bool friends = !gone && isFriend(pair);
  if (gone) state.relationships.erase(id);
  // An ended friendship sends no PRESENCE_UPDATE: the presence is dropped here.
  if (!friends && state.presences.erase(id) > 0) revalidateInvites(core, id, events);
  if (userSignature(state, id) != userBefore) core.fire(events, &Callbacks::userUpdated, id);
  recomputeGroups(core, id, events);
  bool isDiscord = !gameScoped(data);
  if (!announce) return;
  if (removed) {
    core.fire(events, &Callbacks::relationshipDeleted, id, isDiscord);
  } else {
    core.fire(events, &Callbacks::relationshipCreated, id, isDiscord);
  }
}

}  // namespace

void installSocialSync(Core& core) {
  // First of every READY handler: a new session starts from a clean state.
  core.on("READY", [&core](Json const& ready, Events& events) {
    auto& state = core.state;
    state.clear();
    state.currentUser = objectAt(ready, "user");
    state.applicationId = idAt(objectAt(ready, "application"), "id");
    state.cacheUser(state.currentUser);
    for (auto const& relationship : arrayAt(ready, "relationships")) {
      uint64_t id = idAt(relationship, "id");
      if (id == 0) continue;
      state.cacheUser(objectAt(relationship, "user"));
      auto& pair = state.relationships[id];
      (gameScoped(relationship) ? pair.game : pair.discord) = relationship;
    }
    for (auto const& presence : arrayAt(ready, "presences")) {
      uint64_t id = idAt(objectAt(presence, "user"), "id");
      if (id != 0) state.presences[id] = presence;
    }
    recomputeGroups(core, state.currentUserId(), events);
  });

  core.on("USER_UPDATE", [&core](Json const& user, Events& events) {
    auto& state = core.state;
    uint64_t id = idAt(user, "id");
    std::string before = userSignature(state, id);
    state.cacheUser(user);
    if (id != 0 && id == state.currentUserId()) mergeInto(state.currentUser, user);
    if (userSignature(state, id) != before) {
      core.fire(events, &Callbacks::userUpdated, id);
      recomputeGroups(core, id, events);
    }
  });

  core.on("RELATIONSHIP_ADD", [&core](Json const& data, Events& events) {
    onRelationship(core, data, false, true, events);
  });
  core.on("RELATIONSHIP_UPDATE", [&core](Json const& data, Events& events) {
    // An update (a nickname, a spam flag) is not a new relationship: no created callback.
    onRelationship(core, data, false, false, events);
  });
  core.on("RELATIONSHIP_REMOVE", [&core](Json const& data, Events& events) {
    onRelationship(core, data, true, true, events);
  });

  core.on("PRESENCE_UPDATE", [&core](Json const& presence, Events& events) {
    // Guild presences never reach an SDK session; a person's token could see some: not friends'.
    if (presence.contains("guild_id") && !presence["guild_id"].is_null()) return;
    auto& state = core.state;
    auto const& user = objectAt(presence, "user");
    uint64_t id = idAt(user, "id");
    if (id == 0) return;
    std::string before = presenceSignature(state, id);
    std::string userBefore = userSignature(state, id);
    if (user.contains("username")) state.cacheUser(user);
    if (strAt(presence, "status") == "offline") {
      state.presences.erase(id);
    } else {
      state.presences[id] = presence;
    }
    bool moved = presenceSignature(state, id) != before;
    if (moved) revalidateInvites(core, id, events);
    if (moved || userSignature(state, id) != userBefore) {
      core.fire(events, &Callbacks::userUpdated, id);
    }
    recomputeGroups(core, id, events);
  });
}

std::vector<uint64_t> sortedGroup(Core const& core, RelationshipGroupType group) {
  std::lock_guard lock(core.mutex);
  auto const& state = core.state;
  uint64_t app = state.applicationId != 0 ? state.applicationId : core.applicationId;
  std::vector<std::pair<std::string, uint64_t>> members;
  for (auto const& [id, pair] : state.relationships) {
    FriendFacts facts;
    facts.discord = relationshipTypeOf(pair.discord);
    facts.game = relationshipTypeOf(pair.game);
    if (auto found = state.presences.find(id); found != state.presences.end()) {
      facts.status = strAt(found->second, "status");
    }
    facts.playingThisGame = playingApplication(state, id, app);
    if (friendGroup(facts) != group) continue;
    auto user = state.users.find(id);
    members.emplace_back(user == state.users.end() ? "" : displayNameOf(user->second), id);
  }
  std::sort(members.begin(), members.end(), [](auto const& a, auto const& b) {
    return friendBefore(a.first, a.second, b.first, b.second);
  });
  std::vector<uint64_t> ids;
  for (auto const& member : members) ids.push_back(member.second);
  return ids;
}

void recomputeGroups(Core& core, uint64_t userId, Events& events) {
  std::string snapshot;
  for (auto group : {RelationshipGroupType::OnlinePlayingGame,
                     RelationshipGroupType::OnlineElsewhere, RelationshipGroupType::Offline}) {
    for (uint64_t id : sortedGroup(core, group)) snapshot += std::to_string(id) + ",";
    snapshot += "\n";
  }
  if (snapshot == core.areas.groupsSnapshot) return;
  core.areas.groupsSnapshot = snapshot;
  core.fire(events, &Callbacks::relationshipGroupsUpdated, userId);
}

}  // namespace platformpp::detail
