// Client::SetTokenExpirationCallback: tells the game when the client's token is about to expire
// (or has), so it fetches a new one (RefreshToken, or GetProvisionalToken again for a provisional
// account) and hands it to UpdateToken. The token's expiry is read from the platform
// (GET /oauth2/@me, its `expires`) each time the token changes; the callback runs once per Bearer
// token, kTokenExpiryNoticeMs before it expires, at once when less remains or the token is
// refused (401). The TypeScript SDK's tokenExpiry.ts.
#include <algorithm>
#include <chrono>
#include <utility>

#include "client_impl.h"
#include "wire.h"

namespace platformpp {

namespace detail {

namespace {

/// How long before its expiry a token is announced (at once when less remains).
constexpr int64_t kTokenExpiryNoticeMs = 5 * 60000;

int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// Runs the callback when the notice is still for the current token (game thread).
void fireIfCurrent(Core& core, uint64_t generation) {
  {
    std::lock_guard lock(core.mutex);
    if (generation != core.areas.tokenGeneration) return;
  }
  core.fireNow(&Callbacks::tokenExpiration);
}

void arm(std::shared_ptr<Core> const& core, uint64_t generation, int64_t noticeAt) {
  int64_t delay = std::max<int64_t>(0, noticeAt - nowMs());
  auto expiresAt = static_cast<uint64_t>(noticeAt + kTokenExpiryNoticeMs);
  core->logger.info("The token expires at " + isoTimestamp(expiresAt) +
                    "; the expiration callback runs in " + std::to_string((delay + 999) / 1000) +
                    " s.");
  auto net = core->net.lock();
  if (!net) return;
  std::weak_ptr<Core> weak = core;
  auto& worker = net->worker;
  worker.post([weak, &worker, generation, delay] {
    auto shared = weak.lock();
    if (!shared) return;
    TimerId timer = worker.after(std::chrono::milliseconds(delay), [weak, generation] {
      if (auto due = weak.lock()) due->post([due, generation] { fireIfCurrent(*due, generation); });
    });
    std::lock_guard lock(shared->mutex);
    // The token changed meanwhile: this notice is not needed.
    if (shared->areas.tokenGeneration != generation) worker.cancel(timer);
    else shared->areas.tokenTimer = timer;
  });
}

}  // namespace

void tokenChanged(std::shared_ptr<Core> const& core) {
  uint64_t generation = 0;
  bool wanted = false;
  TimerId stale = 0;
  {
    std::lock_guard lock(core->mutex);
    generation = ++core->areas.tokenGeneration;
    stale = std::exchange(core->areas.tokenTimer, 0);
    // A bot token never expires; without a callback there is nobody to tell.
    wanted = core->callbacks.tokenExpiration && core->tokenType() == AuthorizationTokenType::Bearer;
  }
  if (stale != 0) {
    if (auto net = core->net.lock()) {
      auto& worker = net->worker;
      worker.post([&worker, stale] { worker.cancel(stale); });
    }
  }
  if (!wanted) return;
  HttpRequest request;
  request.path = "/oauth2/@me";
  sendRequest(core, std::move(request), [core, generation](HttpOutcome outcome) {
    {
      std::lock_guard lock(core->mutex);
      if (generation != core->areas.tokenGeneration) return;
    }
    if (outcome.result.Status() == 401) {
      core->logger.warn("The token was refused: it has expired or was revoked.");
      fireIfCurrent(*core, generation);
      return;
    }
    if (!outcome.result.Successful()) {
      core->logger.warn("Could not read the token's expiry: " + outcome.result.ToString());
      return;
    }
    auto expiresAt = static_cast<int64_t>(parseTimestamp(strAt(outcome.body, "expires")));
    if (expiresAt == 0) {
      core->logger.info("The token does not expire.");
      return;
    }
    arm(core, generation, expiresAt - kTokenExpiryNoticeMs);
  });
}

}  // namespace detail

void Client::SetTokenExpirationCallback(TokenExpirationCallback callback) {
  if (!impl_) return;
  impl_->core->setCallback(&detail::Callbacks::tokenExpiration, std::move(callback));
  detail::tokenChanged(impl_->core);
}

}  // namespace platformpp
