// The legal disclosure the reference SDK injects (MessageHandle::DisclosureType): the first time
// the player sends a message in game that will also show in the platform's web client, the
// client adds a local message to that conversation explaining so, which DisclosureType() marks
// as MessageDataVisibleOnDiscord so a game may reword, translate or hide it. A DM shows in the
// web client when either side is a full account; a lobby's messages when the lobby is linked to
// a channel. The message is the client's own: the server never stores or sends it. The
// TypeScript SDK's disclosure.ts.
#include <algorithm>
#include <atomic>
#include <chrono>

#include "areas.h"
#include "wire.h"

namespace platformpp::detail {

namespace {

/// The reference SDK's basic English explanation, for a game to replace.
constexpr char const* kDisclosureContent =
    "Messages you send here are also visible in Discord, where the other people in this chat can "
    "read them.";
/// The platform's epoch (2015-01-01T00:00:00Z), for a snowflake's time.
constexpr uint64_t kPlatformEpochMs = 1420070400000ULL;

/// A local id that sorts as a message made at `nowMs` would.
uint64_t localId(uint64_t nowMs) {
  static std::atomic<uint64_t> increment{0};
  return ((nowMs - kPlatformEpochMs) << 22) | (++increment & 0xfff);
}

/// Whether a message the player sent will show in the platform's web client (lock held).
bool visibleOnPlatform(Core const& core, Json const& message, uint64_t recipientId) {
  if (uint64_t lobbyId = idAt(message, "lobby_id")) {
    auto lobby = core.state.lobbies.find(lobbyId);
    return lobby != core.state.lobbies.end() && lobby->second.contains("linked_channel") &&
           !lobby->second["linked_channel"].is_null();
  }
  std::vector<Json> people{objectAt(message, "author")};
  auto channel = core.state.channels.find(idAt(message, "channel_id"));
  if (channel != core.state.channels.end()) {
    for (auto const& user : arrayAt(channel->second, "recipients")) people.push_back(user);
  }
  auto recipient = core.state.users.find(recipientId);
  if (recipient != core.state.users.end()) people.push_back(recipient->second);
  return std::any_of(people.begin(), people.end(), [](Json const& user) {
    return user.is_object() && !user.empty() && !isProvisionalUser(user);
  });
}

}  // namespace

void discloseOnce(Core& core, Json const& sent, uint64_t recipientId) {
  {
    std::lock_guard lock(core.mutex);
    if (core.areas.disclosed || !visibleOnPlatform(core, sent, recipientId)) return;
    core.areas.disclosed = true;
  }
  auto now = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count());
  uint64_t nowMs = std::max(now, parseTimestamp(strAt(sent, "timestamp")));
  Json disclosure{{"id", idText(localId(nowMs))},
                  {"channel_id", sent.contains("channel_id") ? sent["channel_id"] : Json()},
                  {"content", kDisclosureContent},
                  {"author", objectAt(sent, "author")},
                  {"timestamp", isoTimestamp(nowMs)},
                  {"disclosure_type",
                   static_cast<int>(DisclosureTypes::MessageDataVisibleOnDiscord)}};
  bool inLobby = idAt(sent, "lobby_id") != 0;
  if (inLobby) disclosure["lobby_id"] = sent["lobby_id"];
  // As the client's own MESSAGE_CREATE or LOBBY_MESSAGE_CREATE: the cache and the
  // messageCreated callback see it.
  core.dispatch(inLobby ? "LOBBY_MESSAGE_CREATE" : "MESSAGE_CREATE", disclosure);
}

}  // namespace platformpp::detail
