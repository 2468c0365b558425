// Direct messages: send, edit, delete, summaries, opening one in the platform's web client, and
// the local message cache; the message callbacks of DMs and lobby messages
// (GetUserMessagesWithLimit is in client_history.cpp). The cache (state.histories, one entry per
// DM) holds ids oldest first that are contiguous up to now: a history grows only from the
// server's answers (the channel's newest messages) and from MESSAGE_CREATE of the same gateway
// session; a RESUME replays what was missed and a new session (READY) clears it (the TypeScript
// SDK's rule).
#include "areas.h"
#include "client_impl.h"
#include "rules.h"
#include "wire.h"

namespace platformpp {

using detail::Callbacks;
using detail::Events;
using detail::Json;

namespace {

constexpr size_t kMaxDmContent = 2000;

void forget(detail::Core& core, uint64_t messageId, uint64_t channelId, Events& events) {
  core.areas.deletedIds.insert(messageId);
  core.state.messages.erase(messageId);
  auto history = core.state.histories.find(channelId);
  if (history != core.state.histories.end()) {
    auto& ids = history->second.ids;
    ids.erase(std::remove(ids.begin(), ids.end(), messageId), ids.end());
  }
  core.fire(events, &Callbacks::messageDeleted, messageId, channelId);
}

void updateMessage(detail::Core& core, Json const& patch, Events& events) {
  uint64_t id = detail::idAt(patch, "id");
  auto known = core.state.messages.find(id);
  if (known != core.state.messages.end()) {
    bool contentChanged = patch.contains("content") && patch["content"] != known->second["content"];
    detail::mergeInto(known->second, patch);
    // A content edit clears the backend's moderation metadata (docs/social-dms.md).
    if (contentChanged) known->second.erase("moderation_metadata");
  } else if (patch.contains("channel_id") && patch.contains("author")) {
    detail::keepMessage(core, patch);
  }
  core.fire(events, &Callbacks::messageUpdated, id);
}

/// A DM or group DM message the client holds (lock held): what the web client can show.
bool openable(detail::Core const& core, uint64_t messageId) {
  auto message = core.state.messages.find(messageId);
  if (message == core.state.messages.end() || detail::idAt(message->second, "lobby_id") != 0) {
    return false;
  }
  auto channel = core.state.channels.find(detail::idAt(message->second, "channel_id"));
  if (channel == core.state.channels.end()) return false;
  auto type = detail::intAt(channel->second, "type", -1);
  return type == static_cast<int>(ChannelType::Dm) ||
         type == static_cast<int>(ChannelType::GroupDm);
}

bool inGuild(Json const& data) { return data.contains("guild_id") && !data["guild_id"].is_null(); }

}  // namespace

namespace detail {

void keepChannel(Core& core, Json const& channel) {
  uint64_t id = idAt(channel, "id");
  if (id == 0) return;
  auto found = core.state.channels.find(id);
  if (found == core.state.channels.end()) {
    core.state.channels.emplace(id, channel);
  } else {
    mergeInto(found->second, channel);
  }
  for (auto const& user : arrayAt(channel, "recipients")) core.state.cacheUser(user);
}

void keepMessage(Core& core, Json const& message) {
  uint64_t id = idAt(message, "id");
  if (id == 0 || core.areas.deletedIds.count(id) != 0) return;
  auto found = core.state.messages.find(id);
  if (found == core.state.messages.end()) {
    core.state.messages.emplace(id, message);
  } else {
    mergeInto(found->second, message);
  }
  core.state.cacheUser(objectAt(message, "author"));
}

void installMessages(Core& core) {
  core.on("READY", [&core](Json const& ready, Events&) {
    core.areas.session += 1;
    core.areas.deletedIds.clear();
    for (auto const& channel : arrayAt(ready, "private_channels")) keepChannel(core, channel);
  });
  core.on("CHANNEL_CREATE", [&core](Json const& channel, Events&) {
    if (!inGuild(channel)) keepChannel(core, channel);
  });
  core.on("CHANNEL_UPDATE", [&core](Json const& channel, Events&) {
    if (core.state.channels.count(idAt(channel, "id")) != 0) keepChannel(core, channel);
  });
  core.on("CHANNEL_DELETE", [&core](Json const& channel, Events&) {
    uint64_t id = idAt(channel, "id");
    core.state.channels.erase(id);
    core.state.histories.erase(id);
  });
  core.on("MESSAGE_CREATE", [&core](Json const& message, Events& events) {
    if (inGuild(message)) return;
    keepMessage(core, message);
    uint64_t id = idAt(message, "id");
    uint64_t channelId = idAt(message, "channel_id");
    auto channel = core.state.channels.find(channelId);
    if (channel != core.state.channels.end()) channel->second["last_message_id"] = idText(id);
    core.state.histories[channelId] = mergeIds(core.state.histories[channelId], {id});
    core.fire(events, &Callbacks::messageCreated, id);
  });
  core.on("MESSAGE_UPDATE", [&core](Json const& patch, Events& events) {
    if (!inGuild(patch)) updateMessage(core, patch, events);
  });
  core.on("MESSAGE_DELETE", [&core](Json const& data, Events& events) {
    if (!inGuild(data)) forget(core, idAt(data, "id"), idAt(data, "channel_id"), events);
  });
  core.on("LOBBY_MESSAGE_CREATE", [&core](Json const& message, Events& events) {
    keepMessage(core, message);
    core.fire(events, &Callbacks::messageCreated, idAt(message, "id"));
  });
  core.on("LOBBY_MESSAGE_UPDATE", [&core](Json const& patch, Events& events) {
    updateMessage(core, patch, events);
  });
  core.on("LOBBY_MESSAGE_DELETE", [&core](Json const& data, Events& events) {
    forget(core, idAt(data, "id"), idAt(data, "lobby_id"), events);
  });
}

}  // namespace detail

void Client::SendUserMessage(uint64_t recipientId, std::string const& content,
                             SendUserMessageCallback callback) {
  SendUserMessageWithMetadata(recipientId, content, {}, std::move(callback));
}

void Client::SendUserMessageWithMetadata(uint64_t recipientId, std::string const& content,
                                         Properties const& metadata,
                                         SendUserMessageCallback callback) {
  if (!impl_) return;
  std::string op = metadata.empty() ? "SendUserMessage" : "SendUserMessageWithMetadata";
  std::optional<std::string> refused;
  if ((refused = detail::checkId(op, "recipientId", recipientId)) ||
      (refused = detail::checkContent(op, content, kMaxDmContent)) ||
      (refused = detail::checkMetadata(op, "metadata", metadata))) {
    impl_->later(callback, detail::validationError(*refused), uint64_t{0});
    return;
  }
  if (!impl_->core->ready()) {
    impl_->later(callback, detail::notReadyError(op), uint64_t{0});
    return;
  }
  Json body{{"content", content}};
  if (!metadata.empty()) body["metadata"] = detail::metadataJson(metadata);
  detail::HttpRequest request;
  request.method = "POST";
  request.path = "/users/" + std::to_string(recipientId) + "/messages";
  request.json = body;
  auto core = impl_->core;
  impl_->request(std::move(request), [core, recipientId, callback](detail::HttpOutcome outcome) {
    uint64_t id = 0;
    if (outcome.result.Successful()) {
      {
        std::lock_guard lock(core->mutex);
        detail::keepMessage(*core, outcome.body);
        id = detail::idAt(outcome.body, "id");
      }
      detail::discloseOnce(*core, outcome.body, recipientId);
    }
    if (callback) callback(outcome.result, id);
  });
}

void Client::EditUserMessage(uint64_t recipientId, uint64_t messageId, std::string const& content,
                             EditUserMessageCallback callback) {
  if (!impl_) return;
  std::string op = "EditUserMessage";
  std::optional<std::string> refused;
  if ((refused = detail::checkId(op, "recipientId", recipientId)) ||
      (refused = detail::checkId(op, "messageId", messageId)) ||
      (refused = detail::checkContent(op, content, kMaxDmContent))) {
    impl_->later(callback, detail::validationError(*refused));
    return;
  }
  if (!impl_->core->ready()) return impl_->later(callback, detail::notReadyError(op));
  detail::HttpRequest request;
  request.method = "PATCH";
  request.path = "/users/" + std::to_string(recipientId) + "/messages/" + std::to_string(messageId);
  request.json = Json{{"content", content}};
  auto core = impl_->core;
  impl_->request(std::move(request), [core, callback](detail::HttpOutcome outcome) {
    if (outcome.result.Successful()) {
      std::lock_guard lock(core->mutex);
      detail::keepMessage(*core, outcome.body);
    }
    if (callback) callback(outcome.result);
  });
}

void Client::DeleteUserMessage(uint64_t recipientId, uint64_t messageId,
                               DeleteUserMessageCallback callback) {
  if (!impl_) return;
  std::string op = "DeleteUserMessage";
  std::optional<std::string> refused;
  if ((refused = detail::checkId(op, "recipientId", recipientId)) ||
      (refused = detail::checkId(op, "messageId", messageId))) {
    impl_->later(callback, detail::validationError(*refused));
    return;
  }
  if (!impl_->core->ready()) return impl_->later(callback, detail::notReadyError(op));
  detail::HttpRequest request;
  request.method = "DELETE";
  request.path = "/users/" + std::to_string(recipientId) + "/messages/" + std::to_string(messageId);
  impl_->request(std::move(request), [callback](detail::HttpOutcome outcome) {
    if (callback) callback(outcome.result);
  });
}

std::optional<MessageHandle> Client::GetMessageHandle(uint64_t messageId) const {
  if (!impl_) return std::nullopt;
  std::lock_guard lock(impl_->core->mutex);
  if (impl_->core->state.messages.count(messageId) == 0) return std::nullopt;
  return MessageHandle(impl_->core, messageId);
}

std::optional<ChannelHandle> Client::GetChannelHandle(uint64_t channelId) const {
  if (!impl_) return std::nullopt;
  std::lock_guard lock(impl_->core->mutex);
  auto const& state = impl_->core->state;
  if (state.channels.count(channelId) == 0 && state.lobbies.count(channelId) == 0) {
    return std::nullopt;
  }
  return ChannelHandle(impl_->core, channelId);
}

void Client::GetUserMessageSummaries(UserMessageSummariesCallback callback) {
  if (!impl_) return;
  if (!impl_->core->ready()) {
    impl_->later(callback, detail::notReadyError("GetUserMessageSummaries"),
                 std::vector<UserMessageSummary>{});
    return;
  }
  detail::HttpRequest request;
  request.path = "/users/@me/channels";
  auto core = impl_->core;
  impl_->request(std::move(request), [core, callback](detail::HttpOutcome outcome) {
    std::vector<UserMessageSummary> summaries;
    if (outcome.result.Successful() && outcome.body.is_array()) {
      std::lock_guard lock(core->mutex);
      for (auto const& channel : outcome.body) {
        detail::keepChannel(*core, channel);
        auto const& recipients = detail::arrayAt(channel, "recipients");
        uint64_t last = detail::idAt(channel, "last_message_id");
        if (detail::intAt(channel, "type", -1) != 1 || recipients.empty() || last == 0) continue;
        UserMessageSummary summary;
        summary.SetUserId(detail::idAt(recipients[0], "id"));
        summary.SetLastMessageId(last);
        summaries.push_back(summary);
      }
    }
    std::sort(summaries.begin(), summaries.end(), [](auto const& a, auto const& b) {
      return a.LastMessageId() > b.LastMessageId();
    });
    if (callback) callback(outcome.result, summaries);
  });
}

void Client::SetMessageCreatedCallback(MessageCreatedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::messageCreated, std::move(callback));
}

void Client::SetMessageUpdatedCallback(MessageUpdatedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::messageUpdated, std::move(callback));
}

void Client::SetMessageDeletedCallback(MessageDeletedCallback callback) {
  if (impl_) impl_->core->setCallback(&Callbacks::messageDeleted, std::move(callback));
}

bool Client::CanOpenMessageInDiscord(uint64_t messageId) const {
  if (!impl_) return false;
  std::lock_guard lock(impl_->core->mutex);
  return openable(*impl_->core, messageId);
}

void Client::OpenMessageInDiscord(uint64_t messageId,
                                  ProvisionalUserMergeRequiredCallback provisionalUserMergeRequired,
                                  OpenMessageInDiscordCallback callback) {
  if (!impl_) return;
  std::string op = "OpenMessageInDiscord";
  auto core = impl_->core;
  uint64_t channelId = 0;
  bool provisional = false;
  {
    std::lock_guard lock(core->mutex);
    if (!openable(*core, messageId)) {
      return impl_->later(callback, detail::validationError(
                                        op + ": message " + std::to_string(messageId) +
                                        " cannot be viewed in the web client (check "
                                        "CanOpenMessageInDiscord)."));
    }
    channelId = detail::idAt(core->state.messages[messageId], "channel_id");
    provisional = detail::isProvisionalUser(core->state.currentUser);
  }
  if (provisional) {
    // A provisional account has no web client to open it in.
    core->post([provisionalUserMergeRequired] {
      if (provisionalUserMergeRequired) provisionalUserMergeRequired();
    });
    return impl_->later(callback,
                        detail::validationError(op +
                                                ": a provisional account has no web client; link "
                                                "the player's account (Authorize, then "
                                                "GetTokenFromProvisionalMerge) and try again."));
  }
  std::string url = core->settings.webBase + "/channels/@me/" + std::to_string(channelId) + "/" +
                    std::to_string(messageId);
  core->post([core, url, callback] {
    core->openUrl(url);
    if (callback) callback(detail::okResult());
  });
}

}  // namespace platformpp
