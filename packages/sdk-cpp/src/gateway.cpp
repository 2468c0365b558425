#include "gateway.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "core.h"
#include "platform.h"
#include "version.h"
#include "worker.h"

namespace platformpp::detail {

namespace {

enum Op : int {
  kDispatch = 0,
  kHeartbeat = 1,
  kIdentify = 2,
  kPresenceUpdate = 3,
  kResume = 6,
  kReconnect = 7,
  kInvalidSession = 9,
  kHello = 10,
  kHeartbeatAck = 11,
};

/// Close codes after which reconnecting cannot help: the client stops and says why.
char const* fatalReason(uint16_t code) {
  switch (code) {
    case 4004:
      return "the token was refused or has been revoked: authorize again, or pass a new token to "
             "UpdateToken()";
    case 4010:
      return "invalid shard";
    case 4011:
      return "sharding required";
    case 4012:
      return "invalid API version";
    case 4013:
      return "invalid intents";
    case 4014:
      return "disallowed intents";
    default:
      return nullptr;
  }
}

/// A close the client makes to reconnect: not 1000/1001, which would end the session.
constexpr uint16_t kReconnectCloseCode = 4900;
constexpr int64_t kMaxBackoffMs = 30000;

}  // namespace

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

void Gateway::onMessage(std::string const& text) {
  Json payload = parseJson(text);
  if (!payload.is_object()) {
    core_->logger.warn("The gateway sent a frame that is not JSON; reconnecting.");
    reconnect();
    return;
  }
  auto seq = payload.find("s");
  if (seq != payload.end() && seq->is_number_integer()) seq_ = seq->get<int64_t>();
  int op = static_cast<int>(intAt(payload, "op", -1));
  Json const& d = payload.contains("d") ? payload["d"] : Json();
  switch (op) {
    case kHello:
      onHello(intAt(d, "heartbeat_interval", 41250));
      return;
    case kHeartbeatAck:
      acked_ = true;
      return;
    case kHeartbeat:
      beat();
      return;
    case kReconnect:
      core_->logger.info("The gateway asked for a reconnect; resuming.");
      reconnect();
      return;
    case kInvalidSession: {
      bool resumable = d.is_boolean() && d.get<bool>();
      if (!resumable) clearSession();
      core_->logger.info(resumable ? "Session invalid; resuming." : "Session ended; identifying anew.");
      reconnect();
      return;
    }
    case kDispatch:
      onDispatch(strAt(payload, "t"), d);
      return;
    default:
      return;
  }
}

void Gateway::onHello(int64_t intervalMs) {
  setStatus(Client::Status::Connected, Client::Error::None, 0);
  heartbeatIntervalMs_ = std::max<int64_t>(intervalMs, 1000);
  acked_ = true;
  std::uniform_real_distribution<double> jitter(0, 1);
  nextBeat_ = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(
                                 static_cast<double>(heartbeatIntervalMs_) * jitter(random_)));
  std::string token = core_->authorization();
  if (!sessionId_.empty()) {
    sendPayload(kResume, Json{{"token", token},
                              {"session_id", sessionId_},
                              {"seq", seq_ ? Json(*seq_) : Json()}});
  } else {
    sendPayload(kIdentify, Json{{"token", token},
                                {"intents", 0},
                                {"properties",
                                 {{"os", platformName()},
                                  {"browser", "guildhall-social-sdk-cpp"},
                                  {"device", kVersionString}}}});
  }
}

void Gateway::onDispatch(std::string const& type, Json const& data) {
  auto core = core_;
  auto post = [core, type, data] { core->post([core, type, data] { core->dispatch(type, data); }); };
  if (type == "READY") {
    sessionId_ = strAt(data, "session_id");
    resumeUrl_ = strAt(data, "resume_gateway_url", gatewayUrl_);
    attempts_ = 0;
    post();
    setStatus(Client::Status::Ready, Client::Error::None, 0);
    // The platform keeps no presence for a new session: the player's goes out again.
    sendPresence();
    return;
  }
  if (type == "RESUMED") {
    attempts_ = 0;
    core_->logger.info("Resumed the gateway session.");
    setStatus(Client::Status::Ready, Client::Error::None, 0);
    post();
    return;
  }
  post();
}

void Gateway::onClose(uint16_t code, std::string const& reason) {
  nextBeat_.reset();
  if (stopping_) return;
  if (char const* fatal = fatalReason(code)) {
    clearSession();
    core_->logger.error("The gateway closed the connection (" + std::to_string(code) +
                        "): " + fatal + ".");
    setStatus(Client::Status::Disconnected, Client::Error::UnexpectedClose, code);
    return;
  }
  if (code == 4007 || code == 4009) clearSession();
  core_->logger.warn("The gateway connection closed (" + std::to_string(code) +
                     (reason.empty() ? "" : ": " + reason) + "); reconnecting.");
  retryLater(Client::Error::UnexpectedClose, code);
}

void Gateway::reconnect() {
  nextBeat_.reset();
  generation_ += 1;
  if (socket_.open()) socket_.close(kReconnectCloseCode, "reconnect");
  if (stopping_) return;
  setStatus(Client::Status::Reconnecting, Client::Error::None, 0);
  std::uniform_int_distribution<int> delay(250, 1000);
  retryAt_ = Clock::now() + std::chrono::milliseconds(delay(random_));
}

void Gateway::retryLater(Client::Error error, int32_t detail) {
  if (stopping_) return;
  setStatus(Client::Status::Reconnecting, error, detail);
  double base = std::min<double>(kMaxBackoffMs, 1000 * std::pow(2, std::min(attempts_, 16)));
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  attempts_ += 1;
  retryAt_ = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(base * jitter(random_)));
}

void Gateway::beat() {
  acked_ = false;
  sendPayload(kHeartbeat, seq_ ? Json(*seq_) : Json());
}

void Gateway::sendPayload(int op, Json const& d) {
  if (!socket_.open()) return;
  if (!socket_.sendText(toText(Json{{"op", op}, {"d", d}}))) {
    core_->logger.warn("A gateway frame could not be sent; reconnecting.");
    reconnect();
  }
}

void Gateway::sendPresence() { sendPayload(kPresenceUpdate, presence_); }

void Gateway::clearSession() {
  sessionId_.clear();
  seq_.reset();
}

void Gateway::setStatus(Client::Status status, Client::Error error, int32_t detail) {
  if (status == status_ && error == Client::Error::None) return;
  status_ = status;
  std::string line = "Status: " + Client::StatusToString(status);
  if (error != Client::Error::None) {
    line += " (" + Client::ErrorToString(error) + ", " + std::to_string(detail) + ")";
  }
  core_->logger.info(line);
  auto core = core_;
  core_->post([core, status, error, detail] {
    Client::OnStatusChanged callback;
    {
      std::lock_guard lock(core->mutex);
      core->status = status;
      callback = core->callbacks.statusChanged;
    }
    if (callback) callback(status, error, detail);
  });
}

}  // namespace platformpp::detail
