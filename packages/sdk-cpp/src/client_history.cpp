// GetUserMessagesWithLimit: a DM's newest messages, from the local message cache when it holds
// enough (client_messages.cpp keeps it; the rule is shared with the TypeScript SDK,
// docs/sdk-cpp.md), else paged from GET /users/{id}/messages.
#include <algorithm>

#include "areas.h"
#include "client_impl.h"
#include "rules.h"
#include "wire.h"

namespace platformpp {

using detail::Json;

namespace {

/// The most messages GET /users/{id}/messages answers per page.
constexpr int kDmPageLimit = 100;
/// The most messages one GetUserMessagesWithLimit asks for.
constexpr int kMaxUserMessagesLimit = 1000;

/// The DM with one user that GET /users/{id}/messages reads, as the server picks it: the game DM
/// of the session's application, else the platform DM; 0 when the session knows neither.
uint64_t dmWith(detail::Core const& core, uint64_t userId) {
  uint64_t app = core.state.applicationId;
  uint64_t platformDm = 0;
  for (auto const& [id, channel] : core.state.channels) {
    if (detail::intAt(channel, "type", -1) != static_cast<int>(ChannelType::Dm)) continue;
    bool with = false;
    for (auto const& user : detail::arrayAt(channel, "recipients")) {
      if (detail::idAt(user, "id") == userId) with = true;
    }
    if (!with) continue;
    uint64_t channelApp = detail::idAt(channel, "application_id");
    if (channelApp == 0) {
      platformDm = id;
    } else if (channelApp == app) {
      return id;
    }
  }
  return platformDm;
}

std::vector<MessageHandle> handlesNewestFirst(std::shared_ptr<detail::Core> const& core,
                                              std::vector<uint64_t> const& oldestFirst,
                                              size_t limit) {
  std::vector<MessageHandle> out;
  for (auto it = oldestFirst.rbegin(); it != oldestFirst.rend() && out.size() < limit; ++it) {
    out.emplace_back(core, *it);
  }
  return out;
}

/// One GetUserMessagesWithLimit that asks the server: pages of 100 with `before`.
struct HistoryFetch {
  std::shared_ptr<detail::Core> core;
  uint64_t recipientId = 0;
  int limit = 0;
  uint64_t session = 0;
  std::vector<Json> fetched;
  Client::UserMessagesWithLimitCallback callback;
};

void finishFetch(std::shared_ptr<HistoryFetch> const& fetch, bool complete) {
  auto& core = *fetch->core;
  std::vector<uint64_t> ids;
  std::vector<uint64_t> merged;
  {
    std::lock_guard lock(core.mutex);
    for (auto const& message : fetch->fetched) detail::keepMessage(core, message);
    for (auto const& message : fetch->fetched) {
      uint64_t id = detail::idAt(message, "id");
      if (core.areas.deletedIds.count(id) == 0) ids.push_back(id);
    }
    std::reverse(ids.begin(), ids.end());  // oldest first
    uint64_t channel = fetch->fetched.empty() ? dmWith(core, fetch->recipientId)
                                              : detail::idAt(fetch->fetched.front(), "channel_id");
    // A new session began meanwhile: what it missed before its READY is not in this answer.
    if (channel == 0 || fetch->session != core.areas.session) {
      merged = ids;
    } else {
      auto known = core.state.histories[channel];
      known.complete = known.complete || complete;
      core.state.histories[channel] = detail::mergeIds(known, ids);
      merged = core.state.histories[channel].ids;
    }
  }
  fetch->callback(detail::okResult(),
                  handlesNewestFirst(fetch->core, merged, static_cast<size_t>(fetch->limit)));
}

void fetchPage(std::shared_ptr<HistoryFetch> const& fetch, uint64_t before) {
  int pageLimit = std::min(kDmPageLimit, fetch->limit - static_cast<int>(fetch->fetched.size()));
  detail::HttpRequest request;
  request.path = "/users/" + std::to_string(fetch->recipientId) + "/messages";
  request.query.emplace_back("limit", std::to_string(pageLimit));
  if (before != 0) request.query.emplace_back("before", std::to_string(before));
  detail::sendRequest(fetch->core, std::move(request), [fetch, pageLimit](detail::HttpOutcome outcome) {
    if (!outcome.result.Successful()) {
      fetch->callback(outcome.result, {});
      return;
    }
    auto const& page = outcome.body.is_array() ? outcome.body : Json::array();
    for (auto const& message : page) fetch->fetched.push_back(message);
    bool complete = static_cast<int>(page.size()) < pageLimit;
    if (complete || static_cast<int>(fetch->fetched.size()) >= fetch->limit || page.empty()) {
      finishFetch(fetch, complete);
      return;
    }
    fetchPage(fetch, detail::idAt(page.back(), "id"));
  });
}

}  // namespace

void Client::GetUserMessagesWithLimit(uint64_t recipientId, int32_t limit,
                                      UserMessagesWithLimitCallback callback) {
  if (!impl_) return;
  std::string op = "GetUserMessagesWithLimit";
  if (auto refused = detail::checkId(op, "recipientId", recipientId)) {
    return impl_->later(callback, detail::validationError(*refused), std::vector<MessageHandle>{});
  }
  if (limit < 1 || limit > kMaxUserMessagesLimit) {
    return impl_->later(callback,
                        detail::validationError(op + ": limit must be a whole number from 1 to " +
                                                std::to_string(kMaxUserMessagesLimit) + "."),
                        std::vector<MessageHandle>{});
  }
  if (!impl_->core->ready()) {
    return impl_->later(callback, detail::notReadyError(op), std::vector<MessageHandle>{});
  }
  auto fetch = std::make_shared<HistoryFetch>();
  {
    auto& core = *impl_->core;
    std::lock_guard lock(core.mutex);
    uint64_t channel = dmWith(core, recipientId);
    auto found = core.state.histories.find(channel);
    auto const* cached =
        channel == 0 || found == core.state.histories.end() ? nullptr : &found->second;
    if (detail::cacheAnswers(cached, limit)) {
      core.logger.verbose(op + ": answered from the cache");
      impl_->later(callback, detail::okResult(),
                   handlesNewestFirst(impl_->core, cached->ids, static_cast<size_t>(limit)));
      return;
    }
    fetch->session = core.areas.session;
  }
  fetch->core = impl_->core;
  fetch->recipientId = recipientId;
  fetch->limit = limit;
  fetch->callback = callback ? callback : [](ClientResult, std::vector<MessageHandle>) {};
  fetchPage(fetch, 0);
}

}  // namespace platformpp
