#include "worker.h"

#include <curl/curl.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core.h"
#include "encoding.h"
#include "platform.h"

namespace platformpp::detail {

namespace {

constexpr int kMaxRateLimitRetries = 3;
/// A 429 asking for a longer wait than this is returned to the caller, not waited out.
constexpr double kMaxRateLimitWaitSeconds = 60;
/// The poll loop wakes at least this often (timers are exact; this only bounds a lost wakeup).
constexpr int kMaxPollMs = 1000;
/// No answer body is read beyond this (a bound on what a request can make the SDK hold).
constexpr size_t kMaxBodyBytes = 32 * 1024 * 1024;

std::once_flag curlInit;

size_t onBody(char* data, size_t size, size_t count, void* user) {
  auto* body = static_cast<std::string*>(user);
  if (body->size() + size * count > kMaxBodyBytes) return 0;
  body->append(data, size * count);
  return size * count;
}

size_t onHeader(char* data, size_t size, size_t count, void* user) {
  std::string line(data, size * count);
  constexpr char kName[] = "retry-after:";
  if (line.size() > sizeof(kName) - 1) {
    std::string name = line.substr(0, sizeof(kName) - 1);
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    if (name == kName) *static_cast<std::string*>(user) = line.substr(sizeof(kName) - 1);
  }
  return size * count;
}

double retryAfterSeconds(Json const& body, std::string const& header) {
  if (body.is_object()) {
    auto found = body.find("retry_after");
    if (found != body.end() && found->is_number() && found->get<double>() >= 0) {
      return found->get<double>();
    }
  }
  try {
    double value = std::stod(header);
    if (value >= 0 && std::isfinite(value)) return value;
  } catch (...) {
    // No usable header: wait a second, as the TypeScript SDK does.
  }
  return 1;
}

std::string describe(double seconds) {
  std::ostringstream out;
  out << seconds;
  return out.str();
}

}  // namespace

struct Worker::Transfer {
  HttpRequest request;
  std::function<void(HttpOutcome)> done;
  std::string url;
  std::string body;
  std::string response;
  std::string retryAfter;
  curl_slist* headers = nullptr;
  CURL* easy = nullptr;
  int attempt = 0;
  std::chrono::steady_clock::time_point started;

  Transfer() = default;
  Transfer(Transfer const&) = delete;
  Transfer& operator=(Transfer const&) = delete;
  ~Transfer() { release(); }
  void release() {
    if (headers != nullptr) curl_slist_free_all(headers);
    if (easy != nullptr) curl_easy_cleanup(easy);
    headers = nullptr;
    easy = nullptr;
  }
};

ClientResult errorFromAnswer(std::string const& method, std::string const& path, long status,
                             std::string const& text, double retryAfter) {
  ClientResult result;
  result.SetSuccessful(false);
  result.SetStatus(static_cast<int32_t>(status));
  result.SetResponseBody(text);
  Json body = parseJson(text);
  if (!body.is_object()) body = Json::object();
  auto oauthError = optStrAt(body, "error");
  auto code = static_cast<int32_t>(intAt(body, "code", 0));
  result.SetErrorCode(code);
  if (oauthError) {
    auto description = optStrAt(body, "error_description");
    result.SetType(ErrorType::AuthorizationFailed);
    result.SetOAuthError(*oauthError);
    result.SetError(method + " " + path + ": " + *oauthError +
                    (description ? " (" + *description + ")" : ""));
    return result;
  }
  if (status == 429) {
    result.SetType(ErrorType::HTTPError);
    result.SetRetryable(true);
    result.SetRetryAfter(static_cast<float>(retryAfter));
    result.SetError(method + " " + path + " is rate limited for " + describe(retryAfter) +
                    " s more: try again later.");
    return result;
  }
  std::string message = strAt(body, "message", body.empty() ? text : "");
  result.SetType(status == 401 ? ErrorType::AuthorizationFailed : ErrorType::HTTPError);
  result.SetRetryable(status >= 500);
  result.SetError(method + " " + path + " → " + std::to_string(status) +
                  (message.empty() ? "" : ": " + message));
  return result;
}

Worker::Worker(std::shared_ptr<Core> core) : core_(std::move(core)) {
  std::call_once(curlInit, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  multi_ = curl_multi_init();
}

Worker::~Worker() {
  stop();
  for (auto& [easy, transfer] : transfers_) curl_multi_remove_handle(multi_, easy);
  transfers_.clear();
  curl_multi_cleanup(static_cast<CURLM*>(multi_));
}

void Worker::start() {
  thread_ = std::thread([this] {
    if (core_->settings.cpuAffinityMask) pinCurrentThread(*core_->settings.cpuAffinityMask);
    run();
  });
}

void Worker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  curl_multi_wakeup(static_cast<CURLM*>(multi_));
  if (thread_.joinable()) thread_.join();
}

void Worker::post(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
  }
  curl_multi_wakeup(static_cast<CURLM*>(multi_));
}

TimerId Worker::after(std::chrono::milliseconds delay, std::function<void()> task) {
  TimerId id = nextTimer_++;
  timers_.emplace(id, Timer{std::chrono::steady_clock::now() + delay, std::move(task)});
  return id;
}

void Worker::cancel(TimerId id) { timers_.erase(id); }

void Worker::watch(int fd, short events, std::function<void(short)> onReady) {
  watched_[fd] = {events, std::move(onReady)};
}

void Worker::unwatch(int fd) { watched_.erase(fd); }

void Worker::request(HttpRequest request, std::function<void(HttpOutcome)> done) {
  auto transfer = std::make_shared<Transfer>();
  transfer->request = std::move(request);
  transfer->done = std::move(done);
  auto const& req = transfer->request;
  transfer->url = core_->settings.apiBase + req.path;
  if (!req.query.empty()) transfer->url += "?" + formEncode(req.query);
  if (req.json) transfer->body = toText(*req.json);
  if (req.form) transfer->body = formEncode(*req.form);
  post([this, transfer] { begin(transfer); });
}

void Worker::begin(std::shared_ptr<Transfer> transfer) {
  transfer->release();
  transfer->response.clear();
  transfer->retryAfter.clear();
  auto const& req = transfer->request;
  CURL* easy = curl_easy_init();
  transfer->easy = easy;
  curl_slist* headers = nullptr;
  if (req.auth) {
    std::string authorization = core_->authorization();
    if (!authorization.empty()) {
      headers = curl_slist_append(headers, ("Authorization: " + authorization).c_str());
    }
  }
  if (req.json) headers = curl_slist_append(headers, "Content-Type: application/json");
  if (req.form) {
    headers = curl_slist_append(headers, "Content-Type: application/x-www-form-urlencoded");
  }
  // No "Expect: 100-continue" round trip on larger bodies.
  headers = curl_slist_append(headers, "Expect:");
  transfer->headers = headers;
  curl_easy_setopt(easy, CURLOPT_URL, transfer->url.c_str());
  curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, req.method.c_str());
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
  if (req.method != "GET") {
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, static_cast<long>(transfer->body.size()));
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, transfer->body.c_str());
  }
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(core_->httpTimeoutMs.load()));
  curl_easy_setopt(easy, CURLOPT_USERAGENT, "platformpp (Guildhall Social SDK for C++)");
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, onBody);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfer->response);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, onHeader);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &transfer->retryAfter);
  transfer->started = std::chrono::steady_clock::now();
  transfers_[easy] = transfer;
  curl_multi_add_handle(static_cast<CURLM*>(multi_), easy);
}

void Worker::finish(void* easy, int code) {
  auto found = transfers_.find(easy);
  if (found == transfers_.end()) return;
  auto transfer = found->second;
  transfers_.erase(found);
  curl_multi_remove_handle(static_cast<CURLM*>(multi_), easy);
  long status = 0;
  curl_easy_getinfo(static_cast<CURL*>(easy), CURLINFO_RESPONSE_CODE, &status);
  completed(transfer, code, status);
}

void Worker::completed(std::shared_ptr<Transfer> const& transfer, int curlCode, long status) {
  auto const& req = transfer->request;
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - transfer->started)
                     .count();
  HttpOutcome outcome;
  if (curlCode != CURLE_OK) {
    int32_t timeoutMs = core_->httpTimeoutMs.load();
    outcome.result.SetSuccessful(false);
    outcome.result.SetType(ErrorType::NetworkError);
    outcome.result.SetRetryable(true);
    if (curlCode == CURLE_OPERATION_TIMEDOUT) {
      core_->logger.warn("HTTP " + req.method + " " + req.path + " timed out after " +
                         std::to_string(timeoutMs) + " ms");
      outcome.result.SetError(req.method + " " + req.path + " got no answer within " +
                              std::to_string(timeoutMs) +
                              " ms (SetHttpRequestTimeout): check the server, or allow more time.");
    } else {
      std::string why = curl_easy_strerror(static_cast<CURLcode>(curlCode));
      core_->logger.warn("HTTP " + req.method + " " + req.path + " failed: " + why);
      outcome.result.SetError(req.method + " " + req.path + " could not reach " +
                              core_->settings.apiBase + ": " + why);
    }
    transfer->done(std::move(outcome));
    return;
  }
  core_->logger.verbose("HTTP " + req.method + " " + req.path + " → " + std::to_string(status) +
                        " (" + std::to_string(elapsed) + " ms)");
  Json body = transfer->response.empty() ? Json() : parseJson(transfer->response);
  if (body.is_discarded()) body = Json();
  if (status == 429 && transfer->attempt < kMaxRateLimitRetries) {
    double wait = retryAfterSeconds(body, transfer->retryAfter);
    if (wait <= kMaxRateLimitWaitSeconds) {
      transfer->attempt += 1;
      core_->logger.warn("HTTP " + req.method + " " + req.path + " was rate limited: retrying in " +
                         std::to_string(static_cast<int64_t>(std::ceil(wait * 1000))) + " ms");
      if (req.onRateLimitWait) req.onRateLimitWait(true);
      after(std::chrono::milliseconds(static_cast<int64_t>(wait * 1000)), [this, transfer] {
        if (transfer->request.onRateLimitWait) transfer->request.onRateLimitWait(false);
        begin(transfer);
      });
      return;
    }
  }
  if (status >= 200 && status < 300) {
    outcome.body = std::move(body);
  } else {
    outcome.result =
        errorFromAnswer(req.method, req.path, status, core_->logger.redact(transfer->response),
                        retryAfterSeconds(body, transfer->retryAfter));
  }
  transfer->done(std::move(outcome));
}

void Worker::runTasks() {
  std::vector<std::function<void()>> due;
  {
    std::lock_guard lock(mutex_);
    due.swap(tasks_);
  }
  for (auto& task : due) {
    try {
      task();
    } catch (std::exception const& error) {
      core_->logger.error(std::string("An SDK task failed: ") + error.what());
    }
  }
}

void Worker::runTimers() {
  auto now = std::chrono::steady_clock::now();
  std::vector<TimerId> due;
  for (auto const& [id, timer] : timers_) {
    if (timer.due <= now) due.push_back(id);
  }
  for (TimerId id : due) {
    auto found = timers_.find(id);
    if (found == timers_.end()) continue;  // cancelled by an earlier timer
    auto task = std::move(found->second.task);
    timers_.erase(found);
    try {
      task();
    } catch (std::exception const& error) {
      core_->logger.error(std::string("An SDK timer failed: ") + error.what());
    }
  }
}

void Worker::run() {
  auto* multi = static_cast<CURLM*>(multi_);
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    runTasks();
    runTimers();
    int running = 0;
    curl_multi_perform(multi, &running);
    int left = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &left)) {
      if (message->msg == CURLMSG_DONE) finish(message->easy_handle, message->data.result);
    }
    int timeoutMs = kMaxPollMs;
    auto now = std::chrono::steady_clock::now();
    for (auto const& [id, timer] : timers_) {
      auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(timer.due - now).count();
      timeoutMs = std::clamp(static_cast<int>(wait), 0, timeoutMs);
    }
    {
      std::lock_guard lock(mutex_);
      if (!tasks_.empty()) timeoutMs = 0;
    }
    std::vector<curl_waitfd> fds;
    for (auto const& [fd, watch] : watched_) {
      short events = 0;
      if (watch.first & 1) events |= CURL_WAIT_POLLIN;
      if (watch.first & 4) events |= CURL_WAIT_POLLOUT;
      fds.push_back({fd, events, 0});
    }
    curl_multi_poll(multi, fds.empty() ? nullptr : fds.data(), static_cast<unsigned>(fds.size()),
                    timeoutMs, nullptr);
    for (auto const& ready : fds) {
      if (ready.revents == 0) continue;
      auto found = watched_.find(ready.fd);
      if (found == watched_.end()) continue;  // unwatched by an earlier callback
      auto onReady = found->second.second;
      onReady(ready.revents);
    }
  }
}

}  // namespace platformpp::detail
