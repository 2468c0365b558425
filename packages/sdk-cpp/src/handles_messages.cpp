// MessageHandle's getters: a DM or lobby message as the cache holds it.

#include "core.h"
#include "platformpp/handles.h"
#include "wire.h"

namespace platformpp {

using detail::Json;

namespace {

/// The platform's epoch (2015-01-01T00:00:00Z), for a snowflake's time.
constexpr uint64_t kPlatformEpochMs = 1420070400000ULL;

Json const* messageOf(detail::Core const& core, uint64_t id) {
  auto found = core.state.messages.find(id);
  return found == core.state.messages.end() ? nullptr : &found->second;
}


}  // namespace

#define PLATFORMPP_MESSAGE(fallback)          \
  if (!core_) return fallback;                \
  std::lock_guard lock(core_->mutex);         \
  Json const* message = messageOf(*core_, id_); \
  if (message == nullptr) return fallback

std::string MessageHandle::Content() const {
  PLATFORMPP_MESSAGE("");
  return detail::strAt(*message, "content");
}

std::string MessageHandle::RawContent() const { return Content(); }

uint64_t MessageHandle::AuthorId() const {
  PLATFORMPP_MESSAGE(0);
  return detail::idAt(detail::objectAt(*message, "author"), "id");
}

std::optional<UserHandle> MessageHandle::Author() const {
  uint64_t id = AuthorId();
  if (id == 0) return std::nullopt;
  return UserHandle(core_, id);
}

uint64_t MessageHandle::ChannelId() const {
  PLATFORMPP_MESSAGE(0);
  return detail::idAt(*message, "channel_id");
}

std::optional<ChannelHandle> MessageHandle::Channel() const {
  PLATFORMPP_MESSAGE(std::nullopt);
  uint64_t channelId = detail::idAt(*message, "channel_id");
  bool known = core_->state.channels.count(channelId) != 0 ||
               core_->state.lobbies.count(channelId) != 0;
  if (!known) return std::nullopt;
  return ChannelHandle(core_, channelId);
}

uint64_t MessageHandle::RecipientId() const {
  PLATFORMPP_MESSAGE(0);
  if (message->contains("lobby_id") && !(*message)["lobby_id"].is_null()) return 0;
  auto channel = core_->state.channels.find(detail::idAt(*message, "channel_id"));
  if (channel == core_->state.channels.end() ||
      detail::intAt(channel->second, "type", -1) != static_cast<int>(ChannelType::Dm)) {
    return 0;
  }
  uint64_t me = core_->state.currentUserId();
  if (detail::idAt(detail::objectAt(*message, "author"), "id") != me) return me;
  auto const& recipients = detail::arrayAt(channel->second, "recipients");
  return recipients.empty() ? 0 : detail::idAt(recipients[0], "id");
}

std::optional<UserHandle> MessageHandle::Recipient() const {
  uint64_t id = RecipientId();
  if (id == 0) return std::nullopt;
  return UserHandle(core_, id);
}

std::optional<LobbyHandle> MessageHandle::Lobby() const {
  PLATFORMPP_MESSAGE(std::nullopt);
  uint64_t lobbyId = detail::idAt(*message, "lobby_id");
  if (lobbyId == 0 || core_->state.lobbies.count(lobbyId) == 0) return std::nullopt;
  return LobbyHandle(core_, lobbyId);
}

uint64_t MessageHandle::SentTimestamp() const {
  PLATFORMPP_MESSAGE(0);
  if (uint64_t parsed = detail::parseTimestamp(detail::strAt(*message, "timestamp"))) return parsed;
  return (id_ >> 22) + kPlatformEpochMs;
}

uint64_t MessageHandle::EditedTimestamp() const {
  PLATFORMPP_MESSAGE(0);
  return detail::parseTimestamp(detail::strAt(*message, "edited_timestamp"));
}

std::unordered_map<std::string, std::string> MessageHandle::Metadata() const {
  PLATFORMPP_MESSAGE({});
  return detail::stringMap(detail::objectAt(*message, "metadata"));
}

std::unordered_map<std::string, std::string> MessageHandle::ModerationMetadata() const {
  PLATFORMPP_MESSAGE({});
  return detail::stringMap(detail::objectAt(*message, "moderation_metadata"));
}

std::optional<std::string> MessageHandle::AdditionalName() const {
  PLATFORMPP_MESSAGE(std::nullopt);
  return detail::optStrAt(detail::objectAt(*message, "lobby_member"), "additional_name");
}

std::optional<uint64_t> MessageHandle::ApplicationId() const {
  PLATFORMPP_MESSAGE(std::nullopt);
  uint64_t app = detail::idAt(*message, "application_id");
  if (app == 0) return std::nullopt;
  return app;
}

bool MessageHandle::SentFromGame() const { return ApplicationId().has_value(); }

std::optional<DisclosureTypes> MessageHandle::DisclosureType() const {
  PLATFORMPP_MESSAGE(std::nullopt);
  auto constexpr visible = DisclosureTypes::MessageDataVisibleOnDiscord;
  if (detail::intAt(*message, "disclosure_type", 0) != static_cast<int>(visible)) {
    return std::nullopt;
  }
  return visible;
}

}  // namespace platformpp
