// The SDK's networking thread: HTTP requests (libcurl's multi interface), timers, tasks and the
// sockets of the authorize listener, in one poll loop (curl_multi_poll with extra descriptors).
// Nothing here runs the game's code: results go to the client's callback queue.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "json.h"
#include "platformpp/values.h"

namespace platformpp::detail {

class Core;

struct HttpRequest {
  std::string method = "GET";
  /// Under the API base: "/users/@me".
  std::string path;
  std::vector<std::pair<std::string, std::string>> query;
  std::optional<Json> json;
  std::optional<std::vector<std::pair<std::string, std::string>>> form;
  /// Send the client's token (default), or nothing (the token endpoints, GET /gateway).
  bool auth = true;
  /// Called on the worker thread with true while the request waits out a 429, false after.
  std::function<void(bool)> onRateLimitWait;
};

struct HttpOutcome {
  /// Successful, or the failure with the platform's status, code and message.
  ClientResult result;
  /// The parsed answer (null when empty or not JSON).
  Json body;
};

using TimerId = uint64_t;

class Worker {
 public:
  explicit Worker(std::shared_ptr<Core> core);
  ~Worker();
  Worker(Worker const&) = delete;
  Worker& operator=(Worker const&) = delete;

  void start();
  /// Ends the thread; requests under way are dropped (their results are never delivered).
  void stop();

  /// Runs a task on the worker thread (any thread).
  void post(std::function<void()> task);
  /// Runs a task on the worker thread after a delay; cancel() before it runs (worker thread).
  TimerId after(std::chrono::milliseconds delay, std::function<void()> task);
  void cancel(TimerId id);
  /// Sends a request (any thread); `done` runs on the worker thread. A 429 is waited out per its
  /// retry_after (up to 3 times, 60 s at most each) before `done` hears of it.
  void request(HttpRequest request, std::function<void(HttpOutcome)> done);
  /// Watches a socket (worker thread): `onReady` gets the poll events. unwatch() before closing.
  void watch(int fd, short events, std::function<void(short)> onReady);
  void unwatch(int fd);

 private:
  struct Transfer;
  struct Timer {
    std::chrono::steady_clock::time_point due;
    std::function<void()> task;
  };

  void run();
  void runTimers();
  void runTasks();
  void begin(std::shared_ptr<Transfer> transfer);
  void finish(void* easy, int code);
  void completed(std::shared_ptr<Transfer> const& transfer, int curlCode, long status);

  std::shared_ptr<Core> core_;
  void* multi_ = nullptr;
  std::thread thread_;
  std::mutex mutex_;
  bool stopping_ = false;
  std::vector<std::function<void()>> tasks_;
  // Worker thread only:
  std::map<TimerId, Timer> timers_;
  TimerId nextTimer_ = 1;
  std::map<void*, std::shared_ptr<Transfer>> transfers_;
  std::map<int, std::pair<short, std::function<void(short)>>> watched_;
};

/// The ClientResult of a failed answer: the platform's `{code, message}` or OAuth2's `{error}`
/// body, a 429's wait (exposed for its unit test).
ClientResult errorFromAnswer(std::string const& method, std::string const& path, long status,
                             std::string const& body, double retryAfterSeconds);

}  // namespace platformpp::detail
