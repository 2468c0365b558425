#include "core.h"

#include <exception>

#include "platform.h"

namespace platformpp::detail {

Core::Core(Settings settingsIn)
    : settings(std::move(settingsIn)), logger([this](Task task) { post(std::move(task)); }) {}

void Core::post(Task task) {
  std::lock_guard lock(queueMutex_);
  queue_.push_back(std::move(task));
}

void Core::drain() {
  std::deque<Task> due;
  {
    std::lock_guard lock(queueMutex_);
    due.swap(queue_);
  }
  for (auto& task : due) {
    // The game destroyed the client from a callback: what is left belongs to nobody.
    if (destroyed.load()) return;
    guarded(task);
  }
}

void Core::clearQueue() {
  std::deque<Task> dropped;
  std::lock_guard lock(queueMutex_);
  dropped.swap(queue_);
}

void Core::guarded(Task const& task) {
  try {
    task();
  } catch (std::exception const& error) {
    logger.error(std::string("A callback threw: ") + error.what());
  } catch (...) {
    logger.error("A callback threw something that is not a std::exception.");
  }
}

void Core::setToken(AuthorizationTokenType type, std::string value) {
  logger.secret(value);
  std::lock_guard lock(tokenMutex_);
  token_ = std::make_pair(type, std::move(value));
}

bool Core::hasToken() const {
  std::lock_guard lock(tokenMutex_);
  return token_.has_value();
}

std::optional<AuthorizationTokenType> Core::tokenType() const {
  std::lock_guard lock(tokenMutex_);
  if (!token_) return std::nullopt;
  return token_->first;
}

std::string Core::authorization() const {
  std::lock_guard lock(tokenMutex_);
  if (!token_) return "";
  return token_->first == AuthorizationTokenType::Bearer ? "Bearer " + token_->second
                                                         : token_->second;
}

void Core::on(std::string const& type, Handler handler) {
  handlers_[type].push_back(std::move(handler));
}

void Core::dispatch(std::string const& type, Json const& data) {
  Events events;
  {
    std::lock_guard lock(mutex);
    auto found = handlers_.find(type);
    if (found == handlers_.end()) return;
    for (auto const& handler : found->second) {
      try {
        handler(data, events);
      } catch (std::exception const& error) {
        logger.error("A " + type + " handler failed: " + error.what());
      }
    }
  }
  for (auto const& event : events) guarded(event);
}

bool Core::ready() const {
  std::lock_guard lock(mutex);
  return status == Client::Status::Ready;
}

uint64_t Core::ownApplicationId() const {
  std::lock_guard lock(mutex);
  return state.applicationId != 0 ? state.applicationId : applicationId;
}

void Core::openUrl(std::string const& url) {
  Client::OpenUrlCallback opener;
  {
    std::lock_guard lock(mutex);
    opener = callbacks.openUrl;
  }
  if (opener) {
    if (!opener(url)) logger.warn("The game's URL opener did not open " + url);
    return;
  }
  logger.info("Open this address in a browser: " + url);
  if (!openInSystemBrowser(url)) logger.warn("The system browser could not be started.");
}

void SocialState::cacheUser(Json const& user) {
  uint64_t id = idAt(user, "id");
  if (id == 0) return;
  auto found = users.find(id);
  if (found == users.end()) {
    users.emplace(id, user);
  } else {
    mergeInto(found->second, user);
  }
}

void SocialState::clear() {
  currentUser = nullptr;
  applicationId = 0;
  users.clear();
  presences.clear();
  relationships.clear();
  lobbies.clear();
  channels.clear();
  messages.clear();
  histories.clear();
}

}  // namespace platformpp::detail
