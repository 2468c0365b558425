// What a Client owns: its Core (shared with handles and queued callbacks) and its threads (Net),
// stopped when the last copy of the Client goes. The helpers every operation uses live here:
// results, requests whose answers come back on the game thread, queued callbacks.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "core.h"
#include "gateway.h"
#include "worker.h"

namespace platformpp::detail {

/// The SDK's threads: HTTP and timers (Worker), the gateway connection (Gateway).
class Net {
 public:
  explicit Net(std::shared_ptr<Core> const& core) : worker(core), gateway(core, worker) {}
  ~Net() {
    worker.stop();
    gateway.stop();
  }
  Net(Net const&) = delete;
  Net& operator=(Net const&) = delete;
  void start() {
    worker.start();
    gateway.start();
  }

  Worker worker;
  Gateway gateway;
};

struct AuthFlows;

/// Sends a request through the client's worker; `onGame` gets the outcome inside RunCallbacks (a
/// ClientDestroyed failure when the client is gone). What keeps a multi-step operation going
/// holds the Core, never the ClientImpl (which owns the threads that would hold it).
void sendRequest(std::shared_ptr<Core> const& core, HttpRequest request,
                 std::function<void(HttpOutcome)> onGame);

class ClientImpl {
 public:
  explicit ClientImpl(ClientCreateOptions const& options);
  ~ClientImpl();
  ClientImpl(ClientImpl const&) = delete;
  ClientImpl& operator=(ClientImpl const&) = delete;

  /// Sends a request; `onGame` gets the outcome inside RunCallbacks.
  void request(HttpRequest request, std::function<void(HttpOutcome)> onGame) {
    sendRequest(core, std::move(request), std::move(onGame));
  }
  /// Queues `callback(args...)` for RunCallbacks (a refusal before any request, say).
  template <class F, class... A>
  void later(F const& callback, A... args) {
    if (!callback) return;
    core->post([callback, args...] { callback(args...); });
  }

  std::shared_ptr<Core> core;
  std::shared_ptr<Net> net;
  std::shared_ptr<AuthFlows> auth;
};

ClientResult okResult();
ClientResult failure(ErrorType type, std::string message);
ClientResult validationError(std::string message);
/// The operation needs a Ready client.
ClientResult notReadyError(std::string const& operation);
/// Voice is not in the native SDK (until DAVE exists for it).
ClientResult voiceUnavailable(std::string const& operation);
/// The token changed (or the expiration callback did): its expiry is looked up afresh.
void tokenChanged(std::shared_ptr<Core> const& core);
/// Adds every area's dispatch handlers, in the order they must run (READY clears first).
void installHandlers(Core& core);
/// Registers a core with RunCallbacks.
void registerCore(std::shared_ptr<Core> const& core);

}  // namespace platformpp::detail
