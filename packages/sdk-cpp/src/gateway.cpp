// The gateway's thread: the commands other threads push (connect, disconnect, presence), the
// poll loop over the socket and the wake pipe, timers for heartbeats and retries, and opening the
// socket at the URL GET /gateway answers. The protocol itself is in gateway_session.cpp.
#include "gateway.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>

#include "core.h"
#include "platform.h"
#include "worker.h"

namespace platformpp::detail {

Gateway::Gateway(std::shared_ptr<Core> core, Worker& worker)
    : core_(std::move(core)), worker_(worker), random_(std::random_device{}()) {
  if (::pipe(wake_) == 0) {
    for (int fd : wake_) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
  presence_ = Json{{"since", nullptr}, {"afk", false}, {"status", "online"},
                   {"activities", Json::array()}};
}

Gateway::~Gateway() {
  stop();
  for (int fd : wake_) {
    if (fd >= 0) ::close(fd);
  }
}

void Gateway::start() {
  thread_ = std::thread([this] {
    if (core_->settings.cpuAffinityMask) pinCurrentThread(*core_->settings.cpuAffinityMask);
    run();
  });
}

void Gateway::stop() {
  if (!thread_.joinable()) return;
  push(Command(Command::Stop));
  thread_.join();
}

void Gateway::connect() { push(Command(Command::Connect)); }
void Gateway::disconnect() { push(Command(Command::Disconnect)); }
void Gateway::setPresence(Json presence) { push(Command(Command::Presence, std::move(presence))); }

void Gateway::push(Command command) {
  {
    std::lock_guard lock(mutex_);
    commands_.push_back(std::move(command));
  }
  char byte = 1;
  [[maybe_unused]] auto wrote = ::write(wake_[1], &byte, 1);
}

int Gateway::pollTimeoutMs() const {
  auto now = Clock::now();
  int64_t timeout = -1;
  for (auto const& due : {nextBeat_, retryAt_}) {
    if (!due) continue;
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(*due - now).count();
    wait = std::max<int64_t>(wait, 0);
    timeout = timeout < 0 ? wait : std::min(timeout, wait);
  }
  return static_cast<int>(timeout);
}

void Gateway::run() {
  while (!exiting_) {
    pollfd fds[2] = {{wake_[0], POLLIN, 0}, {socket_.fd(), POLLIN, 0}};
    int count = socket_.open() ? 2 : 1;
    ::poll(fds, count, pollTimeoutMs());
    if ((fds[0].revents & POLLIN) != 0) {
      char drain[64];
      while (::read(wake_[0], drain, sizeof(drain)) > 0) {
      }
    }
    if (!handleCommands()) break;
    if (count == 2 && fds[1].revents != 0 && socket_.open()) {
      std::vector<WebSocket::Message> messages;
      bool closed = socket_.readAvailable(messages) == WebSocket::ReadStatus::Closed;
      consume(messages, closed);
    }
    auto now = Clock::now();
    if (retryAt_ && *retryAt_ <= now) {
      retryAt_.reset();
      begin();
    }
    if (nextBeat_ && *nextBeat_ <= now && socket_.open()) {
      if (!acked_) {
        core_->logger.warn("No heartbeat ACK from the gateway; reconnecting.");
        reconnect();
      } else {
        beat();
        nextBeat_ = Clock::now() + std::chrono::milliseconds(heartbeatIntervalMs_);
      }
    }
  }
  if (socket_.open()) socket_.close(1000, "disconnect");
}

void Gateway::consume(std::vector<WebSocket::Message> const& messages, bool closed) {
  uint64_t generation = generation_;
  for (auto const& message : messages) {
    // A message made the client drop this connection: the rest belong to it.
    if (generation != generation_) return;
    if (message.binary || core_->settings.gatewayCompression) {
      bool broken = false;
      auto text = zlib_.push(message.data, broken);
      if (broken) {
        core_->logger.warn("The gateway sent a frame that does not inflate; reconnecting.");
        reconnect();
        return;
      }
      if (text) onMessage(*text);
    } else {
      onMessage(message.data);
    }
  }
  if (closed && generation == generation_) onClose(socket_.closeCode(), socket_.closeReason());
}

bool Gateway::handleCommands() {
  std::deque<Command> due;
  {
    std::lock_guard lock(mutex_);
    due.swap(commands_);
  }
  for (auto& command : due) {
    switch (command.kind) {
      case Command::Stop:
        exiting_ = true;
        return false;
      case Command::Connect:
        if (status_ != Client::Status::Disconnected) break;
        stopping_ = false;
        attempts_ = 0;
        setStatus(Client::Status::Connecting, Client::Error::None, 0);
        begin();
        break;
      case Command::Disconnect:
        if (status_ == Client::Status::Disconnected) break;
        stopping_ = true;
        nextBeat_.reset();
        retryAt_.reset();
        clearSession();
        if (socket_.open()) {
          setStatus(Client::Status::Disconnecting, Client::Error::None, 0);
          socket_.close(1000, "disconnect");
        }
        setStatus(Client::Status::Disconnected, Client::Error::None, 0);
        break;
      case Command::Presence:
        presence_ = std::move(command.value);
        if (status_ == Client::Status::Ready) sendPresence();
        break;
      case Command::GatewayUrl:
        onGatewayUrl(command);
        break;
      case Command::HttpWait:
        if (command.flag && (status_ == Client::Status::Connecting ||
                             status_ == Client::Status::Reconnecting)) {
          setStatus(Client::Status::HttpWait, Client::Error::None, 0);
        } else if (!command.flag && status_ == Client::Status::HttpWait) {
          setStatus(Client::Status::Connecting, Client::Error::None, 0);
        }
        break;
    }
  }
  return true;
}

void Gateway::begin() {
  if (stopping_ || waitingUrl_) return;
  if (!core_->hasToken()) {
    core_->logger.error("Connect() needs a token: call UpdateToken() first.");
    setStatus(Client::Status::Disconnected, Client::Error::ConnectionFailed, 0);
    return;
  }
  std::string base = !sessionId_.empty() ? resumeUrl_ : gatewayUrl_;
  if (!base.empty()) {
    openSocket(base);
    return;
  }
  waitingUrl_ = true;
  HttpRequest request;
  request.path = "/gateway";
  request.auth = false;
  request.onRateLimitWait = [this](bool waiting) {
    push(Command(Command::HttpWait, nullptr, waiting));
  };
  worker_.request(std::move(request), [this](HttpOutcome outcome) {
    Command command(Command::GatewayUrl, std::move(outcome.body), outcome.result.Successful());
    command.text = outcome.result.Error();
    push(std::move(command));
  });
}

void Gateway::onGatewayUrl(Command const& command) {
  waitingUrl_ = false;
  if (stopping_) return;
  std::string url = strAt(command.value, "url");
  if (!command.flag || url.empty()) {
    core_->logger.warn("Could not get the gateway's address: " +
                       (command.text.empty() ? "no url in the answer" : command.text));
    retryLater(Client::Error::ConnectionFailed, 0);
    return;
  }
  gatewayUrl_ = url;
  openSocket(url);
}

void Gateway::openSocket(std::string const& baseIn) {
  std::string base = baseIn;
  while (!base.empty() && base.back() == '/') base.pop_back();
  std::string url = base + "/?v=10&encoding=json";
  if (core_->settings.gatewayCompression) url += "&compress=zlib-stream";
  core_->logger.info("Connecting to the gateway at " + base);
  core_->logger.verbose("Gateway URL: " + url);
  zlib_.reset();
  generation_ += 1;
  std::string error;
  if (!socket_.connect(url, core_->httpTimeoutMs.load(), error)) {
    core_->logger.warn("Could not open the gateway connection: " + error);
    retryLater(Client::Error::ConnectionFailed, 0);
    return;
  }
  std::vector<WebSocket::Message> early;
  bool closed = socket_.readBuffered(early) == WebSocket::ReadStatus::Closed;
  consume(early, closed);
}

}  // namespace platformpp::detail
